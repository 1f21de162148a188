/** Links into the app: a plain click changes the address in place; with a modifier key or another button the browser does what it always does. */
import { navigate } from "../lib/location.ts";

export function followInApp(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.currentTarget as HTMLAnchorElement;
  event.preventDefault();
  navigate(link.pathname + link.search);
}
