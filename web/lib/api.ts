/**
 * The service's API as the app calls it: same origin, JSON in and out. Shapes are the server's own
 * zod schemas (core/schemas), imported as types only, so nothing of zod reaches the browser.
 */

/** A non-2xx answer: the server's `{ "error" }` text and the status. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { headers: { accept: "application/json" }, ...(signal ? { signal } : {}) });
  const body = (await res.json().catch(() => undefined)) as (T & { error?: string }) | undefined;
  if (!res.ok || body === undefined) throw new ApiFailure(res.status, body?.error ?? `HTTP ${res.status} for ${path}`);
  return body;
}

/** `/v1/assets/<id>` and the routes under it, the id encoded as one path segment. */
export const assetPath = (id: string, rest = ""): string => `/v1/assets/${encodeURIComponent(id)}${rest}`;
