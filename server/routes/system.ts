/** The search page and the health check. */
import { readFileSync } from "node:fs";
import { jsonResponse } from "../../core/openapi.ts";
import { counted } from "../stats/hooks.ts";
import { get, HEALTH, PAGE } from "./route.ts";

export const pageRoute = get("/", PAGE, (deps) => {
  const page = readFileSync(new URL("../web/index.html", import.meta.url), "utf8");
  return (event) => counted(event, new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }), () => deps.usage.pageView());
});

export const healthRoute = get("/health", HEALTH, () => () => ({ ok: true }), {
  operationId: "getHealth",
  tags: ["System"],
  summary: "Liveness check",
  security: [],
  responses: { 200: jsonResponse("The server is up", "Health") },
});
