/**
 * The files for agents and crawlers: `/llms.txt` and `/AGENTS.md` are text naming `/v1/search`
 * and `/mcp`, and every link they hold answers 200; `/robots.txt` points at `/sitemap.xml`, which
 * lists the pages and every source's page, each answering 200; all are written for the public URL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CONFIG_VARS } from "../core/config.ts";
import { SOURCES } from "../sources/index.ts";
import { testApp } from "./helpers/app.ts";

const BASE = "https://assets.asset-search.dev";
let get: Awaited<ReturnType<typeof testApp>>["get"];

beforeAll(async () => {
  ({ get } = await testApp({ env: { ASSET_SERVER_PUBLIC_URL: BASE } }));
}, 60_000);

/** Every absolute URL in a text (Markdown links included), without the punctuation after it. */
const links = (text: string) => [...text.matchAll(/https?:\/\/[^\s)`<>"]+/g)].map(([url]) => url.replace(/[.,;:]$/, ""));
const ask = (url: string) => get(url.slice(BASE.length) || "/", { headers: { host: "assets.asset-search.dev" } });

async function text(path: string, type: string): Promise<string> {
  const response = await ask(`${BASE}${path}`);
  expect(response.status, path).toBe(200);
  expect(response.headers.get("content-type"), path).toBe(type);
  return response.text();
}

async function expectLinksAnswer(body: string): Promise<string[]> {
  const found = links(body);
  expect(found.filter((url) => url !== BASE && !url.startsWith(`${BASE}/`))).toEqual([]);
  for (const url of found) expect((await ask(url)).status, url).toBe(200);
  return found;
}

describe("/llms.txt", () => {
  it("is text naming /v1/search and /mcp, whose every link answers 200, the guides as Markdown", async () => {
    const body = await text("/llms.txt", "text/plain; charset=utf-8");
    expect(body.startsWith("# asset-search\n\n> ")).toBe(true);
    expect(body).toContain("/v1/search");
    expect(body).toContain("/mcp");
    const found = await expectLinksAnswer(body);
    expect(found).toEqual(
      expect.arrayContaining([`${BASE}/AGENTS.md`, `${BASE}/openapi.json`, ...["mcp", "cli", "self-hosting", "census"].map((g) => `${BASE}/docs/${g}.md`)]),
    );
  });
});

describe("/AGENTS.md", () => {
  it("is Markdown naming /v1/search, /mcp, the rate limit and the licence rules, whose every link answers 200", async () => {
    const body = await text("/AGENTS.md", "text/markdown; charset=utf-8");
    expect(body).toContain(`GET ${BASE}/v1/search?q=`);
    expect(body).toContain("`POST /mcp`");
    expect(body).toContain("## Rate limit");
    expect(body).toContain("## Licence rules");
    // The test app turns the limit off (RATE_LIMIT_PER_MINUTE=0), and the file says so.
    expect(body).toContain("no rate limit on this server");
    await expectLinksAnswer(body);
  });

  it("states the configured rate limit", async () => {
    const app = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "90" } });
    expect(await (await app.get("/AGENTS.md")).text()).toContain("90 requests per minute per client on `/v1/*` and `/mcp`");
  });
});

describe("the guides as Markdown", () => {
  it("write the public URL into their examples", async () => {
    const body = await text("/docs/mcp.md", "text/markdown; charset=utf-8");
    expect(body).toContain(`claude mcp add --transport http asset-search ${BASE}/mcp`);
    expect(body).not.toContain("{{base}}");
  });

  it("self-hosting's configuration table is core/config.ts's variables, in order", async () => {
    const body = await text("/docs/self-hosting.md", "text/markdown; charset=utf-8");
    const rows = [...body.matchAll(/^\| `([A-Z_0-9]+)` \|/gm)].map(([, name]) => name);
    expect(rows).toEqual(CONFIG_VARS.map((v) => v.name));
    expect(body).not.toContain("<!-- configuration -->");
  });

  it("each docs page says what it is before its script runs: title, description, canonical and Open Graph", async () => {
    const html = await text("/docs/cli", "text/html; charset=utf-8");
    expect(html).toContain("<title>Command line · asset-search docs</title>");
    expect(html).toContain('<meta name="description" content="The asset-search command line: search every source from a terminal,');
    expect(html).toContain(`<link rel="canonical" href="${BASE}/docs/cli">`);
    expect(html).toContain('<meta property="og:title" content="Command line · asset-search docs">');
    expect(html).toContain(`<meta property="og:url" content="${BASE}/docs/cli">`);
    expect(await text("/docs", "text/html; charset=utf-8")).toContain("<title>API reference · asset-search docs</title>");
  });

  it("an unknown guide is a 404", async () => {
    expect((await ask(`${BASE}/docs/nothing.md`)).status).toBe(404);
  });
});

describe("/robots.txt and /sitemap.xml", () => {
  it("robots.txt allows the pages, keeps crawlers off the API but its thumbnails, and names the sitemap", async () => {
    const body = await text("/robots.txt", "text/plain; charset=utf-8");
    expect(body).toBe(
      ["User-agent: *", "Allow: /", "Disallow: /v1/", "Allow: /v1/assets/*/thumbnail", "Disallow: /mcp", "", `Sitemap: ${BASE}/sitemap.xml`, ""].join("\n"),
    );
  });

  it("sitemap.xml lists the pages and every source's page, each answering 200", async () => {
    const body = await text("/sitemap.xml", "application/xml; charset=utf-8");
    expect(body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    const locs = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => loc!);
    const pages = ["/", "/sources", "/stats", "/docs", "/docs/mcp", "/docs/cli", "/docs/self-hosting", "/docs/census"];
    const sources = SOURCES.map((s) => `/sources/${encodeURIComponent(s.id)}`);
    expect(locs.sort()).toEqual([...pages, ...sources].map((p) => `${BASE}${p}`).sort());
    for (const loc of locs) expect((await ask(loc)).status, loc).toBe(200);
  }, 60_000);
});
