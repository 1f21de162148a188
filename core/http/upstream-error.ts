import { BlockedAddressError } from "./address-guard.ts";
import { UpstreamError } from "./types.ts";

/** Any failure of a request as the one error the client's callers see, told apart by kind. */
export function toUpstreamError(err: unknown, url: string, signal: AbortSignal | undefined): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const e = err as Error & { code?: string; cause?: { code?: string } };
  if (e instanceof BlockedAddressError || e?.cause instanceof BlockedAddressError) {
    return new UpstreamError((e instanceof BlockedAddressError ? e : (e.cause as Error)).message, url, "blocked");
  }
  if (signal?.aborted) {
    const timedOut = (signal.reason as Error | undefined)?.name === "TimeoutError";
    return new UpstreamError(timedOut ? `${url} timed out` : `request to ${url} was aborted`, url, timedOut ? "timeout" : "aborted");
  }
  const code = e?.code ?? e?.cause?.code ?? "";
  if (/TIMEOUT/.test(code)) return new UpstreamError(`${url} timed out (${code})`, url, "timeout");
  if (e?.name === "ReplayMissError") return new UpstreamError(`${url} failed: ${e.message}`, url, "unrecorded");
  return new UpstreamError(`${url} failed: ${e?.message ?? String(err)}`, url, "network", undefined, undefined, code);
}
