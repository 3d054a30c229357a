package mcpagentview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// everything is the pinned everything server (npm ci --prefix live); without it the test
// fails, saying so.
func everything(t *testing.T) string {
	t.Helper()
	server, err := filepath.Abs(filepath.Join(root, "live", "node_modules", ".bin", "mcp-server-everything"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(server); err != nil {
		t.Fatalf("the everything server is not installed: run `npm ci --prefix live` (looked for %s)", server)
	}
	return server
}

func TestTheBridgeAnswersFromTheEverythingServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	server, err := Start(ctx, []string{everything(t), "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()

	tools, err := server.ListTools(ctx)
	if err != nil || len(tools) == 0 {
		t.Fatalf("%d tools, %v", len(tools), err)
	}
	definitions, err := ToolDefinitions(marshal(t, tools), Anthropic)
	if err != nil || len(definitions) != len(tools) || !strings.Contains(string(marshal(t, definitions)), `"input_schema"`) {
		t.Fatalf("%v", err)
	}

	r := registry(t)
	answer, err := server.CallTool(ctx, "get-tiny-image", nil)
	if err != nil {
		t.Fatal(err)
	}
	image, err := NewToolResult(answer, "get-tiny-image", "toolu_1", r, Anthropic)
	if err != nil || image.IsError || !strings.Contains(string(marshal(t, image.Content)), `"type":"image"`) {
		t.Fatalf("%+v, %v", image, err)
	}

	answer, err = server.CallTool(ctx, "echo", []byte(`{"message":"hello from Go"}`))
	if err != nil {
		t.Fatal(err)
	}
	echo, err := NewToolResult(answer, "echo", "toolu_2", r, Anthropic)
	if err != nil || !strings.Contains(string(marshal(t, echo.Content)), "hello from Go") {
		t.Fatalf("%+v, %v", echo, err)
	}

	// A refused call is an answer the model reads as a failed call, not an error here.
	answer, err = server.CallTool(ctx, "no-such-tool", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	refused, err := NewToolResult(answer, "no-such-tool", "toolu_3", r, Anthropic)
	if err != nil || !refused.IsError {
		t.Fatalf("%+v, %v", refused, err)
	}
	messages, err := ToolResultMessages([]*ToolResult{image, echo, refused}, Anthropic)
	if err != nil || len(messages) != 1 || strings.Count(string(messages[0]), `"tool_use_id"`) != 3 {
		t.Fatalf("%s, %v", messages, err)
	}

	// Links: stubs, no uri.
	answer, err = server.CallTool(ctx, "get-resource-links", []byte(`{"count":2}`))
	if err != nil {
		t.Fatal(err)
	}
	text, err := History(answer, r, nil)
	if err != nil || !strings.Contains(text, "[ref_") || strings.Contains(text, "demo://") {
		t.Fatalf("%q, %v", text, err)
	}

	prompt, err := server.GetPrompt(ctx, "simple-prompt", nil)
	if err != nil {
		t.Fatal(err)
	}
	if messages, err := PromptMessages(prompt, r, Anthropic); err != nil || len(messages) == 0 {
		t.Fatalf("%s, %v", messages, err)
	}
	resource, err := server.ReadResource(ctx, "demo://resource/dynamic/text/2")
	if err != nil || !strings.Contains(string(resource), "Resource 2") {
		t.Fatalf("%s, %v", resource, err)
	}

	var e *Error
	if _, err := server.CallTool(ctx, "echo", []byte(`[1]`)); !errors.As(err, &e) || e.Kind != "InvalidArgument" {
		t.Fatalf("%v", err)
	}
	// Eight goroutines calling at once over the one server: each gets its own answer.
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				said := fmt.Sprintf("goroutine %d call %d", g, i)
				answer, err := server.CallTool(ctx, "echo", marshal(t, map[string]string{"message": said}))
				if err != nil || !strings.Contains(string(answer), said) {
					t.Errorf("%s: %s, %v", said, answer, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	// A context already done stops the call before it starts.
	done, stop := context.WithCancel(ctx)
	stop()
	if _, err := server.CallTool(done, "echo", []byte(`{"message":"x"}`)); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
	server.Close()
	if _, err := server.ListTools(ctx); !errors.As(err, &e) || e.Kind != "InvalidArgument" {
		t.Fatalf("%v", err)
	}
}

func TestAServerThatCannotStartSaysSo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Start(ctx, []string{"/nonexistent/mcp-server"})
	var e *Error
	if !errors.As(err, &e) || e.Kind != "Server" || !strings.Contains(e.Message, "start") {
		t.Fatalf("%v", err)
	}
}

func TestAServerThatAsksIsAnsweredByTheHandler(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	asking, err := filepath.Abs(filepath.Join(root, "tests", "support", "asking-server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	var mu sync.Mutex
	handler := func(method string, params json.RawMessage) (json.RawMessage, bool) {
		mu.Lock()
		methods = append(methods, method)
		mu.Unlock()
		if method == "sampling/createMessage" {
			request, err := SamplingRequest(params, nil, Anthropic)
			var e *Error
			if !errors.As(err, &e) || e.Kind != "InvalidArgument" {
				t.Errorf("no registry: %v", err)
			}
			request, err = SamplingRequest(params, registry(t), Anthropic)
			if err != nil || !strings.Contains(string(request), "capital of France") {
				t.Errorf("%s, %v", request, err)
			}
			return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m","stopReason":"endTurn"}`), true
		}
		return AnswerPlainly(method, params)
	}
	server, err := Start(ctx, []string{"node", asking}, OnInput(handler))
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	r := registry(t)
	for tool, want := range map[string]string{"ask_user": "login: decline; roots: 0; state: state-1", "ask_model": "The model said: Paris"} {
		answer, err := server.CallTool(ctx, tool, nil)
		if err != nil {
			t.Fatal(err)
		}
		if text, err := History(answer, r, nil); err != nil || text != want {
			t.Errorf("%s: %q, %v", tool, text, err)
		}
	}
	if len(methods) != 3 {
		t.Errorf("%v", methods)
	}

	// Answered plainly, sampling is refused: the call fails, naming it.
	plain, err := Start(ctx, []string{"node", asking})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	answer, err := plain.CallTool(ctx, "ask_model", nil)
	if err != nil {
		t.Fatal(err)
	}
	result, err := NewToolResult(answer, "ask_model", "toolu_1", r, Anthropic)
	if err != nil || !result.IsError || !strings.Contains(string(marshal(t, result.Content)), "sampling") {
		t.Fatalf("%+v, %v", result, err)
	}
}

// A server that never answers: the call ends at its context's deadline, a Timeout that is also
// context.DeadlineExceeded; the server is still there for the next call.
func TestACallEndsAtItsContextsDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	script, err := filepath.Abs(filepath.Join(root, "live", "misbehaving-server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	server, err := Start(ctx, []string{"node", script})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	short, stop := context.WithTimeout(ctx, 300*time.Millisecond)
	defer stop()
	started := time.Now()
	_, err = server.CallTool(short, "silent", nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != "Timeout" || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%#v", err)
	}
	if elapsed := time.Since(started); elapsed > 5*time.Second {
		t.Fatalf("%v", elapsed)
	}
	answer, err := server.CallTool(ctx, "fails", nil)
	if err != nil || !strings.Contains(string(answer), "backend exploded") {
		t.Fatalf("%s, %v", answer, err)
	}
}
