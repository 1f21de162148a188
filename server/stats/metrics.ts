/**
 * Prometheus metrics, also the only store of the usage counts (server/stats/usage.ts reads them back
 * for /v1/stats): prom-client on a PRIVATE registry (never the global one, so nothing a library
 * registers leaks in and two apps in one process do not collide), with bounded labels only: route
 * templates (never raw paths), source ids from the registry, surfaces, client families, MCP tool
 * names (capped), asset types and outcomes. No label ever holds query text, an address or a user agent.
 *
 * `/metrics` is served by `startMetricsServer` on its own port (METRICS_PORT), never by the public
 * app, so it cannot become public by accident.
 *
 * Every bounded series is created at 0 up front: Prometheus's `increase()` cannot see the first
 * increment of a series that appears with a value above 0, and the stats windows are read with it.
 */
import { createServer, type Server } from "node:http";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { ASSET_TYPES } from "../../core/schemas/index.ts";
import { type Logger, noLog } from "../log.ts";
import { CLIENT_FAMILIES } from "./client-family.ts";

export const SURFACES = ["web", "api", "mcp"] as const;
export type Surface = (typeof SURFACES)[number];

/** Outcomes of a request that reached a source (a ProviderReport status of a live source). */
export const SOURCE_OUTCOMES = ["ok", "error", "timeout"] as const;
export type SourceOutcome = (typeof SOURCE_OUTCOMES)[number];

/**
 * Why a streamed zip was cut short after its `200`. `client_gone` is the client leaving (not a
 * failure of ours, counted apart so it can be left out); `other` is anything unexpected.
 */
export const DOWNLOAD_FAILURE_REASONS = ["upstream_http", "upstream_network", "timeout", "blocked", "size_cap", "client_gone", "other"] as const;
export type DownloadFailureReason = (typeof DOWNLOAD_FAILURE_REASONS)[number];

/** How a thumbnail request was answered: resized now, from the memory of resized ones, or with the placeholder. */
export const THUMBNAIL_OUTCOMES = ["resized", "cached", "placeholder"] as const;
export type ThumbnailOutcome = (typeof THUMBNAIL_OUTCOMES)[number];

/** The contract's MCP tools, created at 0; other tool names are counted too, up to MAX_TOOLS. */
export const KNOWN_TOOLS = ["search_assets", "get_asset", "list_providers"] as const;
export const MAX_TOOLS = 24;

/** Seconds; the per-source timeout is 6 s and the search deadline 8 s by default. */
export const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8, 10];

/** Metric names, shared with the Prometheus reader (server/stats/prometheus.ts). */
export const METRIC = {
  searches: "asset_search_searches_total",
  searchTypes: "asset_search_search_type_filters_total",
  assetViews: "asset_search_asset_views_total",
  downloads: "asset_search_downloads_total",
  downloadFailures: "asset_search_download_failures_total",
  previews: "asset_search_previews_total",
  thumbnails: "asset_search_thumbnails_total",
  pageViews: "asset_search_page_views_total",
  toolCalls: "asset_search_mcp_tool_calls_total",
  sourceRequests: "asset_search_source_requests_total",
  sourceLatency: "asset_search_source_latency_seconds",
  httpRequests: "asset_search_http_requests_total",
  httpDuration: "asset_search_http_request_duration_seconds",
} as const;

/** Route templates for the HTTP metrics; anything else is `other` (a 404 never mints a label). */
export function routeTemplate(pathname: string): string {
  switch (pathname) {
    case "/":
    case "/health":
    case "/openapi.json":
    case "/v1/search":
    case "/v1/providers":
    case "/v1/catalog":
    case "/v1/stats":
    case "/catalog.json":
    case "/catalog-history.json":
    case "/mcp":
      return pathname;
  }
  if (pathname.startsWith("/v1/assets/") && pathname.length > "/v1/assets/".length) {
    // In the order server/app.ts tells these routes apart.
    if (pathname.endsWith("/files")) return "/v1/assets/{id}/files";
    if (pathname.endsWith("/download")) return "/v1/assets/{id}/download";
    if (pathname.endsWith("/thumbnail")) return "/v1/assets/{id}/thumbnail";
    if (pathname.includes("/raw/")) return "/v1/assets/{id}/raw/{path}";
    return "/v1/assets/{id}";
  }
  return "other";
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const methodLabel = (method: string): string => (METHODS.has(method) ? method : "other");
const statusLabel = (status: number): string => (Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : "other");

export interface MetricsOptions {
  /** Live sources whose series are created at 0 (requests that reach a source come only from live ones). */
  sources?: readonly string[];
  /** Sources with downloads, whose download-failure series are created at 0. */
  downloadSources?: readonly string[];
  /** Also the process metrics of prom-client (CPU, memory, event loop lag); on in the server. */
  defaultMetrics?: boolean;
}

export class Metrics {
  /** Private: the global registry is never used. */
  readonly registry = new Registry();
  readonly searches: Counter<"surface" | "client" | "results">;
  readonly searchTypes: Counter<"type">;
  readonly assetViews: Counter;
  readonly downloads: Counter;
  readonly downloadFailures: Counter<"provider" | "reason">;
  readonly previews: Counter;
  readonly thumbnails: Counter<"outcome">;
  readonly pageViews: Counter;
  readonly toolCalls: Counter<"tool">;
  readonly sourceRequests: Counter<"source" | "outcome">;
  readonly sourceLatency: Histogram<"source">;
  readonly httpRequests: Counter<"route" | "method" | "status">;
  readonly httpDuration: Histogram<"route">;
  private readonly sourcesSeen = new Set<string>();
  private readonly downloadSourcesSeen = new Set<string>();

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    const counter = <L extends string>(name: string, help: string, labelNames: L[] = []) => new Counter<L>({ name, help, labelNames, registers });
    const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
      new Histogram<L>({ name, help, labelNames, buckets, registers });
    this.searches = counter(METRIC.searches, "Searches answered, by surface (web, api, mcp), client family and whether they had results (yes, no).", [
      "surface",
      "client",
      "results",
    ]);
    this.searchTypes = counter(METRIC.searchTypes, "Searches by asset-type filter (one per type asked; `any` when none).", ["type"]);
    this.assetViews = counter(METRIC.assetViews, "Asset details served (GET /v1/assets/{id}).");
    this.downloads = counter(METRIC.downloads, "Downloads started (GET /v1/assets/{id}/download: redirect or zip).");
    this.downloadFailures = counter(
      METRIC.downloadFailures,
      "Zip downloads cut short after the 200, by source id and reason (upstream_http, upstream_network, timeout, blocked, " +
        "size_cap, other; client_gone is the client leaving, not a failure).",
      ["provider", "reason"],
    );
    this.previews = counter(METRIC.previews, "Files served for a preview (GET /v1/assets/{id}/raw/{path}); not downloads.");
    this.thumbnails = counter(METRIC.thumbnails, "Thumbnails answered (GET /v1/assets/{id}/thumbnail), by outcome (resized, cached, placeholder).", [
      "outcome",
    ]);
    this.pageViews = counter(METRIC.pageViews, "Website pages served (GET /).");
    this.toolCalls = counter(METRIC.toolCalls, "MCP tool calls, by tool.", ["tool"]);
    this.sourceRequests = counter(METRIC.sourceRequests, "Searches that reached a live source, by source id and outcome (ok, error, timeout).", [
      "source",
      "outcome",
    ]);
    this.sourceLatency = histogram(
      METRIC.sourceLatency,
      "Time a live source took to answer a search (every outcome; a timeout counts as the time waited), seconds.",
      ["source"],
      LATENCY_BUCKETS,
    );
    this.httpRequests = counter(METRIC.httpRequests, "HTTP requests of the public app, by route template, method and status.", ["route", "method", "status"]);
    this.httpDuration = histogram(
      METRIC.httpDuration,
      "Time to the response headers of the public app, by route template, seconds.",
      ["route"],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    );
    for (const surface of SURFACES)
      for (const client of CLIENT_FAMILIES) for (const results of ["yes", "no"]) this.searches.inc({ surface, client, results }, 0);
    for (const type of ["any", ...ASSET_TYPES]) this.searchTypes.inc({ type }, 0);
    for (const tool of KNOWN_TOOLS) this.toolCalls.inc({ tool }, 0);
    for (const outcome of THUMBNAIL_OUTCOMES) this.thumbnails.inc({ outcome }, 0);
    for (const source of options.sources ?? []) this.initSource(source);
    for (const source of options.downloadSources ?? []) this.initDownloadSource(source);
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: "asset_search_" });
  }

  /** Creates a source's series at 0 (once). */
  initSource(source: string): void {
    if (this.sourcesSeen.has(source)) return;
    this.sourcesSeen.add(source);
    for (const outcome of SOURCE_OUTCOMES) this.sourceRequests.inc({ source, outcome }, 0);
    this.sourceLatency.zero({ source });
  }

  /** Creates a source's download-failure series at 0 (once). */
  initDownloadSource(provider: string): void {
    if (this.downloadSourcesSeen.has(provider)) return;
    this.downloadSourcesSeen.add(provider);
    for (const reason of DOWNLOAD_FAILURE_REASONS) this.downloadFailures.inc({ provider, reason }, 0);
  }

  /** One zip cut short; `provider` is a registered source id (the asset's), so the label stays bounded. */
  downloadFailure(provider: string, reason: DownloadFailureReason): void {
    this.initDownloadSource(provider);
    this.downloadFailures.inc({ provider, reason });
  }

  /** One request of the public app (called by the app's middleware). */
  httpRequest(pathname: string, method: string, status: number, seconds: number): void {
    const route = routeTemplate(pathname);
    this.httpRequests.inc({ route, method: methodLabel(method), status: statusLabel(status) });
    this.httpDuration.observe({ route }, seconds);
  }

  /** The Prometheus text exposition of the private registry. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A tiny node:http listener for `GET /metrics` on its own port (METRICS_PORT); nothing else is
 * served there. Port 0 picks a free port (tests); `port` is the one bound.
 */
export async function startMetricsServer(metrics: Metrics, options: { port: number; host?: string; log?: Logger }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(path === "/metrics" ? 405 : 404, { "content-type": "text/plain; charset=utf-8" }).end("GET /metrics only\n");
      return;
    }
    metrics.text().then(
      (body) => {
        res.writeHead(200, { "content-type": metrics.contentType, "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      (err: unknown) => {
        (options.log ?? noLog).error({ event: "error", err }, "metrics: could not collect");
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("could not collect metrics\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
