// MCP server stand-in: finalize hashes this file; strict validate judges it.
