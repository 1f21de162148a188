/**
 * The site's navigation, the same on every page (the search page's header carries it beside its
 * search box), and the header of the pages around the search: the product's name, home, and the
 * navigation. Only there is the name no heading: each of those pages has its own.
 */
import "../styles/site.css";
import { followInApp } from "./location.ts";

const PLACES = [
  { href: "/", label: "Search" },
  { href: "/sources", label: "Sources" },
  { href: "/stats", label: "Stats" },
  { href: "/docs", label: "Docs" },
] as const;

/** The link to the page shown is the current page; the one to the section it is in (a source's page, under Sources) is current too. */
function currentness(href: string, path: string): "page" | "true" | undefined {
  if (href === path) return "page";
  return href !== "/" && path.startsWith(`${href}/`) ? "true" : undefined;
}

/** `path`: the address's path, which says where the visitor is. */
export function SiteNav({ path }: { path: string }) {
  return (
    <nav class="site-nav" aria-label="Site">
      <ul>
        {PLACES.map(({ href, label }) => (
          <li key={href}>
            <a href={href} onClick={followInApp} aria-current={currentness(href, path)}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SiteHeader({ path }: { path: string }) {
  return (
    <header class="top">
      <div class="top-inner site-top">
        <p class="brand">
          <a href="/" onClick={followInApp}>
            asset-search
          </a>
        </p>
        <SiteNav path={path} />
      </div>
    </header>
  );
}
