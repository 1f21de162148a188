/**
 * `/docs` and `/docs/<guide>`: the API reference (its operations listed, then Swagger UI on demand,
 * web/docs/reference.ts) and the guides, each rendered from its Markdown (`/docs/<guide>.md`),
 * beside the docs' navigation.
 */
import "./docs.css";
import { useEffect, useRef, useState } from "preact/hooks";
import { decoded } from "../lib/location.ts";
import { SiteHeader } from "../lib/site-header.tsx";
import { useJson } from "../lib/use-json.ts";
import { type DocPage, docPath, docTitle, GUIDES, REFERENCE } from "./guides.ts";

const PAGES = [REFERENCE, ...GUIDES];
/** The reference's stylesheet, served from the renderer's package (server/routes/docs.ts). */
const SWAGGER_CSS = "/docs/swagger-ui.css";

function DocsNav({ current }: { current: DocPage | undefined }) {
  return (
    <nav class="docs-nav" aria-label="Documentation">
      <ul>
        {PAGES.map((page) => (
          <li key={page.slug}>
            <a href={docPath(page)} aria-current={page === current ? "page" : undefined}>
              {page.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Swagger UI themes itself dark from a class on `<html>`: set while it is shown and the visitor's scheme is dark. */
function useSwaggerTheme(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const dark = matchMedia("(prefers-color-scheme: dark)");
    const apply = () => document.documentElement.classList.toggle("dark-mode", dark.matches);
    apply();
    dark.addEventListener("change", apply);
    return () => {
      dark.removeEventListener("change", apply);
      document.documentElement.classList.remove("dark-mode");
    };
  }, [active]);
}

/** What the list reads of /openapi.json. */
interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  tags?: string[];
}
interface OpenApiDocument {
  tags?: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** Swagger UI's group for an operation without tags. */
const UNTAGGED = "default";

interface Operation {
  method: string;
  path: string;
  summary: string;
  /** Swagger UI's deep link to it, `#/<tag>/<operationId>`: following it opens the interactive reference there. */
  href: string | undefined;
}

/** The document's operations by tag, in its tags' order, each tag's in the order of `paths`. */
function operationsByTag(document: OpenApiDocument): [string, Operation[]][] {
  const groups = new Map<string, Operation[]>((document.tags ?? []).map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? UNTAGGED;
      const href = operation.operationId ? `#/${encodeURIComponent(tag)}/${encodeURIComponent(operation.operationId)}` : undefined;
      const group = groups.get(tag) ?? groups.set(tag, []).get(tag)!;
      group.push({ method, path, summary: operation.summary ?? "", href });
    }
  }
  return [...groups].filter(([, operations]) => operations.length > 0);
}

/** The API's operations as plain links: what the page shows before (and without) Swagger UI's large chunk. */
function OperationList({ document }: { document: OpenApiDocument }) {
  return (
    <div class="docs-operations">
      {operationsByTag(document).map(([tag, operations]) => (
        <section key={tag}>
          <h2>{tag}</h2>
          <ul>
            {operations.map((op) => {
              const line = (
                <>
                  <span class={`docs-op-method ${op.method}`}>{op.method.toUpperCase()}</span>
                  <code class="docs-op-path">{op.path}</code>
                  <span class="docs-op-summary">{op.summary}</span>
                </>
              );
              return <li key={`${op.method} ${op.path}`}>{op.href ? <a href={op.href}>{line}</a> : <span class="docs-op">{line}</span>}</li>;
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}

/**
 * The element Swagger UI draws for a deep link, `#/<tag>/<operationId>` (an operation) or
 * `#/<tag>` (a tag): its ids are those names joined by "-", blanks as "_", CSS-escaped.
 */
function deepLinked(hash: string): HTMLElement | null {
  const [tag = "", operationId] = hash.slice(2).split("/").map(decoded);
  const id = operationId ? `operations-${tag}-${operationId}` : `operations-tag-${tag}`;
  return document.getElementById(CSS.escape(id.replace(/\s/g, "_")));
}

/**
 * Opens a deep-linked operation and gives its toggle the focus, which scrolls it into view; for a
 * tag (its heading, open already), the focus goes to the heading's collapse button.
 */
function reveal(target: HTMLElement): void {
  const operation = target.classList.contains("opblock");
  const toggle = target.querySelector<HTMLElement>(operation ? ".opblock-summary-control" : "button.expand-operation");
  if (operation && !target.classList.contains("is-open")) toggle?.click();
  toggle?.focus();
}

/**
 * `/docs`: the operations listed from /openapi.json at once, and Swagger UI (1.6 MB of script, seconds
 * of a phone's main thread) only on demand: from the button, or from a deep link (`#/...`), so that
 * shared links to an operation still open it.
 */
function Reference({ hash }: { hash: string }) {
  const spec = useJson<OpenApiDocument>("/openapi.json");
  const deepLink = hash.startsWith("#/") ? hash : undefined;
  const host = useRef<HTMLElement>(null);
  const [wanted, setWanted] = useState(deepLink !== undefined);
  const [state, setState] = useState<"waiting" | "ready" | "failed">("waiting");
  const focused = useRef(false);
  useSwaggerTheme(wanted);
  useEffect(() => {
    if (deepLink) setWanted(true);
  }, [deepLink]);
  useEffect(() => {
    if (!wanted) return;
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: SWAGGER_CSS });
    document.head.append(link);
    let gone = false;
    import("./reference.ts")
      .then(({ drawReference }) => {
        if (!gone && host.current) drawReference(host.current, () => !gone && setState("ready"));
      })
      .catch(() => !gone && setState("failed"));
    return () => {
      gone = true;
      link.remove();
    };
  }, [wanted]);
  // Once drawn, the reference replaces the list: the focus goes to the operation linked to, or else to the reference itself.
  useEffect(() => {
    if (state !== "ready") return;
    const target = deepLink ? deepLinked(deepLink) : null;
    if (target) reveal(target);
    else if (!focused.current) host.current?.focus();
    focused.current = true;
  }, [state, deepLink]);
  const loading = wanted && state === "waiting";
  return (
    <>
      <h1>API reference</h1>
      <p class="lead">
        Every endpoint of this server, from <a href="/openapi.json">/openapi.json</a>. The interactive reference shows each one's parameters and responses;
        choose “Try it out” there to send a request to this server.
      </p>
      {state === "failed" && <p class="problem">The interactive reference could not be loaded: the document itself is at /openapi.json.</p>}
      {state !== "ready" && (
        <>
          {state === "waiting" && (
            <p>
              <button type="button" class="button primary" aria-disabled={loading} onClick={() => setWanted(true)}>
                {loading ? "Loading the interactive reference…" : "Open the interactive reference (Try it out)"}
              </button>
            </p>
          )}
          {spec.data ? (
            <OperationList document={spec.data} />
          ) : spec.failed ? (
            <p class="problem">The list of operations could not be loaded: try again in a moment.</p>
          ) : (
            <p class="muted" aria-busy="true">
              Loading the operations…
            </p>
          )}
        </>
      )}
      <section ref={host} class="docs-reference" aria-label="Interactive reference" tabindex={-1} hidden={state !== "ready"} />
    </>
  );
}

/** Code and tables scroll sideways on a phone: a keyboard reaches them only if they take focus. */
const focusable = (html: string) => html.replaceAll("<pre>", '<pre tabindex="0">').replaceAll("<table>", '<table tabindex="0">');

function Guide({ page }: { page: DocPage }) {
  const [html, setHtml] = useState<string | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let gone = false;
    setHtml(undefined);
    Promise.all([fetch(`${docPath(page)}.md`).then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status))))), import("marked")])
      .then(([markdown, { marked }]) => focusable(marked.parse(markdown, { async: false })))
      .then((rendered) => !gone && setHtml(rendered))
      .catch(() => !gone && setFailed(true));
    return () => {
      gone = true;
    };
  }, [page]);
  if (failed) return <p class="problem">This page could not be loaded: try again in a moment.</p>;
  // The Markdown is this server's own (docs/*.md), never a visitor's or a source's.
  if (html !== undefined) return <article class="docs-guide" dangerouslySetInnerHTML={{ __html: html }} />;
  return (
    <p class="muted" aria-busy="true">
      Loading {page.title}…
    </p>
  );
}

export function DocsPage({ location }: { location: URL }) {
  const path = location.pathname.replace(/(.)\/$/, "$1");
  const current = PAGES.find((page) => docPath(page) === path);
  useEffect(() => {
    document.title = current ? docTitle(current) : "Page not found · asset-search docs";
  }, [current]);
  return (
    <>
      <SiteHeader path={path} />
      <div class="site-main docs-page">
        <DocsNav current={current} />
        <main class="docs-main">
          {current === REFERENCE ? (
            <Reference hash={location.hash} />
          ) : current ? (
            <Guide page={current} />
          ) : (
            <>
              <h1>Page not found</h1>
              <p>There is no such page in the documentation.</p>
            </>
          )}
        </main>
      </div>
    </>
  );
}
