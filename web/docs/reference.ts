/**
 * The API reference, drawn by Swagger UI from /openapi.json: a chunk of its own, loaded only on
 * `/docs`. Its "Try it out" sends requests to the document's server, this server's public URL.
 */
import SwaggerUI from "swagger-ui-dist/swagger-ui-es-bundle.js";

/**
 * Swagger UI leaves a few of the things it draws unnamed or out of a keyboard's reach: its
 * selects (the servers, a boolean parameter's value) have no label text, and its code blocks
 * scroll without taking focus. Without deep links, its tags' and paths' anchors have no address,
 * which crawlers take for broken links: they are said to be no links. Each is mended as it is drawn.
 */
function mend(root: HTMLElement): void {
  for (const select of root.querySelectorAll("select:not([aria-label])")) {
    const name = select.id === "servers" ? "Server" : select.closest("tr[data-param-name]")?.getAttribute("data-param-name");
    if (name) select.setAttribute("aria-label", name);
  }
  for (const code of root.querySelectorAll("pre:not([tabindex]), .microlight:not([tabindex])")) code.setAttribute("tabindex", "0");
  for (const anchor of root.querySelectorAll("a:not([href]):not([role])")) anchor.setAttribute("role", "none");
}

export function drawReference(domNode: HTMLElement, onComplete: () => void): void {
  new MutationObserver(() => mend(domNode)).observe(domNode, { childList: true, subtree: true });
  SwaggerUI({
    domNode,
    url: "/openapi.json",
    // A deep link puts a link inside each operation's toggle button, which screen readers cannot reach.
    deepLinking: false,
    // Swagger UI would otherwise send the document to its authors' online validator.
    validatorUrl: null,
    // The schemas are read beside each operation; the list of them at the end would only repeat them.
    defaultModelsExpandDepth: -1,
    // Its highlighting themes colour some tokens below 4.5:1 against their background; plain code reads everywhere.
    syntaxHighlight: { activated: false },
    onComplete,
  });
}
