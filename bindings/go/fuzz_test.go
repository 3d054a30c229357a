package mcpagentview

import (
	"errors"
	"testing"
)

// FuzzLanes: every input through every lane and target; no call ends in a panic of the core's
// (an error of kind "Panic"), and none crashes the process. `go test` runs the seeds (every
// vector message); `go test -fuzz FuzzLanes` explores.
func FuzzLanes(f *testing.F) {
	for _, v := range vectors(f) {
		f.Add(v.message)
	}
	f.Fuzz(func(t *testing.T, message []byte) {
		r, err := NewRegistry(WithSeed(seed))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		noPanic := func(lane string, err error) {
			var e *Error
			if errors.As(err, &e) && e.Kind == "Panic" {
				t.Fatalf("%s: %v", lane, err)
			}
		}
		_, err = History(message, r, &HistoryOptions{Budget: 40})
		noPanic("history", err)
		_, err = Classify(message)
		noPanic("classify", err)
		_, err = Elicitation(message)
		noPanic("elicitation", err)
		_, err = RestoreRegistry(message)
		noPanic("restore", err)
		for _, target := range targets {
			_, err = Convert(message, r, &Options{Target: target})
			noPanic("convert", err)
			_, err = Script(message, r, target)
			noPanic("script", err)
			_, err = PromptMessages(message, r, target)
			noPanic("prompt", err)
			_, err = SamplingRequest(message, r, target)
			noPanic("sampling", err)
			_, err = ToolDefinitions(message, target)
			noPanic("tool definitions", err)
			result, err := NewToolResult(message, "t", "toolu_1", r, target)
			noPanic("tool result", err)
			if err == nil {
				_, err = ToolResultMessages([]*ToolResult{result}, target)
				noPanic("messages", err)
			}
		}
	})
}
