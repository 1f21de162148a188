/**
 * The User-Agent of a request, reduced to one of a few client families for the usage statistics.
 * Only the family leaves this function: the raw User-Agent is never stored, counted or exposed
 * (no query text, IP address or user agent, ever). The list is fixed, so it is safe as a
 * metrics label.
 */

export const CLIENT_FAMILIES = ["claude", "chatgpt", "cursor", "vscode", "windsurf", "curl", "wget", "python", "node", "go", "browser", "other"] as const;
export type ClientFamily = (typeof CLIENT_FAMILIES)[number];

/**
 * First match wins, so the specific agents come before the runtimes they are built on (Claude
 * Desktop and Cursor send Electron/Chrome user agents; MCP clients often send node's).
 */
const RULES: readonly (readonly [ClientFamily, RegExp])[] = [
  ["claude", /\bclaude|anthropic/i],
  ["chatgpt", /chatgpt|openai/i],
  ["cursor", /\bcursor\b/i],
  ["windsurf", /windsurf|codeium/i],
  ["vscode", /vscode|visual ?studio ?code|\bCode\/\d/i],
  ["curl", /^curl\//i],
  ["wget", /^wget\//i],
  ["python", /python|aiohttp|httpx|urllib/i],
  ["node", /^node\b|undici|node-fetch|axios|\bbun\/|\bdeno\//i],
  ["go", /^go-http-client|^go\b/i],
  ["browser", /mozilla\/|applewebkit|gecko\/|chrome\/|safari\/|firefox\//i],
];

/** The client family of a User-Agent (or an MCP client name); `other` when unknown or missing. */
export function clientFamily(userAgent: string | null | undefined): ClientFamily {
  // Bounded work on an attacker-controlled header: the family is always within the first bytes.
  const ua = (userAgent ?? "").slice(0, 512);
  if (!ua.trim()) return "other";
  for (const [family, pattern] of RULES) if (pattern.test(ua)) return family;
  return "other";
}

/** A family name from elsewhere (a caller's guess) kept within the fixed list. */
export function asClientFamily(name: string): ClientFamily {
  return (CLIENT_FAMILIES as readonly string[]).includes(name) ? (name as ClientFamily) : "other";
}
