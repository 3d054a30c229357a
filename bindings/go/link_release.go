//go:build !mav_debug

package mcpagentview

// The static library of a release build (cargo build --release -p mcp-agent-view-c), found in
// the checkout's target/release, or in a directory CGO_LDFLAGS names with -L.

/*
#cgo LDFLAGS: -L${SRCDIR}/../../target/release -l:libmcp_agent_view_c.a -lm -ldl -lpthread
*/
import "C"
