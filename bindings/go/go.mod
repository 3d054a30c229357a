module github.com/mcp-agent-view/mcp-agent-view/bindings/go

go 1.19
