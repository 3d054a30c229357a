package mcpagentview

/*
#include <stdlib.h>
#include "mcp_agent_view.h"
*/
import "C"

import (
	"encoding/json"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// FetchSettings is a fetch policy: what the model's fetch tool may fetch. The zero value is
// the defaults: https and public addresses only, 16 MiB, 30 s, 3 redirects, redirects out of
// the origin followed without the credential.
type FetchSettings struct {
	// The ceiling on one fetch's decoded bytes; 0 for the default (16 MiB).
	MaxBytes uint64
	// Schemes besides https ("http", "data"); "file" only with AllowFilesUnder.
	AllowSchemes []string
	// The origin the connection was dialed to: the one that gets Bearer.
	Origin string
	// The connection's credential, sent to Origin only.
	Bearer string
	// Origins whose addresses are not public, allowed by name (no credential).
	AllowOrigins []string
	// The timeout of one whole fetch; 0 for the default (30 s).
	Timeout time.Duration
	// The most redirects one fetch follows; nil for the default (3).
	MaxRedirects *uint8
	// Whether a redirect out of the origin is refused outright.
	RefuseCrossOriginRedirects bool
	// The directory file: references may be read from, beneath it only.
	AllowFilesUnder string
	// Whether a file with more than one link may be read.
	AllowHardLinks bool
	// Where verified bytes that are not text or an image are saved.
	SaveDir string
}

// json is the settings as the C ABI reads them: only what differs from the defaults.
func (s FetchSettings) json() ([]byte, error) {
	out := map[string]interface{}{}
	if s.MaxBytes > 0 {
		out["maxBytes"] = s.MaxBytes
	}
	if len(s.AllowSchemes) > 0 {
		out["allowSchemes"] = s.AllowSchemes
	}
	if s.Origin != "" {
		out["origin"] = s.Origin
	}
	if s.Bearer != "" {
		out["bearer"] = s.Bearer
	}
	if len(s.AllowOrigins) > 0 {
		out["allowOrigins"] = s.AllowOrigins
	}
	if s.Timeout > 0 {
		out["timeoutMs"] = float64(s.Timeout) / float64(time.Millisecond)
	}
	if s.MaxRedirects != nil {
		out["maxRedirects"] = *s.MaxRedirects
	}
	if s.RefuseCrossOriginRedirects {
		out["crossOriginRedirects"] = false
	}
	if s.AllowFilesUnder != "" {
		out["allowFilesUnder"] = s.AllowFilesUnder
	}
	if s.AllowHardLinks {
		out["allowHardLinks"] = true
	}
	if s.SaveDir != "" {
		out["saveDir"] = s.SaveDir
	}
	return json.Marshal(out)
}

// Fetcher answers the model's fetch tool under a policy. Safe for several goroutines; Close
// frees it.
type Fetcher struct {
	mu  sync.RWMutex
	ptr *C.mav_fetcher
}

// NewFetcher makes a fetcher; an *Error of kind "Policy" where a setting is refused (a file
// scheme with no directory, an origin that is no URL with a host).
func NewFetcher(settings FetchSettings) (*Fetcher, error) {
	data, err := settings.json()
	if err != nil {
		return nil, err
	}
	p, n := cBytes(data)
	var ptr *C.mav_fetcher
	var e *C.mav_error
	rc := C.mav_fetcher_new(p, n, &ptr, &e)
	runtime.KeepAlive(data)
	if rc != C.MAV_OK {
		return nil, errorOf(e)
	}
	f := &Fetcher{ptr: ptr}
	runtime.SetFinalizer(f, (*Fetcher).Close)
	return f, nil
}

// Close frees the fetcher.
func (f *Fetcher) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ptr != nil {
		C.mav_fetcher_free(f.ptr)
		f.ptr = nil
	}
	return nil
}

// FetchReference answers one call of the fetch tool: input is the call's arguments
// ({"ref_id": "ref_…"}). It blocks until the fetch is done (the policy's timeout bounds it). A
// refusal is a failed call naming the reason, never the uri; the error is only for bad
// arguments. The default target is Anthropic.
func (f *Fetcher) FetchReference(input json.RawMessage, toolUseID string, r *Registry, target string) (*ToolResult, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if f.ptr == nil {
		return nil, &Error{Kind: "InvalidArgument", Message: "the fetcher is closed"}
	}
	t, freeTarget := cString(target)
	defer freeTarget()
	cid := C.CString(toolUseID)
	defer C.free(unsafe.Pointer(cid))
	var ptr *C.mav_tool_result
	err := r.use(func(reg *C.mav_registry) error {
		p, n := cBytes(input)
		var e *C.mav_error
		rc := C.mav_fetch_reference(f.ptr, p, n, cid, reg, t, &ptr, &e)
		runtime.KeepAlive(input)
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

// FetchToolDefinition is the fetch tool's definition in the target's shape, named name (""
// for "fetch_reference"); its input is {"ref_id": …}. The default target is Anthropic.
func FetchToolDefinition(target, name string) (json.RawMessage, error) {
	t, freeTarget := cString(target)
	defer freeTarget()
	cname, freeName := cString(name)
	defer freeName()
	return textOf(func(o **C.char, n *C.size_t, e **C.mav_error) C.int32_t {
		return C.mav_fetch_tool_definition(t, cname, o, n, e)
	})
}
