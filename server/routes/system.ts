/** The health check. */
import { jsonResponse } from "../../core/openapi.ts";
import { get, HEALTH } from "./route.ts";

/** Up, and the published data's source and age (the server keeps answering from older data when a new one fails). */
export const healthRoute = get("/health", HEALTH, (deps) => () => ({ ok: true, ...(deps.data ? { data: deps.data.status() } : {}) }), {
  operationId: "getHealth",
  tags: ["System"],
  summary: "Liveness check",
  security: [],
  responses: { 200: jsonResponse("The server is up", "Health") },
});
