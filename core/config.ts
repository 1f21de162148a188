/**
 * Every environment variable the service reads, in one place, with its default and why.
 * The README's configuration table is checked against `CONFIG_VARS` by a test.
 */
export interface ConfigVar {
  name: string;
  default: string;
  why: string;
}

/** A shorter poll would only ask the CDN again for a meta file it caches for minutes anyway. */
export const MIN_DATA_POLL_SECONDS = 10;

export const CONFIG_VARS: readonly ConfigVar[] = [
  { name: "PORT", default: "8787", why: "HTTP port of the server" },
  { name: "HOST", default: "0.0.0.0", why: "interface the server listens on" },
  { name: "DATA_DIR", default: "data", why: "folder of the published catalog and index (the embedded default)" },
  {
    name: "DATA_URL",
    default: "",
    why: "base URL of a publication (it serves /v1/index.meta.json and the files it lists): loaded at start and followed instead of DATA_DIR; unset = DATA_DIR",
  },
  {
    name: "DATA_CACHE_DIR",
    default: "",
    why: "folder DATA_URL's index file is downloaded to, to be read in place (about 1.6 GB for a million assets); unset = the system's temporary folder",
  },
  {
    name: "DATA_POLL_SECONDS",
    default: "300",
    why: `how often the server checks DATA_URL (or DATA_DIR's current.json) for a new publication; 0 = never, else at least ${MIN_DATA_POLL_SECONDS}`,
  },
  { name: "ASSET_SERVER_API_KEY", default: "", why: "when set, /v1/* and /mcp require this key (self-hosted)" },
  {
    name: "ASSET_SERVER_PUBLIC_URL",
    default: "",
    why: "absolute base URL used in share and download links; else the request's Host, when ALLOWED_HOSTS allows it",
  },
  {
    name: "ALLOWED_HOSTS",
    default: "",
    why: "comma-separated host names this server answers for (any other Host gets 421); unset = loopback names, the listening address and the public URL's host; * = any",
  },
  { name: "ASSET_SERVER_REPLAY", default: "", why: "folder of recorded responses: answer every upstream request from them, offline" },
  { name: "RATE_LIMIT_PER_MINUTE", default: "120", why: "requests per minute per client on /v1/* and /mcp; 0 turns the limit off" },
  {
    name: "REDIS_URL",
    default: "",
    why: "keep the rate limit, the upstream response cache and the circuit breakers' state in this Redis, shared by every replica; unset = in memory, per replica",
  },
  {
    name: "REDIS_REQUIRED",
    default: "false",
    why: "true = GET /ready answers 503 while REDIS_URL's connection is down; false = a replica without Redis stays ready and works alone (its own rate limit, cache and breakers)",
  },
  {
    name: "TRUST_PROXY",
    default: "false",
    why: "number of proxies you run in front of the server (true = 1): the client is the X-Forwarded-For entry that many hops from the right",
  },
  { name: "SERVER_HEADERS_TIMEOUT_MS", default: "10000", why: "time a client has to send a request's headers (slow-header clients are cut, 408)" },
  {
    name: "SERVER_REQUEST_TIMEOUT_MS",
    default: "30000",
    why: "time a client has to send a whole request, body included (not the response, so long downloads go on)",
  },
  { name: "SHUTDOWN_GRACE_MS", default: "30000", why: "on SIGTERM/SIGINT, how long requests in flight (downloads included) may finish before they are cut" },
  { name: "DOWNLOAD_MAX_BYTES", default: "2147483648", why: "cap on the total size of one zip download (2 GiB)" },
  {
    name: "PREVIEW_MAX_BYTES",
    default: "67108864",
    why: "cap on one file served for a preview (GET /v1/assets/{id}/raw/{path}, 64 MiB): a known larger size is a 413, a longer stream is cut",
  },
  {
    name: "USER_AGENT",
    default: "asset-search/0.1 (+https://github.com/asset-search/asset-search)",
    why: "names the project to upstream sites; Poly Haven requires a descriptive one",
  },
  { name: "HTTP_CACHE_TTL_MS", default: "300000", why: "how long upstream responses are cached (5 minutes)" },
  { name: "HTTP_CACHE_MAX_ENTRIES", default: "500", why: "bound on cached upstream responses" },
  {
    name: "HTTP_CACHE_SHARED_MAX_BYTES",
    default: "67108864",
    why: "with REDIS_URL, bound on the upstream responses the replicas share in Redis (64 MiB; the oldest go first, one over 1 MiB stays in its replica); 0 = not shared",
  },
  { name: "HTTP_CONNECT_TIMEOUT_MS", default: "5000", why: "upstream TCP/TLS connect timeout" },
  { name: "HTTP_HEADERS_TIMEOUT_MS", default: "15000", why: "upstream time to response headers" },
  { name: "HTTP_BODY_TIMEOUT_MS", default: "30000", why: "upstream idle time between body chunks (not a total limit, so large downloads go on)" },
  { name: "HTTP_RETRIES", default: "2", why: "retries of idempotent GETs on 429/502/503/504 and resets" },
  { name: "SOURCE_TIMEOUT_MS", default: "6000", why: "per-source timeout of a live search" },
  { name: "SEARCH_DEADLINE_MS", default: "8000", why: "overall deadline of one search" },
  {
    name: "DETAILS_DEADLINE_MS",
    default: "20000",
    why: "deadline of one asset's details from its source, wherever they are asked (asset, files, download, credits, MCP): past it, a 504",
  },
  { name: "SEARCH_CONCURRENCY", default: "8", why: "live sources asked at once by one search" },
  {
    name: "LOG_LEVEL",
    default: "info",
    why: "least severe log line written to stderr: fatal, error, warn, info (one line per request), debug, trace, or silent for none",
  },
  { name: "METRICS_PORT", default: "", why: "port of the separate Prometheus /metrics listener; unset = no listener" },
  { name: "PROMETHEUS_URL", default: "", why: "read usage windows from this Prometheus; unset = count in process" },
  {
    name: "ASSET_SEARCH_URL",
    default: "",
    why: "the command line's get asks this running server for an asset's details and selection; unset = the library in process",
  },
  { name: "ASSET_SEARCH_API_KEY", default: "", why: "the key the command line sends to ASSET_SEARCH_URL, when that server requires one" },
  { name: "SKETCHFAB_API_TOKEN", default: "", why: "optional Sketchfab token" },
  { name: "BLENDERKIT_API_KEY", default: "", why: "optional BlenderKit key (paid assets of the key's plan)" },
  { name: "GOOGLE_FONTS_API_KEY", default: "", why: "Google Fonts Developer API key; without it the source is skipped" },
  { name: "FREESOUND_API_KEY", default: "", why: "Freesound API key; without it the source is skipped" },
  { name: "JAMENDO_CLIENT_ID", default: "", why: "Jamendo API client id; without it the source is skipped" },
  { name: "THINGIVERSE_TOKEN", default: "", why: "Thingiverse app token; without it the source is skipped" },
];

export type Env = Record<string, string | undefined>;

/**
 * A configuration or start-up error the person starting the service can fix: its message names
 * the variable, its value and the fix, and the server prints it as one line without a stack.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
}

const read = (env: Env, name: string): string => {
  const v = env[name];
  if (v !== undefined && v !== "") return v;
  return CONFIG_VARS.find((c) => c.name === name)?.default ?? "";
};

const int = (env: Env, name: string): number => {
  const raw = read(env, name);
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || raw.trim() === "") {
    const fallback = CONFIG_VARS.find((c) => c.name === name)?.default;
    throw new ConfigError(`${name} must be a non-negative number, got '${raw}': set a whole number${fallback ? ` (unset = ${fallback})` : ""}`);
  }
  return Math.floor(n);
};

/** A TCP port to listen on (0 = any free one). */
function port(env: Env, name: string): number {
  const raw = read(env, name);
  if (!/^\d{1,5}$/.test(raw.trim()) || Number(raw) > 65535) {
    throw new ConfigError(`${name} must be a port number from 0 to 65535, got '${raw}': set ${name} to a free port, such as 8787`);
  }
  return Number(raw);
}

/** TRUST_PROXY as a hop count, as Express's `trust proxy` reads it: true = 1, false = 0, or a number. */
function proxyHops(raw: string): number {
  const value = raw.trim().toLowerCase();
  if (["", "false", "no"].includes(value)) return 0;
  if (["true", "yes"].includes(value)) return 1;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  throw new ConfigError(
    `TRUST_PROXY must be true, false or a number of proxy hops, got '${raw}': set how many proxies of yours forward to the server (0 when none)`,
  );
}

/**
 * The base URL of a publication (DATA_URL, PREVIOUS_URL) without its trailing slash (undefined
 * when unset), or an error naming the variable `name`. Its readers add `/v<format>/<file>`
 * (server/data/url-source.ts, pipeline/previous.ts), so a URL ending in that folder, or with a
 * query or fragment, is refused.
 */
export function publicationBase(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got '${raw}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`${name} must be an absolute http(s) URL, got '${raw}'`);
  if (url.search || url.hash) throw new ConfigError(`${name} must have no query or fragment, got '${raw}'`);
  const base = url.href.replace(/\/+$/, "");
  if (/\/v\d+$/.test(base)) throw new ConfigError(`${name} is the base of a publication, without its /v<format> folder, got '${raw}'`);
  return base;
}

/** A yes/no variable: true or false (yes/no and 1/0 too), else an error naming it. */
function flag(env: Env, name: string): boolean {
  const raw = read(env, name);
  const value = raw.trim().toLowerCase();
  if (["true", "yes", "1"].includes(value)) return true;
  if (["false", "no", "0"].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, got '${raw}': set ${name}=true or ${name}=false`);
}

/** Requiring Redis needs one: with REDIS_URL the breakers' state is always kept there, whatever the rate limit and the cache. */
function redisRequired(env: Env): boolean {
  const required = flag(env, "REDIS_REQUIRED");
  if (required && !read(env, "REDIS_URL")) throw new ConfigError("REDIS_REQUIRED is 'true' but REDIS_URL is unset: set REDIS_URL, or REDIS_REQUIRED=false");
  return required;
}

function dataPollSeconds(env: Env): number {
  const seconds = int(env, "DATA_POLL_SECONDS");
  if (seconds !== 0 && seconds < MIN_DATA_POLL_SECONDS) {
    throw new ConfigError(`DATA_POLL_SECONDS must be 0 (never) or at least ${MIN_DATA_POLL_SECONDS}, got '${read(env, "DATA_POLL_SECONDS")}'`);
  }
  return seconds;
}

/** The levels of the server's logger (server/log.ts), most severe first; `silent` writes nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function logLevel(env: Env): LogLevel {
  const raw = read(env, "LOG_LEVEL");
  const level = LOG_LEVELS.find((l) => l === raw.trim().toLowerCase());
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got '${raw}': set one of them (unset = info)`);
  return level;
}

/** Node refuses a headers timeout longer than the request timeout; say so in the variables' names. */
function serverTimeouts(env: Env): { serverHeadersTimeoutMs: number; serverRequestTimeoutMs: number } {
  const serverHeadersTimeoutMs = int(env, "SERVER_HEADERS_TIMEOUT_MS");
  const serverRequestTimeoutMs = int(env, "SERVER_REQUEST_TIMEOUT_MS");
  if (serverRequestTimeoutMs > 0 && serverHeadersTimeoutMs > serverRequestTimeoutMs) {
    throw new ConfigError(`SERVER_HEADERS_TIMEOUT_MS (${serverHeadersTimeoutMs}) must not exceed SERVER_REQUEST_TIMEOUT_MS (${serverRequestTimeoutMs})`);
  }
  return { serverHeadersTimeoutMs, serverRequestTimeoutMs };
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Base URL of the publication the server follows (no trailing slash); undefined = DATA_DIR. */
  dataUrl: string | undefined;
  /** Where DATA_URL's index file is downloaded; undefined = the system's temporary folder. */
  dataCacheDir: string | undefined;
  /** Seconds between checks for a new publication; 0 = never. */
  dataPollSeconds: number;
  apiKey: string | undefined;
  publicUrl: string | undefined;
  replayDir: string | undefined;
  rateLimitPerMinute: number;
  redisUrl: string | undefined;
  /** /ready is 503 while Redis is down. */
  redisRequired: boolean;
  /** Proxies of ours in front of the server: 0 = the socket address is the client. */
  trustProxyHops: number;
  /** Host names requests may carry (lowercase); undefined = the defaults of server/middleware/host.ts; `*` in the list = any. */
  allowedHosts: string[] | undefined;
  serverHeadersTimeoutMs: number;
  serverRequestTimeoutMs: number;
  shutdownGraceMs: number;
  downloadMaxBytes: number;
  previewMaxBytes: number;
  userAgent: string;
  cacheTtlMs: number;
  cacheMaxEntries: number;
  /** Bytes of upstream responses kept in Redis for every replica (REDIS_URL); 0 = not shared. */
  cacheSharedMaxBytes: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  retries: number;
  sourceTimeoutMs: number;
  searchDeadlineMs: number;
  detailsDeadlineMs: number;
  searchConcurrency: number;
  logLevel: LogLevel;
  metricsPort: number | undefined;
  prometheusUrl: string | undefined;
  /** A running server the command line's `get` asks instead of the library in process (no trailing slash). */
  serverUrl: string | undefined;
  serverApiKey: string | undefined;
  /** Source keys by environment variable name; a source names its own. */
  keys: Env;
}

export function loadConfig(env: Env = process.env): Config {
  const opt = (name: string) => read(env, name) || undefined;
  return {
    port: port(env, "PORT"),
    host: read(env, "HOST"),
    dataDir: read(env, "DATA_DIR"),
    dataUrl: publicationBase("DATA_URL", opt("DATA_URL")),
    dataCacheDir: opt("DATA_CACHE_DIR"),
    dataPollSeconds: dataPollSeconds(env),
    apiKey: opt("ASSET_SERVER_API_KEY"),
    publicUrl: opt("ASSET_SERVER_PUBLIC_URL")?.replace(/\/+$/, ""),
    replayDir: opt("ASSET_SERVER_REPLAY"),
    rateLimitPerMinute: int(env, "RATE_LIMIT_PER_MINUTE"),
    redisUrl: opt("REDIS_URL"),
    redisRequired: redisRequired(env),
    trustProxyHops: proxyHops(read(env, "TRUST_PROXY")),
    allowedHosts: opt("ALLOWED_HOSTS")
      ?.split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    ...serverTimeouts(env),
    shutdownGraceMs: int(env, "SHUTDOWN_GRACE_MS"),
    downloadMaxBytes: int(env, "DOWNLOAD_MAX_BYTES"),
    previewMaxBytes: int(env, "PREVIEW_MAX_BYTES"),
    userAgent: read(env, "USER_AGENT"),
    cacheTtlMs: int(env, "HTTP_CACHE_TTL_MS"),
    cacheMaxEntries: int(env, "HTTP_CACHE_MAX_ENTRIES"),
    cacheSharedMaxBytes: int(env, "HTTP_CACHE_SHARED_MAX_BYTES"),
    connectTimeoutMs: int(env, "HTTP_CONNECT_TIMEOUT_MS"),
    headersTimeoutMs: int(env, "HTTP_HEADERS_TIMEOUT_MS"),
    bodyTimeoutMs: int(env, "HTTP_BODY_TIMEOUT_MS"),
    retries: int(env, "HTTP_RETRIES"),
    sourceTimeoutMs: int(env, "SOURCE_TIMEOUT_MS"),
    searchDeadlineMs: int(env, "SEARCH_DEADLINE_MS"),
    detailsDeadlineMs: int(env, "DETAILS_DEADLINE_MS"),
    searchConcurrency: Math.max(1, int(env, "SEARCH_CONCURRENCY")),
    logLevel: logLevel(env),
    metricsPort: opt("METRICS_PORT") ? port(env, "METRICS_PORT") : undefined,
    prometheusUrl: opt("PROMETHEUS_URL")?.replace(/\/+$/, ""),
    serverUrl: opt("ASSET_SEARCH_URL")?.replace(/\/+$/, ""),
    serverApiKey: opt("ASSET_SEARCH_API_KEY"),
    keys: env,
  };
}
