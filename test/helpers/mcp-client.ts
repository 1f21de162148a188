import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { H3 } from "h3";
import { listen } from "./app.ts";

/** `app` served on a free port with the SDK's own MCP client connected to its `/mcp`; `close` ends both. */
export async function mcpClient(app: H3) {
  const served = await listen(app);
  const client = new Client({ name: "asset-search-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`)));
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const close = async () => {
    await client.close();
    await served.close();
  };
  return { call, close, url: served.url };
}

/** The text of an isError result. */
export function toolErrorText(result: CallToolResult): string {
  if (!result.isError) throw new Error(`expected an isError result, got ${JSON.stringify(result.structuredContent)}`);
  return (result.content[0] as { text: string }).text;
}
