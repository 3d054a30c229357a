/*
 * The C ABI from C: the seed's case, every lane, errors, the registry, threads, the bridge.
 *
 *   test_abi                    the tests below
 *   test_abi --corpus FILE…     every file through every lane: no call may end in a panic
 *   test_abi --server CMD ARGS  the bridge against a real stdio server (the everything server)
 *   test_abi --asking CMD ARGS  the bridge against a server that asks before it answers
 *
 * Exits 0 when every check holds; each failed check prints its line.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp_agent_view.h"

static int failures = 0;

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                          \
    }                                                                      \
  } while (0)

static const char *SEED_CASE =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":["
    "{\"type\":\"text\",\"text\":\"Here is the report.\"},"
    "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///q3.txt?token=s3cret\","
    "\"mimeType\":\"text/plain\",\"text\":\"Quarterly notes: revenue up 4%.\"}},"
    "{\"type\":\"image\",\"data\":\"iVBORw0KGgo=\",\"mimeType\":\"image/png\"}]}}";

static const char *LINK =
    "{\"content\":[{\"type\":\"resource_link\",\"uri\":\"https://files.example/q3.xlsx?sig=s3cret\","
    "\"name\":\"q3.xlsx\",\"mimeType\":\"application/pdf\"}]}";

/* Calls a text-returning lane; the text, or NULL with the error kept in *err. */
#define LEN(s) (strlen(s))

static void expect_error(int rc, mav_error *err, const char *kind) {
  CHECK(rc == MAV_ERROR);
  CHECK(err != NULL);
  if (err != NULL) {
    if (strcmp(err->kind, kind) != 0) fprintf(stderr, "  kind %s, expected %s: %s\n", err->kind, kind, err->message);
    CHECK(strcmp(err->kind, kind) == 0);
    CHECK(strlen(err->message) > 0);
  }
  mav_error_free(err);
}

static void test_seed_case(void) {
  mav_registry *reg = NULL;
  mav_error *err = NULL;
  CHECK(mav_registry_new(true, 7, NULL, &reg, &err) == MAV_OK);
  char *out = NULL;
  size_t len = 0;
  CHECK(mav_history((const uint8_t *)SEED_CASE, LEN(SEED_CASE), reg, NULL, -1, &out, &len, &err) == MAV_OK);
  CHECK(err == NULL);
  CHECK(out != NULL && strcmp(out, "Here is the report.\nQuarterly notes: revenue up 4%.\n[image: image/png, 8B]") == 0);
  CHECK(len == strlen(out));
  mav_string_free(out);

  /* Every block kept on the convert lane, the text read, no uri. */
  CHECK(mav_convert((const uint8_t *)SEED_CASE, LEN(SEED_CASE), reg, "anthropic", NULL, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "Quarterly notes: revenue up 4%.") != NULL);
  CHECK(strstr(out, "\"type\":\"image\"") != NULL);
  CHECK(strstr(out, "s3cret") == NULL && strstr(out, "file://") == NULL);
  mav_string_free(out);

  mav_tool_result *result = NULL;
  CHECK(mav_tool_result_new((const uint8_t *)SEED_CASE, LEN(SEED_CASE), "report", "toolu_1", reg, "anthropic", &result, &err) == MAV_OK);
  CHECK(!mav_tool_result_is_error(result));
  const mav_tool_result *results[] = {result};
  CHECK(mav_tool_result_messages(results, 1, "anthropic", &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "\"tool_use_id\":\"toolu_1\"") != NULL);
  CHECK(strstr(out, "Quarterly notes") != NULL && strstr(out, "s3cret") == NULL);
  mav_string_free(out);
  CHECK(mav_tool_result_view(result, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "\"isError\":false") != NULL);
  mav_string_free(out);
  mav_tool_result_free(result);
  mav_registry_free(reg);
}

static void test_errors(void) {
  mav_registry *reg = NULL;
  mav_error *err = NULL;
  CHECK(mav_registry_new(true, 7, NULL, &reg, &err) == MAV_OK);
  char *out = (char *)1;
  size_t len = 99;

  const char *broken = "{\"content\": [\n  {\"type\": \"text\", \"text\": }]}";
  int rc = mav_history((const uint8_t *)broken, LEN(broken), reg, NULL, -1, &out, &len, &err);
  CHECK(out == NULL && len == 0);
  CHECK(err != NULL && err->line == 2 && err->column > 0);
  expect_error(rc, err, "Json");

  err = NULL;
  rc = mav_history((const uint8_t *)"{\"x\":1}", 7, reg, NULL, -1, &out, &len, &err);
  expect_error(rc, err, "UnrecognizedMessage");

  err = NULL;
  rc = mav_convert((const uint8_t *)LINK, LEN(LINK), reg, "gemini", NULL, &out, &len, &err);
  expect_error(rc, err, "UnknownProvider");

  err = NULL;
  rc = mav_history((const uint8_t *)LINK, LEN(LINK), reg, "rumour", -1, &out, &len, &err);
  expect_error(rc, err, "UnknownProvenance");

  /* Null pointers are refused, never read. */
  err = NULL;
  rc = mav_history(NULL, 5, reg, NULL, -1, &out, &len, &err);
  expect_error(rc, err, "InvalidArgument");
  err = NULL;
  rc = mav_history((const uint8_t *)LINK, LEN(LINK), NULL, NULL, -1, &out, &len, &err);
  expect_error(rc, err, "InvalidArgument");
  err = NULL;
  rc = mav_history((const uint8_t *)LINK, LEN(LINK), reg, NULL, -1, NULL, &len, &err);
  expect_error(rc, err, "InvalidArgument");
  CHECK(mav_history((const uint8_t *)LINK, LEN(LINK), reg, NULL, -1, &out, &len, NULL) == MAV_OK);
  mav_string_free(out);
  err = NULL;
  rc = mav_tool_result_messages(NULL, 2, NULL, &out, &len, &err);
  expect_error(rc, err, "InvalidArgument");

  /* Text that is not UTF-8. */
  err = NULL;
  rc = mav_history((const uint8_t *)LINK, LEN(LINK), reg, "tool\xff", -1, &out, &len, &err);
  expect_error(rc, err, "InvalidArgument");

  /* A failed call is a tool result, never an error of the ABI. */
  mav_tool_result *failed = NULL;
  CHECK(mav_tool_call_failed("search", "toolu_9", "connection closed", NULL, &failed, &err) == MAV_OK);
  CHECK(mav_tool_result_is_error(failed));
  CHECK(mav_tool_result_view(failed, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "connection closed") != NULL);
  mav_string_free(out);
  err = NULL;
  rc = mav_tool_result_retry_params(failed, NULL, 0, (const uint8_t *)"{}", 2, &out, &len, &err);
  expect_error(rc, err, "InputResponses");
  mav_tool_result_free(failed);

  mav_error_free(NULL);
  mav_string_free(NULL);
  mav_registry_free(NULL);
  mav_tool_result_free(NULL);
  mav_server_close(NULL);
  mav_registry_free(reg);
}

static void test_registry(void) {
  mav_registry *reg = NULL;
  mav_error *err = NULL;
  CHECK(mav_registry_new(true, 7, "fetch_reference", &reg, &err) == MAV_OK);
  char *out = NULL;
  size_t len = 0;
  CHECK(mav_history((const uint8_t *)LINK, LEN(LINK), reg, NULL, -1, &out, &len, &err) == MAV_OK);
  CHECK(strncmp(out, "[ref_", 5) == 0);
  CHECK(strstr(out, "s3cret") == NULL);
  CHECK(strstr(out, "fetch_reference") != NULL);
  char id[64] = {0};
  const char *end = strchr(out, ']');
  CHECK(end != NULL && (size_t)(end - out - 1) < sizeof id);
  if (end != NULL) memcpy(id, out + 1, (size_t)(end - out - 1));
  mav_string_free(out);
  CHECK(mav_registry_len(reg) == 1);

  CHECK(mav_registry_lookup(reg, id, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "https://files.example/q3.xlsx?sig=s3cret") != NULL);
  mav_string_free(out);

  char *snapshot = NULL;
  size_t snapshot_len = 0;
  CHECK(mav_registry_snapshot(reg, &snapshot, &snapshot_len, &err) == MAV_OK);
  mav_registry *again = NULL;
  CHECK(mav_registry_restore((const uint8_t *)snapshot, snapshot_len, &again, &err) == MAV_OK);
  mav_string_free(snapshot);
  CHECK(mav_registry_lookup(again, id, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "q3.xlsx") != NULL);
  mav_string_free(out);
  mav_registry_free(again);

  err = NULL;
  int rc = mav_registry_lookup(reg, "ref_nothing", &out, &len, &err);
  expect_error(rc, err, "UnknownReference");
  err = NULL;
  mav_registry *none = NULL;
  rc = mav_registry_restore((const uint8_t *)"{}", 2, &none, &err);
  CHECK(none == NULL);
  expect_error(rc, err, "Snapshot");
  err = NULL;
  rc = mav_registry_new(false, 0, "no spaces allowed", &none, &err);
  expect_error(rc, err, "ToolName");
  mav_registry_free(reg);
}

static void test_other_lanes(void) {
  mav_registry *reg = NULL;
  mav_error *err = NULL;
  CHECK(mav_registry_new(true, 7, NULL, &reg, &err) == MAV_OK);
  char *out = NULL;
  size_t len = 0;

  CHECK(mav_classify((const uint8_t *)SEED_CASE, LEN(SEED_CASE), &out, &len, &err) == MAV_OK);
  CHECK(out[0] == '[' && out[len - 1] == ']');
  CHECK(strstr(out, "\"index\":2") != NULL);
  mav_string_free(out);

  CHECK(mav_script((const uint8_t *)SEED_CASE, LEN(SEED_CASE), reg, "openai-chat", &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "Quarterly notes") != NULL && strstr(out, "s3cret") == NULL);
  mav_string_free(out);

  const char *prompt = "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"Review this.\"}}]}";
  CHECK(mav_prompt_messages((const uint8_t *)prompt, LEN(prompt), reg, "anthropic", &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "Review this.") != NULL && strstr(out, "\"role\":\"user\"") != NULL);
  mav_string_free(out);

  const char *tools = "[{\"name\":\"search\",\"description\":\"Finds.\",\"inputSchema\":{\"type\":\"object\"}}]";
  CHECK(mav_tool_definitions((const uint8_t *)tools, LEN(tools), "openai-responses", &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "\"name\":\"search\"") != NULL && strstr(out, "\"strict\":false") != NULL);
  mav_string_free(out);

  /* A structuredContent-only result is never empty. */
  const char *structured = "{\"content\":[],\"structuredContent\":{\"temperature\":21}}";
  CHECK(mav_history((const uint8_t *)structured, LEN(structured), reg, NULL, -1, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "temperature") != NULL);
  mav_string_free(out);

  /* The budget cuts, with a notice. */
  const char *long_text = "{\"content\":[{\"type\":\"text\",\"text\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}]}";
  CHECK(mav_history((const uint8_t *)long_text, LEN(long_text), reg, NULL, 20, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "[truncated]") != NULL);
  mav_string_free(out);

  CHECK(mav_names(&out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "\"openai-responses\"") != NULL && strstr(out, "\"tool-result\"") != NULL);
  mav_string_free(out);
  CHECK(strlen(mav_version()) > 0);
  mav_registry_free(reg);
}

/* A reference fetched through the fetch tool: a data: uri under a policy that allows it. */
static void test_fetch(void) {
  mav_registry *reg = NULL;
  mav_error *err = NULL;
  CHECK(mav_registry_new(true, 7, "fetch_reference", &reg, &err) == MAV_OK);
  const char *link = "{\"content\":[{\"type\":\"resource_link\",\"uri\":\"data:text/plain,hello%20there\",\"name\":\"note.txt\",\"mimeType\":\"text/plain\"}]}";
  char *out = NULL;
  size_t len = 0;
  CHECK(mav_history((const uint8_t *)link, strlen(link), reg, NULL, -1, &out, &len, &err) == MAV_OK);
  char input[64] = {0};
  const char *end = strchr(out, ']');
  if (end != NULL && end - out - 1 < 40) snprintf(input, sizeof input, "{\"ref_id\":\"%.*s\"}", (int)(end - out - 1), out + 1);
  mav_string_free(out);

  mav_fetcher *refusing = NULL;
  CHECK(mav_fetcher_new(NULL, 0, &refusing, &err) == MAV_OK);
  mav_tool_result *result = NULL;
  CHECK(mav_fetch_reference(refusing, (const uint8_t *)input, strlen(input), "toolu_f", reg, NULL, &result, &err) == MAV_OK);
  CHECK(mav_tool_result_is_error(result));
  CHECK(mav_tool_result_view(result, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "data:") == NULL && strstr(out, "hello") == NULL);
  mav_string_free(out);
  mav_tool_result_free(result);
  mav_fetcher_free(refusing);

  const char *settings = "{\"allowSchemes\":[\"data\"],\"maxBytes\":1024}";
  mav_fetcher *fetcher = NULL;
  CHECK(mav_fetcher_new((const uint8_t *)settings, strlen(settings), &fetcher, &err) == MAV_OK);
  CHECK(mav_fetch_reference(fetcher, (const uint8_t *)input, strlen(input), "toolu_f", reg, "anthropic", &result, &err) == MAV_OK);
  CHECK(!mav_tool_result_is_error(result));
  CHECK(mav_tool_result_view(result, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "hello there") != NULL);
  mav_string_free(out);
  mav_tool_result_free(result);
  mav_fetcher_free(fetcher);

  CHECK(mav_fetch_tool_definition("openai-chat", NULL, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "\"fetch_reference\"") != NULL && strstr(out, "ref_id") != NULL);
  mav_string_free(out);

  err = NULL;
  mav_fetcher *none = NULL;
  const char *file_only = "{\"allowSchemes\":[\"file\"]}";
  int rc = mav_fetcher_new((const uint8_t *)file_only, strlen(file_only), &none, &err);
  expect_error(rc, err, "Policy");
  err = NULL;
  const char *negative = "{\"timeoutMs\":-1}";
  rc = mav_fetcher_new((const uint8_t *)negative, strlen(negative), &none, &err);
  expect_error(rc, err, "InvalidArgument");
  CHECK(none == NULL);
  mav_fetcher_free(NULL);
  mav_registry_free(reg);
}

/* A NUL inside the input's text reaches the output, and out_len counts past it. */
static void test_nul_in_text(void) {
  mav_registry *reg = NULL;
  mav_error *err = NULL;
  CHECK(mav_registry_new(true, 7, NULL, &reg, &err) == MAV_OK);
  const char *json = "{\"content\":[{\"type\":\"text\",\"text\":\"a\\u0000b\"}]}";
  char *out = NULL;
  size_t len = 0;
  CHECK(mav_history((const uint8_t *)json, LEN(json), reg, NULL, -1, &out, &len, &err) == MAV_OK);
  CHECK(len == 3 && out[0] == 'a' && out[1] == '\0' && out[2] == 'b' && out[3] == '\0');
  mav_string_free(out);
  mav_registry_free(reg);
}

struct shared {
  mav_registry *reg;
  int ok;
};

static void *worker(void *arg) {
  struct shared *shared = arg;
  for (int i = 0; i < 200; i++) {
    char json[256];
    snprintf(json, sizeof json,
             "{\"content\":[{\"type\":\"resource_link\",\"uri\":\"https://x.example/%d\",\"name\":\"r%d\"}]}", i, i);
    char *out = NULL;
    size_t len = 0;
    mav_error *err = NULL;
    if (mav_history((const uint8_t *)json, strlen(json), shared->reg, NULL, -1, &out, &len, &err) != MAV_OK) {
      mav_error_free(err);
      return NULL;
    }
    mav_string_free(out);
  }
  __atomic_add_fetch(&shared->ok, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

/* One registry, four threads: each reference registered once. */
static void test_threads(void) {
  struct shared shared = {NULL, 0};
  mav_error *err = NULL;
  CHECK(mav_registry_new(true, 7, NULL, &shared.reg, &err) == MAV_OK);
  pthread_t threads[4];
  for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, worker, &shared);
  for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
  CHECK(shared.ok == 4);
  CHECK(mav_registry_len(shared.reg) == 200);
  mav_registry_free(shared.reg);
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc(size > 0 ? (size_t)size : 1);
  *len = fread(data, 1, size > 0 ? (size_t)size : 0, f);
  fclose(f);
  return data;
}

/* Any kind but Panic is an answer. */
static void no_panic(int rc, mav_error **slot, const char *path, const char *lane) {
  mav_error *err = *slot;
  *slot = NULL;
  if (rc != MAV_OK) {
    if (err == NULL || strcmp(err->kind, "Panic") == 0) {
      fprintf(stderr, "%s: %s: %s\n", path, lane, err ? err->message : "no error");
      failures++;
    }
  }
  mav_error_free(err);
}

static int run_corpus(int argc, char **argv) {
  mav_registry *reg = NULL;
  mav_error *err = NULL;
  mav_registry_new(true, 7, NULL, &reg, &err);
  const char *targets[] = {"neutral", "anthropic", "openai-chat", "openai-responses"};
  int files = 0;
  for (int i = 0; i < argc; i++) {
    size_t len = 0;
    char *data = read_file(argv[i], &len);
    if (data == NULL) continue;
    files++;
    const uint8_t *bytes = (const uint8_t *)data;
    char *out = NULL;
    size_t out_len = 0;
    err = NULL;
    no_panic(mav_history(bytes, len, reg, NULL, -1, &out, &out_len, &err), &err, argv[i], "history");
    mav_string_free(out);
    err = NULL;
    no_panic(mav_history(bytes, len, reg, "event", 40, &out, &out_len, &err), &err, argv[i], "history budget");
    mav_string_free(out);
    err = NULL;
    no_panic(mav_classify(bytes, len, &out, &out_len, &err), &err, argv[i], "classify");
    mav_string_free(out);
    for (int t = 0; t < 4; t++) {
      err = NULL;
      no_panic(mav_convert(bytes, len, reg, targets[t], NULL, &out, &out_len, &err), &err, argv[i], "convert");
      mav_string_free(out);
      err = NULL;
      no_panic(mav_script(bytes, len, reg, targets[t], &out, &out_len, &err), &err, argv[i], "script");
      mav_string_free(out);
      err = NULL;
      no_panic(mav_prompt_messages(bytes, len, reg, targets[t], &out, &out_len, &err), &err, argv[i], "prompt");
      mav_string_free(out);
      err = NULL;
      no_panic(mav_sampling_request(bytes, len, reg, targets[t], &out, &out_len, &err), &err, argv[i], "sampling");
      mav_string_free(out);
      err = NULL;
      no_panic(mav_tool_definitions(bytes, len, targets[t], &out, &out_len, &err), &err, argv[i], "tool_definitions");
      mav_string_free(out);
      mav_tool_result *result = NULL;
      err = NULL;
      int rc = mav_tool_result_new(bytes, len, "t", "toolu_1", reg, targets[t], &result, &err);
      no_panic(rc, &err, argv[i], "tool_result");
      if (rc == MAV_OK) {
        const mav_tool_result *one[] = {result};
        err = NULL;
        no_panic(mav_tool_result_messages(one, 1, targets[t], &out, &out_len, &err), &err, argv[i], "messages");
        mav_string_free(out);
        err = NULL;
        no_panic(mav_tool_result_view(result, &out, &out_len, &err), &err, argv[i], "view");
        mav_string_free(out);
      }
      mav_tool_result_free(result);
    }
    err = NULL;
    no_panic(mav_elicitation(bytes, len, &out, &out_len, &err), &err, argv[i], "elicitation");
    mav_string_free(out);
    mav_registry *restored = NULL;
    err = NULL;
    no_panic(mav_registry_restore(bytes, len, &restored, &err), &err, argv[i], "restore");
    mav_registry_free(restored);
    free(data);
  }
  mav_registry_free(reg);
  printf("corpus: %d files through every lane\n", files);
  return files > 0 && failures == 0 ? 0 : 1;
}

struct calls {
  mav_server *server;
  int ok;
};

/* Twenty echo calls on one server from one thread of four. */
static void *caller(void *arg) {
  struct calls *calls = arg;
  for (int i = 0; i < 20; i++) {
    char args[64];
    snprintf(args, sizeof args, "{\"message\":\"call %d\"}", i);
    char *out = NULL;
    size_t len = 0;
    mav_error *err = NULL;
    if (mav_server_call_tool(calls->server, "echo", (const uint8_t *)args, strlen(args), 0, &out, &len, &err) != MAV_OK) {
      mav_error_free(err);
      return NULL;
    }
    char want[32];
    snprintf(want, sizeof want, "call %d", i);
    int echoed = strstr(out, want) != NULL;
    mav_string_free(out);
    if (!echoed) return NULL;
  }
  __atomic_add_fetch(&calls->ok, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

static int run_server(int argc, char **argv) {
  mav_server *server = NULL;
  mav_error *err = NULL;
  if (mav_server_start((const char *const *)argv, (size_t)argc, 60000, NULL, NULL, &server, &err) != MAV_OK) {
    fprintf(stderr, "start: %s: %s\n", err->kind, err->message);
    mav_error_free(err);
    return 1;
  }
  char *out = NULL;
  size_t len = 0;
  CHECK(mav_server_list_tools(server, 0, &out, &len, &err) == MAV_OK);
  CHECK(out != NULL && strstr(out, "get-tiny-image") != NULL);
  mav_string_free(out);

  mav_registry *reg = NULL;
  mav_registry_new(true, 7, NULL, &reg, &err);
  CHECK(mav_server_call_tool(server, "get-tiny-image", NULL, 0, 30000, &out, &len, &err) == MAV_OK);
  mav_tool_result *result = NULL;
  CHECK(mav_tool_result_new((const uint8_t *)out, len, "get-tiny-image", "toolu_1", reg, "anthropic", &result, &err) == MAV_OK);
  mav_string_free(out);
  const mav_tool_result *one[] = {result};
  CHECK(mav_tool_result_messages(one, 1, "anthropic", &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "\"type\":\"image\"") != NULL);
  mav_string_free(out);
  mav_tool_result_free(result);

  /* A call the server refuses is an answer (a JSON-RPC error), not an error of the ABI. */
  const char *args = "{\"message\":\"hi\"}";
  CHECK(mav_server_call_tool(server, "no-such-tool", (const uint8_t *)args, strlen(args), 0, &out, &len, &err) == MAV_OK);
  CHECK(mav_tool_result_new((const uint8_t *)out, len, "no-such-tool", "toolu_2", reg, NULL, &result, &err) == MAV_OK);
  CHECK(mav_tool_result_is_error(result));
  mav_tool_result_free(result);
  mav_string_free(out);

  CHECK(mav_server_call_tool(server, "echo", (const uint8_t *)args, strlen(args), 0, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "hi") != NULL);
  mav_string_free(out);

  const char *prompt_args = "{}";
  CHECK(mav_server_get_prompt(server, "simple-prompt", (const uint8_t *)prompt_args, 2, 0, &out, &len, &err) == MAV_OK);
  CHECK(strstr(out, "messages") != NULL);
  mav_string_free(out);

  err = NULL;
  int rc = mav_server_call_tool(server, "echo", (const uint8_t *)"[1]", 3, 0, &out, &len, &err);
  expect_error(rc, err, "InvalidArgument");

  /* One server, four threads calling at once: every call answered, each its own answer. */
  struct calls calls = {server, 0};
  pthread_t threads[4];
  for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, caller, &calls);
  for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
  CHECK(calls.ok == 4);

  mav_registry_free(reg);
  mav_server_close(server);

  /* A program that does not exist fails to start, saying so. */
  const char *missing[] = {"/nonexistent/mcp-server"};
  err = NULL;
  rc = mav_server_start(missing, 1, 5000, NULL, NULL, &server, &err);
  CHECK(server == NULL);
  expect_error(rc, err, "Server");
  return failures == 0 ? 0 : 1;
}

/* The host's answers to a server that asks: sampling answered "Paris", elicitation declined,
 * no roots. Counts the calls in *context. */
static char *answer_input(void *context, const char *method, const char *params, size_t params_len) {
  __atomic_add_fetch((int *)context, 1, __ATOMIC_SEQ_CST);
  CHECK(strlen(params) == params_len);
  const char *answer = NULL;
  if (strcmp(method, "sampling/createMessage") == 0) {
    CHECK(strstr(params, "capital of France") != NULL);
    answer = "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"Paris\"},\"model\":\"m\",\"stopReason\":\"endTurn\"}";
  } else if (strcmp(method, "elicitation/create") == 0) {
    answer = "{\"action\":\"decline\"}";
  } else if (strcmp(method, "roots/list") == 0) {
    answer = "{\"roots\":[]}";
  }
  return answer ? strdup(answer) : NULL;
}

/* A server that asks before it answers, answered through the callback. */
static int run_asking(int argc, char **argv) {
  int asked = 0;
  mav_server *server = NULL;
  mav_error *err = NULL;
  if (mav_server_start((const char *const *)argv, (size_t)argc, 60000, answer_input, &asked, &server, &err) != MAV_OK) {
    fprintf(stderr, "start: %s: %s\n", err->kind, err->message);
    mav_error_free(err);
    return 1;
  }
  mav_registry *reg = NULL;
  mav_registry_new(true, 7, NULL, &reg, &err);
  const char *tools[] = {"ask_user", "ask_model"};
  const char *said[] = {"login: decline; roots: 0; state: state-1", "The model said: Paris"};
  for (int i = 0; i < 2; i++) {
    char *out = NULL;
    size_t len = 0;
    CHECK(mav_server_call_tool(server, tools[i], (const uint8_t *)"{}", 2, 0, &out, &len, &err) == MAV_OK);
    if (out == NULL) continue;
    char *text = NULL;
    CHECK(mav_history((const uint8_t *)out, len, reg, NULL, -1, &text, &len, &err) == MAV_OK);
    if (text == NULL || strcmp(text, said[i]) != 0) fprintf(stderr, "  %s: %s\n", tools[i], text ? text : "(none)");
    CHECK(text != NULL && strcmp(text, said[i]) == 0);
    mav_string_free(text);
    mav_string_free(out);
  }
  CHECK(asked >= 3);
  mav_registry_free(reg);
  mav_server_close(server);
  return failures == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "--asking") == 0) return run_asking(argc - 2, argv + 2);
  if (argc > 1 && strcmp(argv[1], "--corpus") == 0) return run_corpus(argc - 2, argv + 2);
  if (argc > 2 && strcmp(argv[1], "--server") == 0) return run_server(argc - 2, argv + 2);
  test_seed_case();
  test_errors();
  test_registry();
  test_other_lanes();
  test_nul_in_text();
  test_fetch();
  test_threads();
  if (failures == 0) printf("test_abi: every check holds\n");
  return failures == 0 ? 0 : 1;
}
