/**
 * Where `asset-search get` and the MCP tool `download_asset` learn what to download: the library
 * in process (the application layer the server's routes use), or a running server over its API
 * when ASSET_SEARCH_URL is set. Either way the answer is the asset's details and the files the
 * one delivery decision (server/service/delivery.ts) lets through, or its error in its words;
 * what is written, and how, is the same code (server/project/get.ts). The bytes always come from
 * the files' own URLs through the guarded client of core/http, as `get_asset` tells agents they may.
 */
import type { z } from "zod";
import type { HttpClient } from "../../core/http/types.ts";
import { AssetDetails, type AssetFile, ErrorBody, type FileParams, FileSelection, ProvidersResponse } from "../../core/schemas/index.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { parseAssetId } from "../service/assets.ts";
import { type Delivery, decideDelivery, deliveryOf } from "../service/delivery.ts";

export interface Chosen {
  details: AssetDetails;
  /** The files to write: the selection without those behind a login. */
  files: AssetFile[];
}

export interface AssetLibrary {
  /** The asset's details and its deliverable selection; an ApiError as the HTTP API would answer. */
  choose(id: string, params: FileParams, signal?: AbortSignal): Promise<Chosen>;
  /** The client the bytes are fetched with. */
  http: HttpClient;
  /** Cap on the bytes of one asset (DOWNLOAD_MAX_BYTES). */
  maxBytes: number;
}

/** The files of a delivery, or the error `/download` answers (409 with the site's page, 404 nothing matches, 413 over the cap). */
function deliverable(delivery: Delivery): AssetFile[] {
  if (delivery.kind === "page" || delivery.kind === "none" || delivery.kind === "too-large") throw delivery.error;
  return delivery.files;
}

/** The library in process: the same calls as `/v1/assets/{id}/download`. */
export function localLibrary(deps: AppDeps, baseUrl: string): AssetLibrary {
  return {
    http: deps.runtime.http,
    maxBytes: deps.runtime.config.downloadMaxBytes,
    async choose(id, params, signal) {
      const { details, delivery } = await decideDelivery(parseAssetId(id, deps), params, deps, { baseUrl, ...(signal ? { signal } : {}) });
      return { details, files: deliverable(delivery) };
    },
  };
}

/** The `/files` query of `params`, only what was asked (the server applies the same defaults). */
function fileQuery(params: FileParams): string {
  const query = new URLSearchParams();
  if (params.format) query.set("format", params.format);
  if (params.resolution) query.set("resolution", params.resolution);
  if (params.maps?.length) query.set("maps", params.maps.join(","));
  if (params.all !== undefined) query.set("all", String(params.all));
  const qs = query.toString();
  return qs ? `?${qs}` : "";
}

/**
 * A running server's API. It is no upstream site, so it is asked with plain `fetch`: the client
 * of core/http refuses loopback and private addresses, where a project's own server usually runs.
 */
export function remoteLibrary(baseUrl: string, apiKey: string | undefined, http: HttpClient, maxBytes: number): AssetLibrary {
  const headers: Record<string, string> = { accept: "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
  const getJson = async (path: string, signal?: AbortSignal): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, { headers, ...(signal ? { signal } : {}) });
    } catch (err) {
      throw new ApiError(502, `the server at ${baseUrl} did not answer: ${(err as Error).message}`);
    }
    const body: unknown = await res.json().catch(() => undefined);
    if (!res.ok) {
      const error = ErrorBody.safeParse(body);
      throw new ApiError(res.status, error.success ? error.data.error : `the server at ${baseUrl} answered ${res.status}`, error.success ? error.data : {});
    }
    return body;
  };
  let providers: Promise<z.infer<typeof ProvidersResponse>> | undefined;
  return {
    http,
    maxBytes,
    async choose(id, params, signal) {
      const path = `/v1/assets/${encodeURIComponent(id)}`;
      providers ??= getJson("/v1/providers", signal).then((b) => ProvidersResponse.parse(b));
      const [details, selection, { providers: list }] = await Promise.all([
        getJson(path, signal).then((b) => AssetDetails.parse(b)),
        getJson(`${path}/files${fileQuery(params)}`, signal).then((b) => FileSelection.parse(b)),
        providers,
      ]);
      const provider = list.find((p) => p.id === details.provider);
      const source = { name: provider?.name ?? details.provider, supportsDownload: provider?.supportsDownload ?? false };
      return { details, files: deliverable(deliveryOf(source, details, selection.files, maxBytes)) };
    },
  };
}
