import pRetry, { AbortError } from "p-retry";
import { UpstreamError } from "./types.ts";
import { toUpstreamError } from "./upstream-error.ts";

/** A Retry-After longer than this is not waited for: the error goes back to the caller. */
const MAX_RETRY_AFTER_MS = 10_000;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** Connection failures worth another try; a replay miss or a DNS failure is not. */
const RETRY_CODES = new Set(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE", "ECONNREFUSED", "UND_ERR_CLOSED"]);

function isTransient(err: UpstreamError): boolean {
  if (err.kind === "http") return err.status !== undefined && RETRY_STATUSES.has(err.status);
  return err.kind === "network" && err.code !== undefined && RETRY_CODES.has(err.code);
}

/** Runs `attempt` with at most `retries` retries of transient failures, honouring Retry-After. */
export async function withRetries<T>(url: string, attempt: () => Promise<T>, retries: number, signal: AbortSignal | undefined): Promise<T> {
  try {
    return await pRetry(
      async () => {
        try {
          return await attempt();
        } catch (err) {
          if (err instanceof UpstreamError && isTransient(err)) throw err;
          throw new AbortError(err as Error);
        }
      },
      {
        retries,
        minTimeout: 200,
        factor: 2,
        signal,
        onFailedAttempt: async ({ error, retriesLeft }) => {
          const wait = (error as UpstreamError).retryAfterSeconds;
          // No retry left: nothing to wait for, the error goes back now.
          if (wait === undefined || retriesLeft === 0) return;
          if (wait * 1000 > MAX_RETRY_AFTER_MS) throw error;
          await sleep(wait * 1000, signal);
        },
      },
    );
  } catch (err) {
    // p-retry rejects with the signal's reason (a DOMException) when the deadline or the caller
    // ends a back-off or Retry-After wait; callers only ever see UpstreamError.
    throw toUpstreamError(err, url, signal);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
