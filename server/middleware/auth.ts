import { createHash, timingSafeEqual } from "node:crypto";
import type { H3Event } from "h3";
import { ApiError } from "../errors.ts";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Constant-time comparison: both sides hashed to equal length first. */
function matches(given: string, key: string): boolean {
  return timingSafeEqual(digest(given), digest(key));
}

/** The key as sent: `Authorization: Bearer`, `x-api-key`, or `?api_key=` (for plain download links). */
function presentedKey(event: H3Event): string | undefined {
  const auth = event.req.headers.get("authorization");
  const bearer = auth?.match(/^Bearer\s+(.+)$/i)?.[1];
  return bearer ?? event.req.headers.get("x-api-key") ?? event.url.searchParams.get("api_key") ?? undefined;
}

/** Refuses a request without the configured key; no key configured → open. */
export function requireApiKey(event: H3Event, key: string | undefined): void {
  if (!key) return;
  const given = presentedKey(event);
  if (given === undefined) {
    throw new ApiError(401, "API key required: send Authorization: Bearer <key>, x-api-key: <key> or ?api_key=<key>", {}, { "www-authenticate": "Bearer" });
  }
  if (!matches(given, key)) throw new ApiError(401, "API key not accepted", {}, { "www-authenticate": "Bearer" });
}
