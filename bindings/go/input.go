package mcpagentview

/*
#include <stdlib.h>
#include "mcp_agent_view.h"

extern char *mavGoOnInput(void *context, char *method, char *params, size_t params_len);
*/
import "C"

import (
	"encoding/json"
	"runtime/cgo"
	"unsafe"
)

// InputHandler answers one request of a server that asks before it answers: method
// ("elicitation/create", "sampling/createMessage", "roots/list") and its params. It returns
// the request's result (an ElicitResult, a CreateMessageResult, a ListRootsResult), or false
// where the host does not answer that request. It may be called from several goroutines at once.
type InputHandler func(method string, params json.RawMessage) (json.RawMessage, bool)

// AnswerPlainly is what a host with no form, no model of its own and no roots answers: an
// elicitation declined, no roots, no sampling.
func AnswerPlainly(method string, _ json.RawMessage) (json.RawMessage, bool) {
	switch method {
	case "elicitation/create":
		return json.RawMessage(`{"action":"decline"}`), true
	case "roots/list":
		return json.RawMessage(`{"roots":[]}`), true
	}
	return nil, false
}

// ServerOption sets up Start.
type ServerOption func(*serverOptions)

type serverOptions struct {
	onInput InputHandler
}

// OnInput answers what the server asks (an input-required result of revision 2026-07-28, or
// requests over the session under an older one) with handler, and declares the elicitation,
// sampling and roots capabilities. Without it the server is answered plainly (AnswerPlainly)
// and no capability is declared.
func OnInput(handler InputHandler) ServerOption {
	return func(o *serverOptions) { o.onInput = handler }
}

// inputContext is the C memory that holds a handler's handle, for the callback's context.
type inputContext struct {
	slot   *C.uintptr_t
	handle cgo.Handle
}

func newInputContext(handler InputHandler) *inputContext {
	handle := cgo.NewHandle(handler)
	slot := (*C.uintptr_t)(C.malloc(C.size_t(unsafe.Sizeof(C.uintptr_t(0)))))
	*slot = C.uintptr_t(handle)
	return &inputContext{slot: slot, handle: handle}
}

func (c *inputContext) free() {
	if c == nil {
		return
	}
	c.handle.Delete()
	C.free(unsafe.Pointer(c.slot))
}

func (c *inputContext) callback() (C.mav_on_input, unsafe.Pointer) {
	if c == nil {
		return nil, nil
	}
	return C.mav_on_input(C.mavGoOnInput), unsafe.Pointer(c.slot)
}

//export mavGoOnInput
func mavGoOnInput(context unsafe.Pointer, method *C.char, params *C.char, paramsLen C.size_t) (answer *C.char) {
	// A handler's panic must not cross into the library: it is no answer.
	defer func() {
		if recover() != nil {
			answer = nil
		}
	}()
	handler := cgo.Handle(*(*C.uintptr_t)(context)).Value().(InputHandler)
	result, ok := handler(C.GoString(method), C.GoBytes(unsafe.Pointer(params), C.int(paramsLen)))
	if !ok || !json.Valid(result) {
		return nil
	}
	return C.CString(string(result))
}
