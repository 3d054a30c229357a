// A quickstart MCP client: a stdio server's tools offered to Claude, every tool call answered,
// until the model stops asking. Copy it; the package's part is five calls.
//
//	cargo build --release -p mcp-agent-view-c     # once, at the repository's root
//	ANTHROPIC_API_KEY=… go run . <server command> [args…]
//	ANTHROPIC_API_KEY=… go run . path/to/server.js   # or .py, as the quickstart takes it
//
// Queries are read from standard input, one a line; "quit" or the end of input stops. The
// Messages API is called over net/http (at ANTHROPIC_BASE_URL where it is set) with the model
// ANTHROPIC_MODEL (default below), max_tokens 10000 and the server's tools only. Each turn's
// tool calls run at once over the package's bridge; each tool_use is answered by one
// tool_result, all of them in one user message; at most ten rounds a query.
//
// What the package does here: Server.CallTool returns each answer as the server sent it;
// NewToolResult turns an answer or a JSON-RPC error into what the model reads, ToolCallFailed a
// failure to call; ToolResultMessages makes the message to append; ToolDefinitions the tools.
// A rejected call is an error result, never the end of the conversation; structuredContent is
// read where the content has no text; images go as images; an embedded resource's text as text,
// its uri never; a block nobody knows becomes a marker and costs no sibling.
//
// A server that asks before it answers is answered: an elicitation declined (there is no form
// here), no roots, and a sampling request through the same Messages API, one level deep (its
// messages read by SamplingRequest, the server's system prompt given as the server's words in
// the first user turn, no tools).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	mav "github.com/mcp-agent-view/mcp-agent-view/bindings/go"
)

const (
	defaultModel = "claude-sonnet-5"
	// Thinking and the reply share max_tokens; leave room for both.
	maxTokens = 10000
	maxRounds = 10
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// serverCommand is a server command and its arguments; a lone .js or .py path runs with Node or
// Python.
func serverCommand(argv []string) []string {
	if len(argv) == 1 {
		switch {
		case strings.HasSuffix(argv[0], ".py"):
			return []string{"python3", argv[0]}
		case strings.HasSuffix(argv[0], ".js"), strings.HasSuffix(argv[0], ".mjs"):
			return []string{"node", argv[0]}
		}
	}
	return argv
}

// api calls the Messages API.
type api struct {
	base, key, model string
	client           *http.Client
}

type block struct {
	Type  string          `json:"type"`
	Text  string          `json:"text,omitempty"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

type reply struct {
	Model      string            `json:"model"`
	Content    []json.RawMessage `json:"content"`
	StopReason string            `json:"stop_reason"`
}

func (a *api) create(ctx context.Context, request map[string]interface{}) (*reply, error) {
	request["model"] = a.model
	body, err := json.Marshal(request)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set("x-api-key", a.key)
	req.Header.Set("anthropic-version", "2023-06-01")
	res, err := a.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the Messages API answered %d: %s", res.StatusCode, strings.TrimSpace(string(data)))
	}
	var r reply
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("the Messages API's answer: %w", err)
	}
	return &r, nil
}

func blocksOf(content []json.RawMessage) []block {
	out := make([]block, 0, len(content))
	for _, raw := range content {
		var b block
		if json.Unmarshal(raw, &b) == nil {
			out = append(out, b)
		}
	}
	return out
}

// asker answers what the server asks: sampling through the Messages API once there is a key,
// the rest plainly.
type asker struct {
	mu       sync.Mutex
	api      *api
	registry *mav.Registry
}

func (a *asker) answer(method string, params json.RawMessage) (json.RawMessage, bool) {
	a.mu.Lock()
	model := a.api
	a.mu.Unlock()
	if method != "sampling/createMessage" || model == nil {
		return mav.AnswerPlainly(method, params)
	}
	raw, err := mav.SamplingRequest(params, a.registry, mav.Anthropic)
	if err != nil {
		return nil, false // tool content: this client takes no part in a tool loop of the server's
	}
	var request struct {
		Messages     []json.RawMessage `json:"messages"`
		SystemPrompt string            `json:"systemPrompt"`
		MaxTokens    int               `json:"maxTokens"`
	}
	if json.Unmarshal(raw, &request) != nil {
		return nil, false
	}
	messages := request.Messages
	if request.SystemPrompt != "" {
		said, _ := json.Marshal(map[string]interface{}{
			"role":    "user",
			"content": []block{{Type: "text", Text: "[the requesting server's instructions] " + request.SystemPrompt}},
		})
		messages = append([]json.RawMessage{said}, messages...)
	}
	if len(messages) == 0 {
		return nil, false
	}
	limit := maxTokens
	if request.MaxTokens > 0 && request.MaxTokens < limit {
		limit = request.MaxTokens
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := model.create(ctx, map[string]interface{}{"max_tokens": limit, "messages": messages})
	if err != nil {
		return nil, false
	}
	var text strings.Builder
	for _, b := range blocksOf(r.Content) {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	stop := "endTurn"
	if r.StopReason == "max_tokens" {
		stop = "maxTokens"
	}
	out, err := json.Marshal(map[string]interface{}{
		"role": "assistant", "content": block{Type: "text", Text: text.String()}, "model": r.Model, "stopReason": stop,
	})
	return out, err == nil
}

// session is one conversation with the model over one server.
type session struct {
	server   *mav.Server
	api      *api
	tools    []json.RawMessage
	offered  map[string]bool
	registry *mav.Registry
	messages []json.RawMessage
	out      io.Writer
}

// answer is one call's tool result: what the server answered, or why no answer came.
func (s *session) answer(ctx context.Context, use block) (*mav.ToolResult, error) {
	if !s.offered[use.Name] {
		return mav.ToolCallFailed(use.Name, use.ID, "no tool of that name is offered", mav.Anthropic)
	}
	raw, err := s.server.CallTool(ctx, use.Name, use.Input)
	if err != nil {
		// The connection failed: the call failed, the conversation goes on.
		return mav.ToolCallFailed(use.Name, use.ID, err.Error(), mav.Anthropic)
	}
	return mav.NewToolResult(raw, use.Name, use.ID, s.registry, mav.Anthropic)
}

func (s *session) push(message interface{}) error {
	raw, err := json.Marshal(message)
	if err != nil {
		return err
	}
	s.messages = append(s.messages, raw)
	return nil
}

// ask runs one query to the end: the model's text printed, every tool call answered.
func (s *session) ask(ctx context.Context) error {
	for round := 0; round < maxRounds; round++ {
		r, err := s.api.create(ctx, map[string]interface{}{"max_tokens": maxTokens, "messages": s.messages, "tools": s.tools})
		if err != nil {
			return err
		}
		if err := s.push(map[string]interface{}{"role": "assistant", "content": r.Content}); err != nil {
			return err
		}
		var uses []block
		for _, b := range blocksOf(r.Content) {
			switch b.Type {
			case "text":
				fmt.Fprintln(s.out, b.Text)
			case "tool_use":
				uses = append(uses, b)
			}
		}
		if len(uses) == 0 {
			return nil
		}
		// Every call of the turn at once; each answered, in the order the model asked.
		results := make([]*mav.ToolResult, len(uses))
		errs := make([]error, len(uses))
		var wg sync.WaitGroup
		for i, use := range uses {
			wg.Add(1)
			go func(i int, use block) {
				defer wg.Done()
				results[i], errs[i] = s.answer(ctx, use)
			}(i, use)
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		messages, err := mav.ToolResultMessages(results, mav.Anthropic)
		if err != nil {
			return err
		}
		s.messages = append(s.messages, messages...)
	}
	fmt.Fprintf(s.out, "[Stopped after %d tool-use rounds]\n", maxRounds)
	return nil
}

func run(argv []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(argv) == 0 {
		fmt.Fprintln(stderr, "usage: go run . <server command> [args…]")
		return 2
	}
	registry, err := mav.NewRegistry()
	if err != nil {
		fmt.Fprintf(stderr, "quickstart-client: %v\n", err)
		return 1
	}
	defer registry.Close()
	asked := &asker{registry: registry}
	start, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	server, err := mav.Start(start, serverCommand(argv), mav.OnInput(asked.answer))
	if err != nil {
		fmt.Fprintf(stderr, "quickstart-client: %v\n", err)
		return 1
	}
	defer server.Close()
	ctx := context.Background()
	// The server's tools, as it lists them, in the Messages API's shape.
	listed, err := server.ListTools(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "quickstart-client: %v\n", err)
		return 1
	}
	tools, err := mav.ToolDefinitions(mustJSON(listed), mav.Anthropic)
	if err != nil {
		fmt.Fprintf(stderr, "quickstart-client: %v\n", err)
		return 1
	}
	offered := map[string]bool{}
	names := make([]string, 0, len(tools))
	for _, tool := range tools {
		var t struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(tool, &t)
		offered[t.Name] = true
		names = append(names, "'"+t.Name+"'")
	}
	fmt.Fprintf(stdout, "Connected to server with tools: [%s]\n", strings.Join(names, ", "))
	key := getenv("ANTHROPIC_API_KEY")
	if key == "" {
		fmt.Fprintln(stdout, "No ANTHROPIC_API_KEY found. To query these tools with Claude, set your API key.")
		return 0
	}
	base := strings.TrimRight(getenv("ANTHROPIC_BASE_URL"), "/")
	if base == "" {
		base = "https://api.anthropic.com"
	}
	model := getenv("ANTHROPIC_MODEL")
	if model == "" {
		model = defaultModel
	}
	client := &api{base: base, key: key, model: model, client: &http.Client{Timeout: 10 * time.Minute}}
	asked.mu.Lock()
	asked.api = client
	asked.mu.Unlock()
	s := &session{server: server, api: client, tools: tools, offered: offered, registry: registry, out: stdout}
	lines := bufio.NewScanner(stdin)
	lines.Buffer(make([]byte, 64*1024), 16<<20)
	for lines.Scan() {
		query := strings.TrimSpace(lines.Text())
		if strings.EqualFold(query, "quit") {
			break
		}
		if query == "" {
			continue
		}
		kept := len(s.messages)
		if err := s.push(map[string]interface{}{"role": "user", "content": query}); err != nil {
			fmt.Fprintf(stdout, "Error: %v\n", err)
			continue
		}
		if err := s.ask(ctx); err != nil {
			// The API failed: this query is lost, the next one runs.
			s.messages = s.messages[:kept]
			fmt.Fprintf(stdout, "Error: %v\n", err)
		}
	}
	return 0
}

func mustJSON(v interface{}) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return out
}
