import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "./helpers/app.ts";
import { scratchDirs } from "./helpers/scratch.ts";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const bin = (pkg: string, file: string) => join(require.resolve(`${pkg}/package.json`), "..", file);
const PUBLIC_URL = "https://assets.asset-search.dev";
// Neither linter may reach the network: no telemetry, no update check.
const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

const scratch = scratchDirs("openapi-lint-", afterAll);
let dir = "";

beforeAll(async () => {
  const { get } = await testApp({ env: { ASSET_SERVER_PUBLIC_URL: PUBLIC_URL } });
  const response = await get("/openapi.json", { headers: { host: "assets.asset-search.dev" } });
  expect(response.status).toBe(200);
  dir = scratch();
  writeFileSync(join(dir, "openapi.json"), await response.text());
  writeFileSync(join(dir, ".spectral.json"), JSON.stringify({ extends: ["spectral:oas"] }));
}, 60_000);

describe("/openapi.json as the linters see it", () => {
  it("has no finding of Redocly's recommended rules", async () => {
    const args = [bin("@redocly/cli", "bin/cli.js"), "lint", "--extends", "recommended", "--format", "json", "openapi.json"];
    const { stdout } = await run(process.execPath, args, { cwd: dir, env }).catch((err) => err);
    const { totals, problems } = JSON.parse(stdout) as { totals: Record<string, number>; problems: { ruleId: string; message: string }[] };
    expect(problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("has no finding of Spectral's spectral:oas ruleset, of any severity", async () => {
    // To a file: piped, its exit can cut its standard output short.
    const args = [
      bin("@stoplight/spectral-cli", "dist/index.js"),
      "lint",
      "--ruleset",
      ".spectral.json",
      "--format",
      "json",
      "--output",
      "findings.json",
      "openapi.json",
    ];
    await run(process.execPath, args, { cwd: dir, env }).catch((err) => err);
    const findings = JSON.parse(readFileSync(join(dir, "findings.json"), "utf8")) as { code: string; message: string; path: string[] }[];
    expect(findings.map((f) => `${f.code} at ${f.path.join("/")}: ${f.message}`)).toEqual([]);
  });

  it("names the public URL as its server, and a contact and licence", async () => {
    const { get } = await testApp({ env: { ASSET_SERVER_PUBLIC_URL: `${PUBLIC_URL}/` } });
    const doc = (await (await get("/openapi.json", { headers: { host: "assets.asset-search.dev" } })).json()) as Record<string, any>;
    expect(doc.servers).toEqual([{ url: PUBLIC_URL }]);
    expect(doc.info.contact).toEqual({ name: "asset-search", url: "https://github.com/asset-search/asset-search" });
    expect(doc.info.license).toEqual({ name: "MIT", identifier: "MIT" });
  });

  it("without a public URL, names the origin asked", async () => {
    const { get } = await testApp();
    const doc = (await (await get("/openapi.json")).json()) as Record<string, any>;
    expect(doc.servers).toEqual([{ url: "http://localhost" }]);
  });
});
