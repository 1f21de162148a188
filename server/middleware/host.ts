import { networkInterfaces } from "node:os";
import type { H3Event } from "h3";
import type { Config } from "../../core/config.ts";
import { ApiError } from "../errors.ts";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"];
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", ""]);

/** The host names of Host headers the server answers; undefined = any (`ALLOWED_HOSTS=*`). */
export function allowedHosts(config: Pick<Config, "allowedHosts" | "host" | "publicUrl">): Set<string> | undefined {
  if (config.allowedHosts?.includes("*")) return undefined;
  if (config.allowedHosts) return new Set(config.allowedHosts);
  const names = new Set(LOOPBACK_NAMES);
  // Listening on every interface: each of this machine's addresses is a listening address.
  if (WILDCARD_HOSTS.has(config.host)) {
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(a.address.toLowerCase());
  } else names.add(config.host.toLowerCase());
  if (config.publicUrl) names.add(new URL(config.publicUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase());
  return names;
}

/** The request's host name (from Host, or an absolute-form request target), as links would use it. */
const hostName = (event: H3Event) => event.url.hostname.replace(/^\[|\]$/g, "").toLowerCase();

/** HTTP/1.1 requires a Host header; Node's own check would answer its absence with an empty body. */
export function requireHostHeader(event: H3Event): void {
  if (event.req.headers.has("host") || event.req.runtime?.node?.req.httpVersion !== "1.1") return;
  throw new ApiError(400, "missing Host header: an HTTP/1.1 request must name the host it is for");
}

/**
 * Refuses a Host this server was not told it answers for (421). Links handed out without
 * ASSET_SERVER_PUBLIC_URL are built from the Host, so a forged one would poison any cache in
 * front; checking it also stops DNS rebinding from reaching a server bound to loopback.
 */
export function requireKnownHost(event: H3Event, allowed: Set<string> | undefined): void {
  if (!allowed) return;
  const name = hostName(event);
  if (allowed.has(name)) return;
  throw new ApiError(
    421,
    `unknown host '${name.slice(0, 100)}': this server does not answer for it (its operator can add it to ALLOWED_HOSTS or set ASSET_SERVER_PUBLIC_URL)`,
  );
}
