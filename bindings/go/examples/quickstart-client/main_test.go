// The quickstart client against a fake Messages API on loopback and the stdio MCP server of the
// Rust tool-loop test (tests/support/tool-loop-server.mjs), over the scenarios the official
// quickstart clients got wrong, then the official quickstart tool-loop script (parallel calls, a
// call to a tool the server lacks, a final answer), then a server that asks before it answers.
// Every request is checked.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

const (
	secret   = "s3cret-t0ken"
	official = "What is the weather like?"
	asks     = "What does the server ask?"
)

var support = filepath.Join("..", "..", "..", "..", "tests", "support")

// The scenarios, in order: the query, and the tools the model calls for it.
var scenarios = []struct {
	query string
	tools []string
}{
	{"rejected beside good", []string{"reject", "weather"}},
	{"structured only", []string{"structured"}},
	{"image only", []string{"image"}},
	{"embedded text", []string{"embedded_text"}},
	{"embedded pdf", []string{"embedded_pdf"}},
	{"mixed", []string{"mixed"}},
	{"audio", []string{"audio"}},
	{"link", []string{"link"}},
	{"unknown beside text", []string{"unknown"}},
	{"is error", []string{"is_error"}},
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type request struct {
	Model     string            `json:"model"`
	MaxTokens int               `json:"max_tokens"`
	Messages  []message         `json:"messages"`
	Tools     []json.RawMessage `json:"tools"`
	System    json.RawMessage   `json:"system"`
	raw       []byte
}

func use(id, name string) map[string]interface{} {
	return map[string]interface{}{"type": "tool_use", "id": id, "name": name, "input": map[string]string{"city": "Paris"}}
}

func text(s string) map[string]interface{} { return map[string]interface{}{"type": "text", "text": s} }

// replyTo is the fake model: what it answers each request.
func replyTo(r *request) []map[string]interface{} {
	if r.Tools == nil {
		return []map[string]interface{}{text("Paris")} // the server's sampling request
	}
	start := 0
	for i, m := range r.Messages {
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			start = i
		}
	}
	var query string
	_ = json.Unmarshal(r.Messages[start].Content, &query)
	rounds := 0
	for _, m := range r.Messages[start:] {
		if m.Role == "assistant" {
			rounds++
		}
	}
	switch query {
	case official:
		return [][]map[string]interface{}{
			{text("Checking two things."), use("tu_1", "weather"), use("tu_2", "structured")},
			{use("tu_3", "no_such_tool")},
			{text("All done.")},
		}[rounds]
	case asks:
		if rounds == 0 {
			return []map[string]interface{}{text("asking"), use("ask_0", "ask_user"), use("ask_1", "ask_model")}
		}
		return []map[string]interface{}{text("done: " + query)}
	}
	if rounds == 0 {
		for s, scenario := range scenarios {
			if scenario.query == query {
				out := []map[string]interface{}{text("calling for " + query)}
				for k, tool := range scenario.tools {
					out = append(out, use(fmt.Sprintf("toolu_%d_%d", s, k), tool))
				}
				return out
			}
		}
	}
	return []map[string]interface{}{text("done: " + query)}
}

type fakeAPI struct {
	*httptest.Server
	mu       sync.Mutex
	requests []*request
}

func newFakeAPI(t *testing.T) *fakeAPI {
	api := &fakeAPI{}
	api.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var r request
		if err := json.Unmarshal(body, &r); err != nil || req.URL.Path != "/v1/messages" || req.Header.Get("x-api-key") != "test-key" {
			t.Errorf("a bad request: %s %s: %v", req.URL.Path, body, err)
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		r.raw = body
		api.mu.Lock()
		api.requests = append(api.requests, &r)
		n := len(api.requests)
		api.mu.Unlock()
		content := replyTo(&r)
		stop := "end_turn"
		for _, b := range content {
			if b["type"] == "tool_use" {
				stop = "tool_use"
			}
		}
		w.Header().Set("content-type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]interface{}{
			"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "model": r.Model,
			"content": content, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]int{"input_tokens": 1, "output_tokens": 1},
		})
	}))
	t.Cleanup(api.Close)
	return api
}

func runClient(t *testing.T, base string, queries []string, args []string, key string) (int, string, string) {
	t.Helper()
	env := map[string]string{"ANTHROPIC_BASE_URL": base, "ANTHROPIC_API_KEY": key, "ANTHROPIC_MODEL": "claude-test"}
	var stdout, stderr bytes.Buffer
	input := strings.Join(queries, "\n") + "\n"
	code := run(args, strings.NewReader(input), &stdout, &stderr, func(k string) string { return env[k] })
	return code, stdout.String(), stderr.String()
}

// noEmptyText: no text block the model reads is empty.
func noEmptyText(t *testing.T, value interface{}) {
	switch v := value.(type) {
	case []interface{}:
		for _, x := range v {
			noEmptyText(t, x)
		}
	case map[string]interface{}:
		if v["type"] == "text" {
			if s, _ := v["text"].(string); strings.TrimSpace(s) == "" {
				t.Errorf("an empty text block: %v", v)
			}
		}
		for _, x := range v {
			noEmptyText(t, x)
		}
	}
}

func checkRequest(t *testing.T, r *request) {
	t.Helper()
	all := string(r.raw)
	if strings.Contains(all, secret) || strings.Contains(all, "file://") || strings.Contains(all, "files.example.com") {
		t.Errorf("a uri or secret reached the model: %s", all)
	}
	if r.Model != "claude-test" || r.MaxTokens != 10000 {
		t.Errorf("model %q, max_tokens %d", r.Model, r.MaxTokens)
	}
	if len(r.Tools) != 11 {
		t.Errorf("%d tools", len(r.Tools))
	}
	var first struct {
		Name        string `json:"name"`
		InputSchema struct {
			Type string `json:"type"`
		} `json:"input_schema"`
	}
	_ = json.Unmarshal(r.Tools[0], &first)
	if first.InputSchema.Type != "object" {
		t.Errorf("tool %s", r.Tools[0])
	}
	var messages interface{}
	_ = json.Unmarshal(mustJSON(r.Messages), &messages)
	noEmptyText(t, messages)
}

type toolResult struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	IsError   bool   `json:"is_error"`
	Content   []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// lastTurn holds one tool_result per tool_use of the model's last turn, in one message, in order.
func lastTurn(t *testing.T, r *request) []toolResult {
	t.Helper()
	n := len(r.Messages)
	asked, answered := r.Messages[n-2], r.Messages[n-1]
	if asked.Role != "assistant" || answered.Role != "user" {
		t.Fatalf("roles %s, %s", asked.Role, answered.Role)
	}
	var uses []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
	var results []toolResult
	_ = json.Unmarshal(asked.Content, &uses)
	if err := json.Unmarshal(answered.Content, &results); err != nil {
		t.Fatalf("%s: %v", answered.Content, err)
	}
	var ids, answeredIDs []string
	for _, u := range uses {
		if u.Type == "tool_use" {
			ids = append(ids, u.ID)
		}
	}
	for _, r := range results {
		if r.Type != "tool_result" {
			t.Errorf("a %s block among the results", r.Type)
		}
		answeredIDs = append(answeredIDs, r.ToolUseID)
	}
	if !reflect.DeepEqual(ids, answeredIDs) {
		t.Errorf("tool_use %v answered by %v", ids, answeredIDs)
	}
	return results
}

func checkResult(t *testing.T, query, tool string, r toolResult) {
	t.Helper()
	var kinds, texts []string
	for _, b := range r.Content {
		kinds = append(kinds, b.Type)
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
		if b.Type != "text" && b.Type != "image" && b.Type != "document" {
			t.Errorf("%s: a %s block", query, b.Type)
		}
	}
	k, x := strings.Join(kinds, ","), strings.Join(texts, "|")
	ok := map[string]bool{
		"reject":        r.IsError && x == "Tool call reject failed: Invalid arguments: city is required",
		"weather":       x == "22.5 C and sunny",
		"structured":    x == `{"temperature":22.5,"conditions":"Sunny"}`,
		"image":         k == "image",
		"embedded_text": x == "the notes body",
		"embedded_pdf":  k == "document",
		"mixed":         k == "text,image,text" && x == "mixed text|mixed resource text",
		"audio":         len(texts) > 0 && strings.HasPrefix(texts[0], "[audio: audio/wav"),
		"link":          len(texts) > 0 && strings.HasPrefix(texts[0], "[ref_") && strings.Contains(texts[0], "report.pdf"),
		"unknown":       x == "[unsupported result type: hologram]|kept sibling",
		"is_error":      r.IsError && x == "it broke",
	}[tool]
	if !ok || len(kinds) == 0 {
		t.Errorf("%s: %s: %+v", query, tool, r)
	}
	if tool != "reject" && tool != "is_error" && r.IsError {
		t.Errorf("%s: %s is an error", query, tool)
	}
}

func serverForms(t *testing.T) map[string][]string {
	server := filepath.Join(support, "tool-loop-server.mjs")
	script := filepath.Join(t.TempDir(), "tool-loop-server.js")
	data, err := os.ReadFile(server)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return map[string][]string{"a command": {"node", server}, "a lone script path": {script}}
}

func TestEveryCallOfEveryScenarioIsAnswered(t *testing.T) {
	for form, args := range serverForms(t) {
		t.Run(form, func(t *testing.T) {
			api := newFakeAPI(t)
			var queries []string
			for _, s := range scenarios {
				queries = append(queries, s.query)
			}
			code, stdout, stderr := runClient(t, api.URL, append(queries, "quit"), args, "test-key")
			if code != 0 {
				t.Fatalf("exit %d: %s%s", code, stderr, stdout)
			}
			for _, q := range queries {
				if !strings.Contains(stdout, "done: "+q) {
					t.Errorf("no answer to %q: %s", q, stdout)
				}
			}
			if len(api.requests) != 2*len(scenarios) {
				t.Fatalf("%d requests", len(api.requests))
			}
			for _, r := range api.requests {
				checkRequest(t, r)
			}
			for s, scenario := range scenarios {
				results := lastTurn(t, api.requests[2*s+1])
				if len(results) != len(scenario.tools) {
					t.Fatalf("%s: %d results", scenario.query, len(results))
				}
				for k, r := range results {
					checkResult(t, scenario.query, scenario.tools[k], r)
				}
			}
		})
	}
}

func TestTheOfficialToolLoopScript(t *testing.T) {
	api := newFakeAPI(t)
	code, stdout, stderr := runClient(t, api.URL, []string{official, "quit"}, []string{"node", filepath.Join(support, "tool-loop-server.mjs")}, "test-key")
	if code != 0 || !strings.Contains(stdout, "All done.") {
		t.Fatalf("exit %d: %s%s", code, stderr, stdout)
	}
	if len(api.requests) != 3 {
		t.Fatalf("%d requests", len(api.requests))
	}
	for _, r := range api.requests {
		checkRequest(t, r)
	}
	if len(api.requests[0].Messages) != 1 || api.requests[0].Messages[0].Role != "user" {
		t.Errorf("%+v", api.requests[0].Messages)
	}
	if len(api.requests[1].Messages) != 3 || len(api.requests[2].Messages) != 5 {
		t.Errorf("%d, %d messages", len(api.requests[1].Messages), len(api.requests[2].Messages))
	}
	first := lastTurn(t, api.requests[1])
	if len(first) != 2 || first[0].IsError || first[1].IsError || first[0].Content[0].Text == "" || first[1].Content[0].Text == "" {
		t.Errorf("%+v", first)
	}
	missing := lastTurn(t, api.requests[2])
	if len(missing) != 1 || missing[0].ToolUseID != "tu_3" || !missing[0].IsError {
		t.Errorf("%+v", missing)
	}
}

func TestAServerThatAsksBeforeItAnswers(t *testing.T) {
	// An elicitation declined, no roots, and the sampling request through the same Messages
	// API, one level deep, its system prompt as the server's words.
	api := newFakeAPI(t)
	code, stdout, stderr := runClient(t, api.URL, []string{asks, "quit"}, []string{"node", filepath.Join(support, "asking-server.mjs")}, "test-key")
	if code != 0 || !strings.Contains(stdout, "done: "+asks) {
		t.Fatalf("exit %d: %s%s", code, stderr, stdout)
	}
	var sampling, tooled []*request
	for _, r := range api.requests {
		if r.Tools == nil {
			sampling = append(sampling, r)
		} else {
			tooled = append(tooled, r)
		}
	}
	if len(sampling) != 1 {
		t.Fatalf("%d sampling requests", len(sampling))
	}
	if sampling[0].MaxTokens != 20 || sampling[0].System != nil {
		t.Errorf("%s", sampling[0].raw)
	}
	want := `[{"role":"user","content":[{"type":"text","text":"[the requesting server's instructions] Answer in one word."}]},{"role":"user","content":[{"type":"text","text":"What is the capital of France?"}]}]`
	var got, wanted interface{}
	_ = json.Unmarshal(mustJSON(sampling[0].Messages), &got)
	_ = json.Unmarshal([]byte(want), &wanted)
	if !reflect.DeepEqual(got, wanted) {
		t.Errorf("sampling messages %s", mustJSON(sampling[0].Messages))
	}
	results := lastTurn(t, tooled[len(tooled)-1])
	if len(results) != 2 || results[0].IsError || results[1].IsError ||
		results[0].Content[0].Text != "login: decline; roots: 0; state: state-1" || results[1].Content[0].Text != "The model said: Paris" {
		t.Errorf("%+v", results)
	}
}

func TestWithoutAKeyItListsTheToolsAndStops(t *testing.T) {
	api := newFakeAPI(t)
	code, stdout, stderr := runClient(t, api.URL, []string{"hello"}, []string{"node", filepath.Join(support, "tool-loop-server.mjs")}, "")
	if code != 0 || !strings.Contains(stdout, "No ANTHROPIC_API_KEY") || !strings.Contains(stdout, "'weather'") || len(api.requests) != 0 {
		t.Fatalf("exit %d: %s%s", code, stderr, stdout)
	}
}

func TestBadArgumentsAreOneLineAndANonZeroExit(t *testing.T) {
	code, _, stderr := runClient(t, "http://127.0.0.1:9", nil, nil, "test-key")
	if code != 2 || !strings.HasPrefix(stderr, "usage: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d: %q", code, stderr)
	}
	code, _, stderr = runClient(t, "http://127.0.0.1:9", nil, []string{"/no/such/server-binary"}, "test-key")
	if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || stderr == "" {
		t.Errorf("exit %d: %q", code, stderr)
	}
}

func TestAnAPIThatFailsLosesOneQueryOnly(t *testing.T) {
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, 529)
	}))
	defer failing.Close()
	code, stdout, stderr := runClient(t, failing.URL, []string{"one", "two", "quit"}, []string{"node", filepath.Join(support, "tool-loop-server.mjs")}, "test-key")
	if code != 0 || strings.Count(stdout, "Error: ") != 2 {
		t.Fatalf("exit %d: %s%s", code, stderr, stdout)
	}
}
