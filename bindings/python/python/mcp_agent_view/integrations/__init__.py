"""One ``view(…)`` per agent framework: it takes the object a user already builds from the
framework and returns the same kind of object, whose MCP tool results the model reads as this
package shows them (every block in, no uri, one bad block never costing its siblings, a failed
call a tool error the run goes on past).

- :mod:`mcp_agent_view.integrations.pydantic_ai`: an ``MCPToolset`` (extra ``[pydantic-ai]``)
- :mod:`mcp_agent_view.integrations.openai_agents`: an ``MCPServer*`` (extra ``[openai-agents]``)
- :mod:`mcp_agent_view.integrations.langchain`: a ``MultiServerMCPClient`` (extra ``[langchain]``)

Importing this package needs no framework; importing an integration without its framework is a
``ModuleNotFoundError`` naming the extra. See docs/integrations.md.
"""
