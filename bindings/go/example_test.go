package mcpagentview_test

import (
	"errors"
	"fmt"
	"strings"

	mav "github.com/mcp-agent-view/mcp-agent-view/bindings/go"
)

// A tool result as one string for the history: the embedded resource's text read as text, the
// image a marker, the uri nowhere.
func ExampleHistory() {
	registry, _ := mav.NewRegistry()
	defer registry.Close()
	answer := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[
		{"type":"text","text":"Here is the report."},
		{"type":"resource","resource":{"uri":"file:///q3.txt?token=s3cret","text":"Quarterly notes: revenue up 4%."}},
		{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}}`)
	text, err := mav.History(answer, registry, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(text)
	// Output:
	// Here is the report.
	// Quarterly notes: revenue up 4%.
	// [image: image/png, 8B]
}

// One call's answer, and the message that answers the model's tool_use.
func ExampleNewToolResult() {
	registry, _ := mav.NewRegistry()
	defer registry.Close()
	answer := []byte(`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Unknown tool: serach"}}`)
	result, err := mav.NewToolResult(answer, "serach", "toolu_1", registry, mav.Anthropic)
	if err != nil {
		panic(err)
	}
	messages, _ := mav.ToolResultMessages([]*mav.ToolResult{result}, mav.Anthropic)
	fmt.Println(result.IsError, len(messages))
	fmt.Println(string(messages[0]))
	// Output:
	// true 1
	// {"content":[{"content":[{"text":"Tool call serach failed: Unknown tool: serach","type":"text"}],"is_error":true,"tool_use_id":"toolu_1","type":"tool_result"}],"role":"user"}
}

// A link shows as a stub; the registry maps its id back to the uri for the host.
func ExampleRegistry_Lookup() {
	registry, _ := mav.NewRegistry(mav.WithSeed(7))
	defer registry.Close()
	link := []byte(`{"content":[{"type":"resource_link","uri":"https://files.example/q3.xlsx?sig=s3cret","name":"q3.xlsx"}]}`)
	text, _ := mav.History(link, registry, nil)
	id := text[1:strings.Index(text, "]")]
	record, _ := registry.Lookup(id)
	fmt.Println(strings.Contains(text, "s3cret"), record.URI)
	// Output:
	// false https://files.example/q3.xlsx?sig=s3cret
}

// Errors are the crate's, reached with errors.As.
func ExampleError() {
	registry, _ := mav.NewRegistry()
	defer registry.Close()
	_, err := mav.History([]byte("{\"content\": [\n  {\"type\": \"text\", \"text\": }]}"), registry, nil)
	var e *mav.Error
	if errors.As(err, &e) {
		fmt.Println(e.Kind, e.Line)
	}
	// Output:
	// Json 2
}
