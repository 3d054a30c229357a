package mcpagentview

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestTheFetchToolReadsAReferenceTheModelWasShown(t *testing.T) {
	r, err := NewRegistry(WithSeed(seed), WithFetchTool("fetch_reference"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	link := []byte(`{"content":[{"type":"resource_link","uri":"data:text/plain,hello%20there","name":"note.txt","mimeType":"text/plain"}]}`)
	text, err := History(link, r, nil)
	if err != nil || !strings.HasPrefix(text, "[ref_") {
		t.Fatalf("%q, %v", text, err)
	}
	input := marshal(t, map[string]string{"ref_id": text[1:strings.Index(text, "]")]})

	// The default policy: https only; the refusal names why, never the uri.
	refusing, err := NewFetcher(FetchSettings{})
	if err != nil {
		t.Fatal(err)
	}
	defer refusing.Close()
	refused, err := refusing.FetchReference(input, "toolu_1", r, Anthropic)
	if err != nil || !refused.IsError || strings.Contains(string(marshal(t, refused.Content)), "data:") {
		t.Fatalf("%+v, %v", refused, err)
	}

	none := uint8(0)
	fetcher, err := NewFetcher(FetchSettings{AllowSchemes: []string{"data"}, MaxBytes: 1024, Timeout: 5 * time.Second, MaxRedirects: &none})
	if err != nil {
		t.Fatal(err)
	}
	defer fetcher.Close()
	fetched, err := fetcher.FetchReference(input, "toolu_2", r, Anthropic)
	if err != nil || fetched.IsError || !strings.Contains(string(marshal(t, fetched.Content)), "hello there") {
		t.Fatalf("%+v, %v", fetched, err)
	}
	// A fetch-tool result answers its call as any other.
	messages, err := ToolResultMessages([]*ToolResult{fetched}, Anthropic)
	if err != nil || !strings.Contains(string(messages[0]), `"tool_use_id":"toolu_2"`) {
		t.Fatalf("%s, %v", messages, err)
	}

	definition, err := FetchToolDefinition(OpenAIChat, "")
	var tool struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err != nil || json.Unmarshal(definition, &tool) != nil || tool.Function.Name != "fetch_reference" {
		t.Fatalf("%s, %v", definition, err)
	}

	var e *Error
	if _, err := NewFetcher(FetchSettings{AllowSchemes: []string{"file"}}); !errors.As(err, &e) || e.Kind != "Policy" {
		t.Fatalf("%v", err)
	}
	if _, err := NewFetcher(FetchSettings{AllowSchemes: []string{"file"}, AllowFilesUnder: t.TempDir()}); err != nil {
		t.Fatalf("file beside a directory: %v", err)
	}
	fetcher.Close()
	if _, err := fetcher.FetchReference(input, "toolu_3", r, Anthropic); !errors.As(err, &e) || e.Kind != "InvalidArgument" {
		t.Fatalf("%v", err)
	}
}
