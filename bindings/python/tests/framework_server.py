"""A stdio MCP server written with the official ``mcp`` SDK (2.x) for the framework tests: one
tool per case a framework's own converter gets wrong. Every uri carries a secret the model must
never read (``SECRET-…``); a middleware adds what the SDK would not build itself (a block of a
type no revision defines)."""

import base64
import struct
import zlib
from typing import Any

import anyio
from mcp import types
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError


def png(width: int, height: int) -> bytes:
    """A valid PNG of noise-free grey rows, ``width`` × ``height``."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + bytes((x * 7 + y) % 256 for x in range(width)) for y in range(height))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 0)) + chunk(b"IEND", b"")


def wav() -> bytes:
    """A valid WAV of 100 silent samples."""
    data = b"\x00\x00" * 100
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 16000, 2, 16)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
SMALL_PNG = base64.b64encode(png(4, 4)).decode()
# About 5 MB once base64-encoded.
BIG_PNG = base64.b64encode(png(2000, 1870)).decode()
WAV = base64.b64encode(wav()).decode()

TOOLS = {
    "embedded_text": "An embedded text resource.",
    "embedded_pdf": "An embedded PDF.",
    "image": "An image.",
    "audio": "An audio clip.",
    "link": "A resource link.",
    "unknown": "Text beside a block of an unknown type.",
    "is_error": "A failed call (isError).",
    "structured": "structuredContent only.",
    "rpc_error": "A JSON-RPC error.",
    "big_image": "A 5 MB image.",
    "data_link": "A link the fetch tool can open (a data: uri).",
    "plain": "Plain text.",
}


async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    schema = {"type": "object", "properties": {}}
    return types.ListToolsResult(
        tools=[types.Tool(name=name, description=text, input_schema=schema) for name, text in TOOLS.items()]
    )


def text(value: str) -> types.TextContent:
    return types.TextContent(text=value)


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    name = params.name
    if name == "embedded_text":
        resource = types.TextResourceContents(
            uri="file:///vault/notes.txt?token=SECRET-TEXT", mime_type="text/plain", text="The notes say 42."
        )
        return types.CallToolResult(content=[types.EmbeddedResource(resource=resource)])
    if name == "embedded_pdf":
        blob = types.BlobResourceContents(
            uri="https://files.example/q3.pdf?sig=SECRET-PDF",
            mime_type="application/pdf",
            blob=base64.b64encode(PDF).decode(),
        )
        return types.CallToolResult(content=[text("The PDF:"), types.EmbeddedResource(resource=blob)])
    if name == "image":
        return types.CallToolResult(content=[text("The chart:"), types.ImageContent(data=SMALL_PNG, mime_type="image/png")])
    if name == "big_image":
        return types.CallToolResult(content=[text("The scan:"), types.ImageContent(data=BIG_PNG, mime_type="image/png")])
    if name == "audio":
        return types.CallToolResult(content=[text("The clip:"), types.AudioContent(data=WAV, mime_type="audio/wav")])
    if name == "link":
        link = types.ResourceLink(
            uri="https://api.example/r/7?token=SECRET-LINK", name="report.pdf", mime_type="application/pdf"
        )
        return types.CallToolResult(content=[text("The report is linked."), link])
    if name == "data_link":
        words = base64.b64encode(b"The linked words.").decode()
        link = types.ResourceLink(uri=f"data:text/plain;base64,{words}", name="words.txt", mime_type="text/plain")
        return types.CallToolResult(content=[text("The words are linked."), link])
    if name == "unknown":
        return types.CallToolResult(content=[text("Kept beside the hologram.")])
    if name == "is_error":
        return types.CallToolResult(content=[text("The city is unknown.")], is_error=True)
    if name == "structured":
        return types.CallToolResult(content=[], structured_content={"temperature": 21, "unit": "C"})
    if name == "rpc_error":
        raise MCPError(code=-32602, message="rpc_error: the argument is missing")
    return types.CallToolResult(content=[text("Plain answer.")])


async def newer_revision(ctx: Any, call_next: Any) -> Any:
    """Adds a block of a type no revision defines to the ``unknown`` tool's result."""
    result = await call_next(ctx)
    name = (ctx.params or {}).get("name")
    if isinstance(result, dict) and ctx.method == "tools/call" and name == "unknown":
        result["content"].append({"type": "hologram", "frames": 3, "uri": "holo://x?token=SECRET-HOLO"})
    return result


server = Server("framework-server", on_list_tools=list_tools, on_call_tool=call_tool)
server.middleware.append(newer_revision)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
