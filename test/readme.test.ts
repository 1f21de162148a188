import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_VARS } from "../core/config.ts";
import { withSourcesTable } from "../pipeline/readme-sources.ts";
import { SOURCES } from "../sources/index.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

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

  it("lists every source in the generated table (npm run docs)", () => {
    expect(readme).toBe(withSourcesTable(readme, SOURCES));
    for (const s of SOURCES) expect(readme).toContain(`| [${s.name}](${s.homepage}) | \`${s.id}\` |`);
  });
});
