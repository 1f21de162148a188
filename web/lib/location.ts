/**
 * The address as the app's state: components read it with `useLocation` and change it with
 * `navigate`, which records a history entry (or replaces the current one), so a search or an open
 * asset can be shared as a link and Back returns to the state before it.
 */
import { useEffect, useState } from "preact/hooks";

const CHANGED = "app:navigate";

export function navigate(href: string, options: { replace?: boolean } = {}): void {
  if (href === location.pathname + location.search) return;
  // Another page starts at its top, as after a link; Back returns to where the reader was (the browser restores it).
  const otherPage = new URL(href, location.href).pathname !== location.pathname;
  if (options.replace) history.replaceState(null, "", href);
  else history.pushState(null, "", href);
  dispatchEvent(new Event(CHANGED));
  if (otherPage && !options.replace) scrollTo(0, 0);
}

/** The current address, re-read on every navigate and on Back and Forward. */
export function useLocation(): URL {
  const [url, setUrl] = useState(() => new URL(location.href));
  useEffect(() => {
    const update = () => setUrl(new URL(location.href));
    addEventListener("popstate", update);
    addEventListener(CHANGED, update);
    return () => {
      removeEventListener("popstate", update);
      removeEventListener(CHANGED, update);
    };
  }, []);
  return url;
}

/** A link into the app: a plain click changes the address in place; with a modifier key or another button the browser does what it always does. */
export function followInApp(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.currentTarget as HTMLAnchorElement;
  event.preventDefault();
  navigate(link.pathname + link.search);
}

/** A segment of an address as typed; a malformed escape (`%E0`) stays as it is, for the page to say there is no such thing. */
export function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
