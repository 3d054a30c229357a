package mcpagentview

/*
#include <stdlib.h>
#include "mcp_agent_view.h"
*/
import "C"

import (
	"encoding/json"
	"runtime"
	"unsafe"
)

// ToolResult is one call's result as the model reads it. Content is in the target's shape;
// HeldForUser (audience: user) in the neutral shape; Pending, where the server asks for input
// or answered with a task, the crate's description of it. Build one with NewToolResult or
// ToolCallFailed, and answer a turn's calls with ToolResultMessages.
type ToolResult struct {
	ToolUseID   string            `json:"toolUseId"`
	Name        string            `json:"name"`
	Content     []json.RawMessage `json:"content"`
	IsError     bool              `json:"isError"`
	HeldForUser []json.RawMessage `json:"heldForUser"`
	Pending     json.RawMessage   `json:"pending"`

	handle *toolResultHandle
}

type toolResultHandle struct{ ptr *C.mav_tool_result }

func (h *toolResultHandle) free() {
	C.mav_tool_result_free(h.ptr)
	h.ptr = nil
}

// toolResultOf reads the view of a new handle into a ToolResult.
func toolResultOf(ptr *C.mav_tool_result) (*ToolResult, error) {
	h := &toolResultHandle{ptr: ptr}
	runtime.SetFinalizer(h, (*toolResultHandle).free)
	out, err := textOf(func(o **C.char, n *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_tool_result_view(ptr, o, n, e)
	})
	if err != nil {
		return nil, err
	}
	result := &ToolResult{handle: h}
	if err := json.Unmarshal(out, result); err != nil {
		return nil, err
	}
	if string(result.Pending) == "null" {
		result.Pending = nil
	}
	return result, nil
}

// NewToolResult reads a server's answer to tools/call (the result, a JSON-RPC response or error
// response) as the model should read it, for the call toolUseID of the tool name. The default
// target is Anthropic. What cannot be read is a failed call, never an error: the error is only
// for bad arguments (an unknown target, a closed registry).
func NewToolResult(answer []byte, name, toolUseID string, r *Registry, target string) (*ToolResult, error) {
	t, freeTarget := cString(target)
	defer freeTarget()
	cname, cid := C.CString(name), C.CString(toolUseID)
	defer C.free(unsafe.Pointer(cname))
	defer C.free(unsafe.Pointer(cid))
	var ptr *C.mav_tool_result
	err := r.use(func(reg *C.mav_registry) error {
		p, n := cBytes(answer)
		var e *C.mav_error
		rc := C.mav_tool_result_new(p, n, cname, cid, reg, t, &ptr, &e)
		runtime.KeepAlive(answer)
		if rc != C.MAV_OK {
			return errorOf(e)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return toolResultOf(ptr)
}

// ToolCallFailed is the result of a call that got no answer (the connection failed, no such
// tool is offered): an error result saying why. The default target is Anthropic.
func ToolCallFailed(name, toolUseID, why, target string) (*ToolResult, error) {
	t, freeTarget := cString(target)
	defer freeTarget()
	cname, cid, cwhy := C.CString(name), C.CString(toolUseID), C.CString(why)
	defer C.free(unsafe.Pointer(cname))
	defer C.free(unsafe.Pointer(cid))
	defer C.free(unsafe.Pointer(cwhy))
	var ptr *C.mav_tool_result
	var e *C.mav_error
	if C.mav_tool_call_failed(cname, cid, cwhy, t, &ptr, &e) != C.MAV_OK {
		return nil, errorOf(e)
	}
	return toolResultOf(ptr)
}

// RetryParams gives the tools/call params that call the tool again with the answers to an
// input-required result: arguments the call's arguments, responses each request's answer by
// its key. An error of kind "InputResponses" where the result asks for none.
func (t *ToolResult) RetryParams(arguments json.RawMessage, responses map[string]json.RawMessage) (json.RawMessage, error) {
	if t == nil || t.handle == nil {
		return nil, &Error{Kind: "InvalidArgument", Message: "a tool result made by NewToolResult or ToolCallFailed"}
	}
	if arguments == nil {
		arguments = json.RawMessage("{}")
	}
	answers, err := json.Marshal(responses)
	if err != nil {
		return nil, err
	}
	pa, na := cBytes(arguments)
	pr, nr := cBytes(answers)
	out, err := textOf(func(o **C.char, n *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_tool_result_retry_params(t.handle.ptr, pa, na, pr, nr, o, n, e)
	})
	runtime.KeepAlive(arguments)
	runtime.KeepAlive(answers)
	runtime.KeepAlive(t.handle)
	return out, err
}

// ToolResultMessages gives everything one turn's tool results add to the conversation, in the
// target's shape (for Anthropic, one user message of tool_result blocks). The default target
// is Anthropic.
func ToolResultMessages(results []*ToolResult, target string) ([]json.RawMessage, error) {
	t, free := cString(target)
	defer free()
	if len(results) == 0 {
		return rawArray(textOf(func(o **C.char, n *C.size_t, e **C.mav_error) C.int32_t {
			return C.mav_tool_result_messages(nil, 0, t, o, n, e)
		}))
	}
	// An array of the handles in C memory: cgo lets no Go memory that holds Go pointers cross.
	size := C.size_t(unsafe.Sizeof((*C.mav_tool_result)(nil)))
	array := (*[1 << 28]*C.mav_tool_result)(C.malloc(size * C.size_t(len(results))))[:len(results):len(results)]
	defer C.free(unsafe.Pointer(&array[0]))
	for i, result := range results {
		if result == nil || result.handle == nil || result.handle.ptr == nil {
			return nil, &Error{Kind: "InvalidArgument", Message: "a tool result made by NewToolResult or ToolCallFailed"}
		}
		array[i] = result.handle.ptr
	}
	out, err := textOf(func(o **C.char, n *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_tool_result_messages((**C.mav_tool_result)(unsafe.Pointer(&array[0])), C.size_t(len(results)), t, o, n, e)
	})
	runtime.KeepAlive(results)
	return rawArray(out, err)
}
