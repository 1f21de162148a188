/** The search page and the health check. */
import { readFileSync } from "node:fs";
import { jsonResponse } from "../../core/openapi.ts";
import { packagePath } from "../../core/package-path.ts";
import { counted } from "../stats/hooks.ts";
import { get, HEALTH, PAGE } from "./route.ts";

export const pageRoute = get("/", PAGE, (deps) => {
  const page = readFileSync(packagePath("server/web/index.html"), "utf8");
  return (event) => counted(event, new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }), () => deps.usage.pageView());
});

/** Up, and the published data's source and age (the server keeps answering from older data when a new one fails). */
export const healthRoute = get("/health", HEALTH, (deps) => () => ({ ok: true, ...(deps.data ? { data: deps.data.status() } : {}) }), {
  operationId: "getHealth",
  tags: ["System"],
  summary: "Liveness check",
  security: [],
  responses: { 200: jsonResponse("The server is up", "Health") },
});
