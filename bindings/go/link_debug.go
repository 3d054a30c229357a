//go:build mav_debug

package mcpagentview

// The static library of a debug build (cargo build -p mcp-agent-view-c), with the build tag
// mav_debug: what this package's tests link, beside the crate's other tests.

/*
#cgo LDFLAGS: -L${SRCDIR}/../../target/debug -l:libmcp_agent_view_c.a -lm -ldl -lpthread
*/
import "C"
