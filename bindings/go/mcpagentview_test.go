package mcpagentview

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
)

const seed = 7

var (
	root      = filepath.Join("..", "..")
	targets   = []string{Neutral, Anthropic, OpenAIChat, OpenAIResponses}
	cliOnce   sync.Once
	cliBinary string
)

// cli runs the crate's CLI (building it where it is missing) with the same seed.
func cli(t *testing.T, input []byte, args ...string) ([]byte, bool) {
	t.Helper()
	cliOnce.Do(func() {
		cliBinary = filepath.Join(root, "target", "debug", "mcp-agent-view")
		if _, err := os.Stat(cliBinary); err != nil {
			build := exec.Command("cargo", "build", "-q")
			build.Dir = root
			build.Stderr = os.Stderr
			if err := build.Run(); err != nil {
				t.Fatalf("cargo build: %v", err)
			}
		}
	})
	cmd := exec.Command(cliBinary, append(args, "--seed", "7")...)
	cmd.Stdin = bytes.NewReader(input)
	out, err := cmd.Output()
	return out, err == nil
}

type vector struct {
	name    string
	message []byte
}

// vectors reads every MCP message the vector files hold, as tests/vectors.rs reads them.
func vectors(t testing.TB) []vector {
	t.Helper()
	dir := filepath.Join(root, "tests", "vectors", "mcp")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) < 50 {
		t.Fatalf("vectors in %s: %d, %v", dir, len(files), err)
	}
	sort.Strings(files)
	keys := []string{"response", "value", "final_tool_result", "round1_response", "round2_response", "client_stub_response"}
	var out []vector
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var object map[string]json.RawMessage
		if json.Unmarshal(data, &object) != nil {
			continue
		}
		stem := strings.TrimSuffix(filepath.Base(file), ".json")
		for _, key := range keys {
			if m, ok := object[key]; ok {
				out = append(out, vector{stem + ":" + key, m})
			}
		}
		var cases []map[string]json.RawMessage
		if json.Unmarshal(object["cases"], &cases) == nil {
			for i, c := range cases {
				if v, ok := c["value"]; ok {
					out = append(out, vector{stem + ":cases[" + string(rune('0'+i%10)) + "]", v})
				}
			}
		}
	}
	return out
}

func registry(t testing.TB) *Registry {
	t.Helper()
	r, err := NewRegistry(WithSeed(seed))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// sameJSON holds two JSON texts equal as values.
func sameJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var g, w interface{}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: ours is no JSON: %v: %s", what, err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s: the CLI's is no JSON: %v: %s", what, err, want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got  %s\n want %s", what, got, want)
	}
}

func marshal(t *testing.T, v interface{}) []byte {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEveryVectorReadsAsTheCrateReadsIt(t *testing.T) {
	all := vectors(t)
	if len(all) < 100 {
		t.Fatalf("%d messages", len(all))
	}
	for _, v := range all {
		shown, ok := cli(t, v.message, "history")
		text, err := History(v.message, registry(t), nil)
		if !ok {
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%s: the CLI refused it, we gave %q, %v", v.name, text, err)
			}
			continue
		}
		if err != nil || text != strings.TrimSuffix(string(shown), "\n") {
			t.Errorf("%s: history %q, %v; the CLI: %q", v.name, text, err, shown)
		}

		lines, _ := cli(t, v.message, "classify")
		want := []json.RawMessage{}
		for _, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
			if line != "" {
				want = append(want, json.RawMessage(line))
			}
		}
		items, err := Classify(v.message)
		if err != nil {
			t.Fatalf("%s: classify: %v", v.name, err)
		}
		got := make([]map[string]json.RawMessage, len(items))
		for i, item := range items {
			got[i] = map[string]json.RawMessage{"index": marshal(t, item.Index), "class": marshal(t, item.Class)}
			for k, f := range item.Fields {
				got[i][k] = f
			}
		}
		sameJSON(t, v.name+" classify", marshal(t, got), marshal(t, want))

		for _, target := range targets {
			at := v.name + " " + target
			blocks, _ := cli(t, v.message, "blocks", "--target", target)
			converted, err := Convert(v.message, registry(t), &Options{Target: target})
			if err != nil {
				t.Fatalf("%s: convert: %v", at, err)
			}
			sameJSON(t, at+" convert", marshal(t, converted.Content), blocks)

			script, _ := cli(t, v.message, "script", "--target", target)
			ours, err := Script(v.message, registry(t), target)
			if err != nil {
				t.Fatalf("%s: script: %v", at, err)
			}
			sameJSON(t, at+" script", ours, script)

			out, _ := cli(t, v.message, "tool-result", "--name", "t", "--id", "toolu_1", "--target", target)
			var cliResult struct {
				Messages    json.RawMessage `json:"messages"`
				HeldForUser json.RawMessage `json:"heldForUser"`
			}
			if err := json.Unmarshal(out, &cliResult); err != nil {
				t.Fatalf("%s: tool-result: %v", at, err)
			}
			result, err := NewToolResult(v.message, "t", "toolu_1", registry(t), target)
			if err != nil {
				t.Fatalf("%s: tool result: %v", at, err)
			}
			messages, err := ToolResultMessages([]*ToolResult{result}, target)
			if err != nil {
				t.Fatalf("%s: messages: %v", at, err)
			}
			sameJSON(t, at+" tool result", marshal(t, messages), cliResult.Messages)
			sameJSON(t, at+" held for user", marshal(t, result.HeldForUser), cliResult.HeldForUser)

			prompt, _ := cli(t, v.message, "prompt", "--target", target)
			promptMessages, err := PromptMessages(v.message, registry(t), target)
			if err != nil {
				t.Fatalf("%s: prompt: %v", at, err)
			}
			sameJSON(t, at+" prompt", marshal(t, promptMessages), prompt)
		}
	}
}

// The seed's case: an embedded resource beside text and an image; every block kept, the text
// read, no uri.
func TestTheSeedsCaseKeepsEveryBlock(t *testing.T) {
	answer := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[
		{"type":"text","text":"Here is the report."},
		{"type":"resource","resource":{"uri":"file:///q3.txt?token=s3cret","mimeType":"text/plain","text":"Quarterly notes: revenue up 4%."}},
		{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}}`)
	r := registry(t)
	text, err := History(answer, r, nil)
	if err != nil || text != "Here is the report.\nQuarterly notes: revenue up 4%.\n[image: image/png, 8B]" {
		t.Fatalf("history: %q, %v", text, err)
	}
	result, err := NewToolResult(answer, "report", "toolu_1", r, Anthropic)
	if err != nil {
		t.Fatal(err)
	}
	if result.IsError || len(result.Content) != 3 {
		t.Fatalf("%+v", result)
	}
	all := string(marshal(t, result.Content))
	for _, want := range []string{"Here is the report.", "Quarterly notes: revenue up 4%.", `"type":"image"`} {
		if !strings.Contains(all, want) {
			t.Errorf("%q not in %s", want, all)
		}
	}
	if strings.Contains(all, "s3cret") || strings.Contains(all, "file://") {
		t.Errorf("a uri reached the model: %s", all)
	}
}

func TestErrorsAreTheCratesErrors(t *testing.T) {
	r := registry(t)
	_, err := History([]byte("{\"content\": [\n {\"type\": \"text\", \"text\": }]}"), r, nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != "Json" || e.Line != 2 || e.Column == 0 {
		t.Fatalf("%#v", err)
	}
	if _, err := History([]byte(`{"x":1}`), r, nil); !errors.As(err, &e) || e.Kind != "UnrecognizedMessage" {
		t.Fatalf("%v", err)
	}
	if _, err := Convert([]byte(`{"content":[]}`), r, &Options{Target: "gemini"}); !errors.As(err, &e) || e.Kind != "UnknownProvider" {
		t.Fatalf("%v", err)
	}
	if _, err := History([]byte(`{"content":[]}`), r, &HistoryOptions{Provenance: "rumour"}); !errors.As(err, &e) || e.Kind != "UnknownProvenance" {
		t.Fatalf("%v", err)
	}
	if _, err := History([]byte(`{"content":[]}`), nil, nil); !errors.As(err, &e) || e.Kind != "InvalidArgument" {
		t.Fatalf("%v", err)
	}
	if !strings.Contains(err.Error(), "mcp-agent-view: ") {
		t.Fatalf("%q", err.Error())
	}
	// A failed call is a tool result, never an error.
	failed, err := ToolCallFailed("search", "toolu_9", "connection closed", "")
	if err != nil || !failed.IsError || !strings.Contains(string(marshal(t, failed.Content)), "connection closed") {
		t.Fatalf("%+v, %v", failed, err)
	}
	if _, err := failed.RetryParams(nil, nil); !errors.As(err, &e) || e.Kind != "InputResponses" {
		t.Fatalf("%v", err)
	}
	refused, err := NewToolResult([]byte(`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool"}}`), "t", "toolu_2", r, "")
	if err != nil || !refused.IsError {
		t.Fatalf("%+v, %v", refused, err)
	}
}

func TestTheRegistryMapsIdsBackAndRestores(t *testing.T) {
	r, err := NewRegistry(WithSeed(seed), WithFetchTool("fetch_reference"))
	if err != nil {
		t.Fatal(err)
	}
	link := []byte(`{"content":[{"type":"resource_link","uri":"https://files.example/q3.xlsx?sig=s3cret","name":"q3.xlsx"}]}`)
	text, err := History(link, r, nil)
	if err != nil || !strings.HasPrefix(text, "[ref_") || strings.Contains(text, "s3cret") || !strings.Contains(text, "fetch_reference") {
		t.Fatalf("%q, %v", text, err)
	}
	id := text[1:strings.Index(text, "]")]
	record, err := r.Lookup(id)
	if err != nil || record.URI != "https://files.example/q3.xlsx?sig=s3cret" || record.Name == nil || *record.Name != "q3.xlsx" {
		t.Fatalf("%+v, %v", record, err)
	}
	snapshot, err := r.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	again, err := RestoreRegistry(snapshot)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got, err := again.Lookup(id); err != nil || got.URI != record.URI {
		t.Fatalf("%+v, %v", got, err)
	}
	var e *Error
	if _, err := r.Lookup("ref_none"); !errors.As(err, &e) || e.Kind != "UnknownReference" {
		t.Fatalf("%v", err)
	}
	if _, err := RestoreRegistry([]byte("{}")); !errors.As(err, &e) || e.Kind != "Snapshot" {
		t.Fatalf("%v", err)
	}
	if _, err := NewRegistry(WithFetchTool("no spaces")); !errors.As(err, &e) || e.Kind != "ToolName" {
		t.Fatalf("%v", err)
	}
	r.Close()
	r.Close()
	if _, err := History(link, r, nil); !errors.As(err, &e) || e.Kind != "InvalidArgument" {
		t.Fatalf("%v", err)
	}
}

func TestOneRegistryServesManyGoroutines(t *testing.T) {
	r := registry(t)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				link := []byte(`{"content":[{"type":"resource_link","uri":"https://x.example/` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `","name":"r"}]}`)
				if _, err := History(link, r, nil); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if r.Len() != 100 {
		t.Fatalf("%d references", r.Len())
	}
}

func TestTheOtherLanes(t *testing.T) {
	r := registry(t)
	tools, err := ToolDefinitions([]byte(`[{"name":"search","inputSchema":{"type":"object"}}]`), OpenAIResponses)
	if err != nil || len(tools) != 1 || !strings.Contains(string(tools[0]), `"strict":false`) {
		t.Fatalf("%s, %v", tools, err)
	}
	request, err := SamplingRequest([]byte(`{"messages":[{"role":"user","content":{"type":"text","text":"Capital of France?"}}],"maxTokens":100}`), r, Anthropic)
	if err != nil || !strings.Contains(string(request), "Capital of France?") {
		t.Fatalf("%s, %v", request, err)
	}
	asked, err := Elicitation([]byte(`{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`))
	if err != nil || !strings.Contains(string(asked), "Your name?") {
		t.Fatalf("%s, %v", asked, err)
	}
	// The names this package spells are the crate's tables', in order.
	targets, provenances, err := Names()
	if err != nil || !reflect.DeepEqual(targets, []string{Neutral, Anthropic, OpenAIChat, OpenAIResponses}) {
		t.Fatalf("%v %v", targets, err)
	}
	spelled := []string{FromToolResult, FromPushEvent, FromChannelMessage, FromContextInjection, FromScriptResult, FromPrompt, FromSampling}
	if !reflect.DeepEqual(provenances, spelled) {
		t.Fatalf("%v, the crate's %v", spelled, provenances)
	}
	if text, err := History([]byte(`{"content":[{"type":"resource_link","uri":"https://x.example/a","name":"a"}]}`), r, &HistoryOptions{Provenance: FromPushEvent}); err != nil || !strings.HasSuffix(text, "attachment on push event") {
		t.Fatalf("%q, %v", text, err)
	}
	long := []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("a", 100) + `"}]}`)
	if text, err := History(long, r, &HistoryOptions{Budget: 20}); err != nil || !strings.HasSuffix(text, "[truncated]") {
		t.Fatalf("%q, %v", text, err)
	}
	if Version() == "" {
		t.Fatal("no version")
	}
}
