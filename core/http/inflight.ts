import { toUpstreamError } from "./upstream-error.ts";

/** One upstream GET shared by every identical concurrent call. */
interface Shared<T> {
  promise: Promise<T>;
  /** Callers still waiting; when the last one gives up, the request is abandoned. */
  callers: number;
  abandon(): void;
}

/** Identical concurrent requests of this process, sharing one upstream request each. */
export class Inflight<T> {
  private readonly requests = new Map<string, Shared<T>>();

  /**
   * The request under `key`, started by `start` unless one is running. It runs on its own signal:
   * each caller's signal (`wait`) only ends that caller's wait, and the last to leave abandons it.
   */
  join(key: string, url: string, start: (signal: AbortSignal) => Promise<T>, wait: AbortSignal | undefined): Promise<T> {
    let shared = this.requests.get(key);
    if (!shared) {
      const controller = new AbortController();
      const forget = () => {
        if (this.requests.get(key) === shared) this.requests.delete(key);
      };
      const promise = start(controller.signal).then(
        (res) => {
          forget();
          return res;
        },
        (err: unknown) => {
          forget();
          throw err;
        },
      );
      shared = {
        promise,
        callers: 0,
        abandon: () => {
          forget();
          controller.abort();
        },
      };
      this.requests.set(key, shared);
    }
    return waitFor(shared, url, wait);
  }
}

/** Waits for a shared request until it settles or this caller's signal ends the wait. */
function waitFor<T>(shared: Shared<T>, url: string, signal: AbortSignal | undefined): Promise<T> {
  shared.callers++;
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      signal?.removeEventListener("abort", onAbort);
      shared.callers--;
      settle();
    };
    const onAbort = () =>
      finish(() => {
        if (shared.callers === 0) shared.abandon();
        reject(toUpstreamError(signal?.reason, url, signal));
      });
    // Listening first: an abandoned request's rejection is then always handled.
    shared.promise.then(
      (res) => finish(() => resolve(res)),
      (err: unknown) => finish(() => reject(err)),
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
