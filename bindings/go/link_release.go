//go:build !mav_debug

package mcpagentview

// The static library of a release build: cargo build --release -p mcp-agent-view-c.

/*
#cgo LDFLAGS: ${SRCDIR}/../../target/release/libmcp_agent_view_c.a -lm -ldl -lpthread
*/
import "C"
