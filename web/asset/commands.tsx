/**
 * The picker's request for scripts and agents: the download as a `curl` command (`-L`: one file
 * is a redirect to the source) and the MCP `get_asset` call with the same choices.
 */
import type { Choices } from "./choices.ts";
import { downloadPath } from "./choices.ts";
import { CopyField } from "./copy-field.tsx";

/** Single quotes hold everything in a POSIX shell but a single quote, which the URL never needs raw. */
const shellQuoted = (url: string) => `'${url.replaceAll("'", "%27")}'`;

export function Commands({ id, choices, canDownload }: { id: string; choices: Choices; canDownload: boolean }) {
  const args = {
    id,
    ...(choices.format ? { format: choices.format } : {}),
    ...(choices.resolution ? { resolution: choices.resolution } : {}),
    ...(choices.maps?.length ? { maps: choices.maps } : {}),
  };
  const call = JSON.stringify({ name: "get_asset", arguments: args }, null, 2);
  return (
    <details class="commands">
      <summary>For scripts and agents</summary>
      {canDownload && (
        <CopyField label="Download with curl" value={`curl -LOJ ${shellQuoted(location.origin + downloadPath(id, choices))}`} button="Copy command" rows={2} />
      )}
      <CopyField label="MCP tool call (POST /mcp, tools/call)" value={call} button="Copy call" rows={call.split("\n").length} />
    </details>
  );
}
