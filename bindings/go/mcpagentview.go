// Package mcpagentview decides what an AI agent reads when content arrives from an MCP server.
//
// It is the Rust crate mcp-agent-view over its C ABI (bindings/c), with cgo and the standard
// library only. Messages go in as JSON bytes, as they arrived; what the model reads comes back
// as text or as JSON in the target API's shape ([]json.RawMessage, one element a block or a
// message). An embedded resource is inline content, no uri reaches the model, and one bad
// block never costs its siblings: it becomes a visible marker.
//
// Build the static library first (cargo build --release -p mcp-agent-view-c at the repository's
// root): cgo links libmcp_agent_view_c.a from target/release, or from a directory CGO_LDFLAGS
// names with -L (with the build tag mav_debug, from target/debug, as this package's own tests
// do).
package mcpagentview

/*
#cgo CFLAGS: -I${SRCDIR}/../c/include
#include <stdlib.h>
#include "mcp_agent_view.h"
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// The targets: the API whose shape content takes.
const (
	Neutral         = "neutral"
	Anthropic       = "anthropic"
	OpenAIChat      = "openai-chat"
	OpenAIResponses = "openai-responses"
)

// The provenances: where blocks came from, as reference stubs say (HistoryOptions, Options).
const (
	FromToolResult       = "tool-result"
	FromPushEvent        = "push-event"
	FromChannelMessage   = "channel-message"
	FromContextInjection = "context-injection"
	FromScriptResult     = "script-result"
	FromPrompt           = "prompt"
	FromSampling         = "sampling"
)

// Error is an error of the crate's: Kind is one of its ErrorKind names ("Json",
// "UnrecognizedMessage", "UnknownReference", "UnknownProvider", "Server", "Timeout", …), or
// "InvalidArgument" or "Panic" (a defect). Line and Column (1-based) are where a JSON error
// lies, 0 where not known. Reach it with errors.As.
type Error struct {
	Kind    string
	Message string
	Line    int
	Column  int

	// What the error wraps: the context's error, where a call's context ended it.
	cause error
}

// Unwrap gives the context's error where a call's deadline ended it (errors.Is(err,
// context.DeadlineExceeded) holds then), or nil.
func (e *Error) Unwrap() error { return e.cause }

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("mcp-agent-view: %s: %s (line %d, column %d)", e.Kind, e.Message, e.Line, e.Column)
	}
	return fmt.Sprintf("mcp-agent-view: %s: %s", e.Kind, e.Message)
}

// errorOf takes a C error, frees it, and gives it back as an *Error.
func errorOf(e *C.mav_error) error {
	if e == nil {
		return &Error{Kind: "Panic", Message: "the call failed and said nothing"}
	}
	defer C.mav_error_free(e)
	return &Error{
		Kind:    C.GoString(e.kind),
		Message: C.GoString(e.message),
		Line:    int(e.line),
		Column:  int(e.column),
	}
}

// cBytes is the address and length of b for one call: Go memory the callee only reads and does
// not keep.
func cBytes(b []byte) (*C.uint8_t, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0])), C.size_t(len(b))
}

// cString is s as a C string (nil for ""), and its free.
func cString(s string) (*C.char, func()) {
	if s == "" {
		return nil, func() {}
	}
	p := C.CString(s)
	return p, func() { C.free(unsafe.Pointer(p)) }
}

// textOf runs a call that returns text, and gives it back as Go bytes.
func textOf(call func(out **C.char, outLen *C.size_t, e **C.mav_error) C.int32_t) ([]byte, error) {
	var out *C.char
	var outLen C.size_t
	var e *C.mav_error
	if call(&out, &outLen, &e) != C.MAV_OK {
		return nil, errorOf(e)
	}
	defer C.mav_string_free(out)
	return C.GoBytes(unsafe.Pointer(out), C.int(outLen)), nil
}

// Names gives the targets' and provenances' names, from the crate's tables.
func Names() (targets, provenances []string, err error) {
	out, err := textOf(func(o **C.char, n *C.size_t, e **C.mav_error) C.int32_t { return C.mav_names(o, n, e) })
	if err != nil {
		return nil, nil, err
	}
	var names struct {
		Targets     []string `json:"targets"`
		Provenances []string `json:"provenances"`
	}
	if err := json.Unmarshal(out, &names); err != nil {
		return nil, nil, err
	}
	return names.Targets, names.Provenances, nil
}

// Version is the C library's version.
func Version() string { return C.GoString(C.mav_version()) }

// Registry holds the references of one conversation: each stub's id maps back to its uri here.
// Safe for use by several goroutines at once; Close frees it (a finalizer does, where Close is
// not called).
type Registry struct {
	mu  sync.RWMutex
	ptr *C.mav_registry
}

// RegistryOption sets up a new Registry.
type RegistryOption func(*registryOptions)

type registryOptions struct {
	seeded    bool
	seed      uint64
	fetchTool string
}

// WithSeed keys the registry with seed: the same references get the same ids (for tests and
// reproducible runs). Without it the key is random.
func WithSeed(seed uint64) RegistryOption {
	return func(o *registryOptions) { o.seeded, o.seed = true, seed }
}

// WithFetchTool names the tool the stubs tell the model to call to read a reference.
func WithFetchTool(name string) RegistryOption {
	return func(o *registryOptions) { o.fetchTool = name }
}

// NewRegistry makes a registry.
func NewRegistry(options ...RegistryOption) (*Registry, error) {
	var o registryOptions
	for _, option := range options {
		option(&o)
	}
	tool, free := cString(o.fetchTool)
	defer free()
	var ptr *C.mav_registry
	var e *C.mav_error
	if C.mav_registry_new(C.bool(o.seeded), C.uint64_t(o.seed), tool, &ptr, &e) != C.MAV_OK {
		return nil, errorOf(e)
	}
	return registryOf(ptr), nil
}

func registryOf(ptr *C.mav_registry) *Registry {
	r := &Registry{ptr: ptr}
	runtime.SetFinalizer(r, (*Registry).Close)
	return r
}

// RestoreRegistry gives back the registry a snapshot was taken of.
func RestoreRegistry(snapshot []byte) (*Registry, error) {
	p, n := cBytes(snapshot)
	var ptr *C.mav_registry
	var e *C.mav_error
	rc := C.mav_registry_restore(p, n, &ptr, &e)
	runtime.KeepAlive(snapshot)
	if rc != C.MAV_OK {
		return nil, errorOf(e)
	}
	return registryOf(ptr), nil
}

// Close frees the registry; later calls with it fail with kind "InvalidArgument".
func (r *Registry) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ptr != nil {
		C.mav_registry_free(r.ptr)
		r.ptr = nil
	}
	return nil
}

// use runs f with the registry's handle, held open for the call.
func (r *Registry) use(f func(*C.mav_registry) error) error {
	if r == nil {
		return &Error{Kind: "InvalidArgument", Message: "registry must not be nil"}
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.ptr == nil {
		return &Error{Kind: "InvalidArgument", Message: "the registry is closed"}
	}
	return f(r.ptr)
}

// Len is how many references the registry holds.
func (r *Registry) Len() int {
	n := 0
	_ = r.use(func(p *C.mav_registry) error { n = int(C.mav_registry_len(p)); return nil })
	return n
}

// Record is what the registry keeps of a reference, for the host's own fetcher. URI is never
// shown to the model.
type Record struct {
	ID          string          `json:"id"`
	URI         string          `json:"uri"`
	Source      string          `json:"source"`
	Name        *string         `json:"name"`
	MimeType    *string         `json:"mimeType"`
	SizeBytes   *uint64         `json:"sizeBytes"`
	Disposition *string         `json:"disposition"`
	ExpiresAt   *string         `json:"expiresAt"`
	Digest      *string         `json:"digest"`
	Verified    json.RawMessage `json:"verified"`
	Connection  *string         `json:"connection"`
}

// Lookup gives the record behind a stub's id; an error of kind "UnknownReference" or
// "EvictedReference" where there is none.
func (r *Registry) Lookup(id string) (*Record, error) {
	var out []byte
	err := r.use(func(p *C.mav_registry) error {
		cid := C.CString(id)
		defer C.free(unsafe.Pointer(cid))
		var err error
		out, err = textOf(func(o **C.char, n *C.size_t, e **C.mav_error) C.int32_t {
			return C.mav_registry_lookup(p, cid, o, n, e)
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	var record Record
	if err := json.Unmarshal(out, &record); err != nil {
		return nil, err
	}
	return &record, nil
}

// Snapshot is the registry as JSON, for RestoreRegistry.
func (r *Registry) Snapshot() (json.RawMessage, error) {
	var out []byte
	err := r.use(func(p *C.mav_registry) error {
		var err error
		out, err = textOf(func(o **C.char, n *C.size_t, e **C.mav_error) C.int32_t {
			return C.mav_registry_snapshot(p, o, n, e)
		})
		return err
	})
	return out, err
}

// lane runs a call over message with the registry's handle.
func lane(message []byte, r *Registry, call func(msg *C.uint8_t, n C.size_t, reg *C.mav_registry, o **C.char, on *C.size_t, e **C.mav_error) C.int32_t) ([]byte, error) {
	var out []byte
	err := r.use(func(reg *C.mav_registry) error {
		p, n := cBytes(message)
		var err error
		out, err = textOf(func(o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
			return call(p, n, reg, o, on, e)
		})
		runtime.KeepAlive(message)
		return err
	})
	return out, err
}

// HistoryOptions are the history lane's options. The zero value is a tool result with no
// budget.
type HistoryOptions struct {
	// Where the blocks came from, as reference stubs say: one of the provenances' names
	// ("tool-result", "push-event", …); "" for "tool-result".
	Provenance string
	// The most characters the string may have; 0 for no limit.
	Budget int
}

// History shows a message (a tool result, a JSON-RPC response or error, a prompt, a block or
// blocks) as one string: text verbatim, media as markers, references as stubs.
func History(message []byte, r *Registry, options *HistoryOptions) (string, error) {
	var o HistoryOptions
	if options != nil {
		o = *options
	}
	provenance, free := cString(o.Provenance)
	defer free()
	budget := C.int64_t(-1)
	if o.Budget > 0 {
		budget = C.int64_t(o.Budget)
	}
	out, err := lane(message, r, func(m *C.uint8_t, n C.size_t, reg *C.mav_registry, o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_history(m, n, reg, provenance, budget, o, on, e)
	})
	return string(out), err
}

// Options choose a lane's target and provenance. The zero value is each function's default
// target, and the provenance "push-event" (Convert's default, as in the CLI and the packages).
type Options struct {
	// One of Neutral, Anthropic, OpenAIChat, OpenAIResponses; "" for the function's default.
	Target string
	// One of the provenances' names; "" for "push-event".
	Provenance string
}

func optionsOf(options *Options) Options {
	if options == nil {
		return Options{}
	}
	return *options
}

// Converted is a message's blocks as the model reads them: Content in the target's shape, and
// what was held back for the user (audience: user) in the neutral shape.
type Converted struct {
	Content     []json.RawMessage `json:"content"`
	HeldForUser []json.RawMessage `json:"heldForUser"`
}

// Convert gives one block in the target's shape (text, image, audio, document) per block of the
// message. The default target is Neutral.
func Convert(message []byte, r *Registry, options *Options) (*Converted, error) {
	o := optionsOf(options)
	target, freeTarget := cString(o.Target)
	defer freeTarget()
	provenance, freeProvenance := cString(o.Provenance)
	defer freeProvenance()
	out, err := lane(message, r, func(m *C.uint8_t, n C.size_t, reg *C.mav_registry, o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_convert(m, n, reg, target, provenance, o, on, e)
	})
	if err != nil {
		return nil, err
	}
	var converted Converted
	if err := json.Unmarshal(out, &converted); err != nil {
		return nil, err
	}
	return &converted, nil
}

// Script gives a script's JSON result with every block in it replaced by its agent form. The
// default target is Neutral.
func Script(message []byte, r *Registry, target string) (json.RawMessage, error) {
	t, free := cString(target)
	defer free()
	return lane(message, r, func(m *C.uint8_t, n C.size_t, reg *C.mav_registry, o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_script(m, n, reg, t, o, on, e)
	})
}

// PromptMessages gives a prompt's messages (prompts/get's result) in the target's shape. The
// default target is Neutral.
func PromptMessages(message []byte, r *Registry, target string) ([]json.RawMessage, error) {
	t, free := cString(target)
	defer free()
	out, err := lane(message, r, func(m *C.uint8_t, n C.size_t, reg *C.mav_registry, o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_prompt_messages(m, n, reg, t, o, on, e)
	})
	return rawArray(out, err)
}

// SamplingRequest gives a server's sampling/createMessage request (its params, or the whole
// request) as the host's own model reads it: {"messages" (the target's shape), "systemPrompt",
// "maxTokens", …}. The default target is Neutral.
func SamplingRequest(message []byte, r *Registry, target string) (json.RawMessage, error) {
	t, free := cString(target)
	defer free()
	return lane(message, r, func(m *C.uint8_t, n C.size_t, reg *C.mav_registry, o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_sampling_request(m, n, reg, t, o, on, e)
	})
}

// Elicitation gives a server's elicitation/create request as a host shows it.
func Elicitation(message []byte) (json.RawMessage, error) {
	p, n := cBytes(message)
	out, err := textOf(func(o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_elicitation(p, n, o, on, e)
	})
	runtime.KeepAlive(message)
	return out, err
}

// Classified is what classify_block decided of one block.
type Classified struct {
	Index int    `json:"index"`
	Class string `json:"class"`
	// The rest of what was decided (chars, kind, mimeType, sizeBytes, source, name, …), as the
	// class has it.
	Fields map[string]json.RawMessage `json:"-"`
}

// Classify gives what each block of the message is, in order.
func Classify(message []byte) ([]Classified, error) {
	p, n := cBytes(message)
	out, err := textOf(func(o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_classify(p, n, o, on, e)
	})
	runtime.KeepAlive(message)
	if err != nil {
		return nil, err
	}
	var fields []map[string]json.RawMessage
	if err := json.Unmarshal(out, &fields); err != nil {
		return nil, err
	}
	items := make([]Classified, len(fields))
	for i, f := range fields {
		if err := json.Unmarshal(f["index"], &items[i].Index); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(f["class"], &items[i].Class); err != nil {
			return nil, err
		}
		delete(f, "index")
		delete(f, "class")
		items[i].Fields = f
	}
	return items, nil
}

// ToolDefinitions gives MCP tools (the JSON array of tools/list's tools) as the target's tool
// definitions. The default target is Anthropic.
func ToolDefinitions(tools []byte, target string) ([]json.RawMessage, error) {
	t, free := cString(target)
	defer free()
	p, n := cBytes(tools)
	out, err := textOf(func(o **C.char, on *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_tool_definitions(p, n, t, o, on, e)
	})
	runtime.KeepAlive(tools)
	return rawArray(out, err)
}

func rawArray(out []byte, err error) ([]json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(out, &items); err != nil {
		return nil, err
	}
	return items, nil
}
