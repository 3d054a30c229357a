package mcpagentview

/*
#include <stdlib.h>
#include "mcp_agent_view.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// Server is a stdio MCP server started as a child process, with the crate's client (rmcp's,
// behind line and time limits) connected to it. Its calls may run from several goroutines at
// once. A server that asks before it answers is answered by the OnInput handler, or plainly
// (AnswerPlainly). Close ends it.
type Server struct {
	mu    sync.RWMutex
	ptr   *C.mav_server
	input *inputContext
}

// millisOf is the time ctx leaves, in milliseconds (at least 1), or 0 where it has no deadline.
func millisOf(ctx context.Context) C.uint64_t {
	deadline, ok := ctx.Deadline()
	if !ok {
		return 0
	}
	left := time.Until(deadline).Milliseconds()
	if left < 1 {
		left = 1
	}
	return C.uint64_t(left)
}

// Start starts command (the program, then its arguments) as a stdio MCP server and
// initializes it, within ctx's deadline where it has one (the crate's default otherwise).
// Errors are *Error of kind "Server" (it cannot be started, exits, writes what is no JSON-RPC)
// or "Timeout".
func Start(ctx context.Context, command []string, options ...ServerOption) (*Server, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(command) == 0 {
		return nil, &Error{Kind: "InvalidArgument", Message: "command holds at least the program"}
	}
	var o serverOptions
	for _, option := range options {
		option(&o)
	}
	var input *inputContext
	if o.onInput != nil {
		input = newInputContext(o.onInput)
	}
	onInput, context := input.callback()
	argv := command
	size := C.size_t(unsafe.Sizeof((*C.char)(nil)))
	array := (*[1 << 28]*C.char)(C.malloc(size * C.size_t(len(argv))))[:len(argv):len(argv)]
	defer C.free(unsafe.Pointer(&array[0]))
	for i, arg := range argv {
		array[i] = C.CString(arg)
		defer C.free(unsafe.Pointer(array[i]))
	}
	var ptr *C.mav_server
	var e *C.mav_error
	if C.mav_server_start((**C.char)(unsafe.Pointer(&array[0])), C.size_t(len(argv)), millisOf(ctx), onInput, context, &ptr, &e) != C.MAV_OK {
		input.free()
		return nil, errorOf(e)
	}
	s := &Server{ptr: ptr, input: input}
	runtime.SetFinalizer(s, (*Server).Close)
	return s, nil
}

// Close ends the session and stops the server; it waits for calls still running.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ptr != nil {
		C.mav_server_close(s.ptr)
		s.ptr = nil
		s.input.free()
		s.input = nil
	}
	return nil
}

// call runs one call of the server's under ctx: its deadline is the call's timeout; where ctx
// is done first, the call returns ctx.Err() and the request is left to end on its own.
func (s *Server) call(ctx context.Context, f func(ptr *C.mav_server, timeout C.uint64_t) ([]byte, error)) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type answer struct {
		out []byte
		err error
	}
	done := make(chan answer, 1)
	s.mu.RLock()
	if s.ptr == nil {
		s.mu.RUnlock()
		return nil, &Error{Kind: "InvalidArgument", Message: "the server is closed"}
	}
	go func() {
		defer s.mu.RUnlock()
		out, err := f(s.ptr, millisOf(ctx))
		done <- answer{out, err}
	}()
	select {
	case a := <-done:
		var e *Error
		if errors.As(a.err, &e) && e.Kind == "Timeout" && deadlinePassing(ctx) {
			e.cause = context.DeadlineExceeded
		}
		return a.out, a.err
	case <-ctx.Done():
		return nil, deadlineOr(ctx.Err())
	}
}

// deadlinePassing tells whether ctx's deadline has passed or is about to (the library's
// timeout, set from it in milliseconds, may end the call a moment before it).
func deadlinePassing(ctx context.Context) bool {
	deadline, ok := ctx.Deadline()
	return ok && time.Until(deadline) < 50*time.Millisecond
}

// deadlineOr is a context's error as the call gives it back: a deadline passed is a Timeout
// (wrapping context.DeadlineExceeded, as the library's own timeout would have it), a
// cancellation itself.
func deadlineOr(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Kind: "Timeout", Message: "call: the context's deadline passed", cause: err}
	}
	return err
}

// ListTools gives the server's tools, as tools/list lists them.
func (s *Server) ListTools(ctx context.Context) ([]json.RawMessage, error) {
	out, err := s.call(ctx, func(ptr *C.mav_server, timeout C.uint64_t) ([]byte, error) {
		return textOf(func(o **C.char, n *C.size_t, e **C.mav_error) C.int32_t {
			return C.mav_server_list_tools(ptr, timeout, o, n, e)
		})
	})
	if err != nil {
		return nil, err
	}
	var listed struct {
		Tools []json.RawMessage `json:"tools"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(out, &listed); err != nil {
		return nil, err
	}
	if listed.Error != nil {
		return nil, &Error{Kind: "Server", Message: fmt.Sprintf("tools/list: error %d: %s", listed.Error.Code, listed.Error.Message)}
	}
	return listed.Tools, nil
}

// CallTool calls a tool and gives back the server's answer as it sent it, for NewToolResult:
// the result, or the JSON-RPC error response. arguments is a JSON object, or nil. An
// input-required result is answered (plainly) and the call made again.
func (s *Server) CallTool(ctx context.Context, name string, arguments json.RawMessage) (json.RawMessage, error) {
	return s.call(ctx, func(ptr *C.mav_server, timeout C.uint64_t) ([]byte, error) {
		cname := C.CString(name)
		defer C.free(unsafe.Pointer(cname))
		p, n := cBytes(arguments)
		out, err := textOf(func(o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
			return C.mav_server_call_tool(ptr, cname, p, n, timeout, o, on, e)
		})
		runtime.KeepAlive(arguments)
		return out, err
	})
}

// GetPrompt gets a prompt, for PromptMessages: the result, or the JSON-RPC error response.
func (s *Server) GetPrompt(ctx context.Context, name string, arguments map[string]string) (json.RawMessage, error) {
	var args []byte
	if arguments != nil {
		var err error
		if args, err = json.Marshal(arguments); err != nil {
			return nil, err
		}
	}
	return s.call(ctx, func(ptr *C.mav_server, timeout C.uint64_t) ([]byte, error) {
		cname := C.CString(name)
		defer C.free(unsafe.Pointer(cname))
		p, n := cBytes(args)
		out, err := textOf(func(o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
			return C.mav_server_get_prompt(ptr, cname, p, n, timeout, o, on, e)
		})
		runtime.KeepAlive(args)
		return out, err
	})
}

// ReadResource reads a resource: the result ({"contents": […]}), or the JSON-RPC error
// response.
func (s *Server) ReadResource(ctx context.Context, uri string) (json.RawMessage, error) {
	return s.call(ctx, func(ptr *C.mav_server, timeout C.uint64_t) ([]byte, error) {
		curi := C.CString(uri)
		defer C.free(unsafe.Pointer(curi))
		return textOf(func(o **C.char, n *C.size_t, e **C.mav_error) C.int32_t {
			return C.mav_server_read_resource(ptr, curi, timeout, o, n, e)
		})
	})
}
