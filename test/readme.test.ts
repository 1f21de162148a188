import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_VARS } from "../core/config.ts";
import { withSourcesTable } from "../pipeline/readme-sources.ts";
import { ROUTES } from "../server/routes/table.ts";
import { SOURCES } from "../sources/index.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/**
 * The endpoints of the README's table under "## Endpoints", as `METHOD /path`: every backticked
 * item of its first column, a bare path taking the method before it (`GET /v1/catalog`, `/catalog.json`).
 */
function readmeEndpoints(): string[] {
  const rows = /## Endpoints\n\n\| endpoint \| what \|\n\|---\|---\|\n((?:\|.*\n)+)/.exec(readme)?.[1] ?? "";
  return rows
    .trim()
    .split("\n")
    .flatMap((row) => {
      let method = "";
      return [...row.slice(2, row.indexOf(" | ")).matchAll(/`([^`]+)`/g)].map(([, item = ""]) => {
        const [, ownMethod, path] = /^(?:([A-Z]+) )?(\/\S*)$/.exec(item) ?? [];
        method = ownMethod ?? method;
        return path === undefined ? item : `${method} ${path}`;
      });
    });
}

describe("README", () => {
  it("opens with the install-and-start command and the test command that .ci/run runs", () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(firstBlock).toContain("npm ci && npm start");
    expect(firstBlock).toContain("npm test");
    expect(readFileSync(new URL("../.ci/run", import.meta.url), "utf8")).toMatch(/^npm test\b/m);
  });

  it.each(CONFIG_VARS.map((c) => [c.name, c]))("documents %s with its default and reason", (_name, c) => {
    expect(readme).toContain(`| \`${c.name}\` | ${c.default ? `\`${c.default}\`` : "(unset)"} | ${c.why} |`);
  });

  it("lists exactly the endpoints of the route table (server/routes/table.ts), each with its method and path", () => {
    expect(readmeEndpoints().sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it("lists every source in the generated table (npm run docs)", () => {
    expect(readme).toBe(withSourcesTable(readme, SOURCES));
    for (const s of SOURCES) expect(readme).toContain(`| [${s.name}](${s.homepage}) | \`${s.id}\` |`);
  });
});
