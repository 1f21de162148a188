/**
 * `/docs` and `/docs/<guide>`: the API reference (Swagger UI, web/docs/reference.ts) and the
 * guides, each rendered from its Markdown (`/docs/<guide>.md`), beside the docs' navigation.
 */
import "./docs.css";
import { useEffect, useRef, useState } from "preact/hooks";
import { SiteHeader } from "../lib/site-header.tsx";
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

/** Swagger UI themes itself dark from a class on `<html>`: set while the visitor's scheme is dark. */
function useSwaggerTheme(): void {
  useEffect(() => {
    const dark = matchMedia("(prefers-color-scheme: dark)");
    const apply = () => document.documentElement.classList.toggle("dark-mode", dark.matches);
    apply();
    dark.addEventListener("change", apply);
    return () => {
      dark.removeEventListener("change", apply);
      document.documentElement.classList.remove("dark-mode");
    };
  }, []);
}

function Reference() {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  useSwaggerTheme();
  useEffect(() => {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: SWAGGER_CSS });
    document.head.append(link);
    let gone = false;
    import("./reference.ts")
      .then(({ drawReference }) => {
        if (!gone && host.current) drawReference(host.current, () => setState("ready"));
      })
      .catch(() => setState("failed"));
    return () => {
      gone = true;
      link.remove();
    };
  }, []);
  return (
    <>
      <h1>API reference</h1>
      <p class="lead">
        Every endpoint of this server, from <a href="/openapi.json">/openapi.json</a>. Open one and choose “Try it out” to send a request to this server.
      </p>
      {state === "loading" && (
        <p class="muted" aria-busy="true">
          Loading the reference…
        </p>
      )}
      {state === "failed" && <p class="problem">The reference could not be loaded: the document itself is at /openapi.json.</p>}
      <div ref={host} class="docs-reference" />
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
            <Reference />
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
