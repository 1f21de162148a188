/** A signal aborted after `ms` or with `parent`; `dispose` releases the timer and the parent listener. */
export interface TimeBox {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * A plain timer owned by the caller, not `AbortSignal.timeout`: Node's timeout signal is held only
 * weakly by its timer, so one referenced by nothing but an `AbortSignal.any` composite is
 * garbage-collected and never fires (searches used to wait for the overall deadline).
 */
export function timeBox(ms: number, parent?: AbortSignal): TimeBox {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`timed out after ${ms} ms`, "TimeoutError")), ms);
  const onParent = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParent();
  else parent?.addEventListener("abort", onParent, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParent);
      controller.abort();
    },
  };
}
