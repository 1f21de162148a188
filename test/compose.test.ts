/**
 * compose.yaml, parsed, against the configuration it sets: every variable is one of core/config.ts
 * CONFIG_VARS with a value loadConfig takes; the replicas are reached only through the proxy,
 * whose hop count is TRUST_PROXY; Prometheus scrapes each replica's METRICS_PORT; the Grafana
 * dashboard asks only for metrics the server registers.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CONFIG_VARS, loadConfig } from "../core/config.ts";
import { createDeps } from "../server/start.ts";
import { FIXTURES } from "./helpers/replay.ts";

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

interface Service {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  ports?: string[];
  stop_grace_period?: string;
  depends_on?: unknown;
}
const compose = parse(read("compose.yaml")) as { services: Record<string, Service> };
const services = compose.services;
// The replicas are the services built from this repository.
const replicas = Object.entries(services).filter(([, s]) => s.build === ".");
const caddyfile = read("deploy/Caddyfile");
const prometheus = parse(read("deploy/prometheus.yml")) as { scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[] };

/** The env of a replica as the server reads it (compose passes strings). */
const envOf = (service: Service): Record<string, string> => service.environment ?? {};
const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)?.[1]);

describe("compose.yaml", () => {
  it("runs two replicas of the image, a proxy, Redis, Prometheus and Grafana", () => {
    expect(replicas.map(([name]) => name)).toEqual(["server-1", "server-2"]);
    expect(Object.keys(services).sort()).toEqual(["grafana", "prometheus", "proxy", "redis", "server-1", "server-2"]);
  });

  it("sets only variables of CONFIG_VARS, each with a value the server accepts", () => {
    const known = new Set(CONFIG_VARS.map((c) => c.name));
    for (const [name, service] of replicas) {
      const env = envOf(service);
      for (const key of Object.keys(env)) expect(known.has(key), `${name}: ${key}`).toBe(true);
      for (const value of Object.values(env)) expect(typeof value, `${name}: quoted strings, as the process sees them`).toBe("string");
      expect(() => loadConfig(env), name).not.toThrow();
    }
  });

  it("reaches the replicas through the proxy alone, one hop, as TRUST_PROXY says", () => {
    const upstreams = /reverse_proxy ([^{\n]+)\{/.exec(caddyfile)?.[1]?.trim().split(/\s+/) ?? [];
    expect(upstreams).toEqual(replicas.map(([name, s]) => `${name}:${loadConfig(envOf(s)).port}`));
    for (const [name, service] of replicas) {
      // A published port would let clients skip the proxy, and the hop count would name the wrong address.
      expect(service.ports, name).toBeUndefined();
      expect(loadConfig(envOf(service)).trustProxyHops, name).toBe(1);
    }
    expect(caddyfile).toMatch(/^\s*health_uri \/ready$/m);
    expect(services.proxy?.ports).toEqual(["8080:8080"]);
    expect(caddyfile).toMatch(/^:8080 \{$/m);
    for (const [, service] of replicas) expect(loadConfig(envOf(service)).publicUrl).toBe("http://localhost:8080");
  });

  it("has Prometheus scrape every replica's METRICS_PORT, and the replicas read their stats from it", () => {
    const [job] = prometheus.scrape_configs;
    expect(prometheus.scrape_configs).toHaveLength(1);
    expect(job?.static_configs.flatMap((c) => c.targets)).toEqual(replicas.map(([name, s]) => `${name}:${loadConfig(envOf(s)).metricsPort}`));
    for (const [name, service] of replicas) {
      const config = loadConfig(envOf(service));
      expect(config.prometheusUrl, name).toBe("http://prometheus:9090");
      expect(new URL(config.redisUrl!).hostname, name).toBe("redis");
    }
    expect(services.prometheus?.ports).toEqual(["127.0.0.1:9090:9090"]);
  });

  it("gives a replica's shutdown longer than SHUTDOWN_GRACE_MS before Docker kills it", () => {
    for (const [name, service] of replicas) {
      expect(seconds(service.stop_grace_period ?? "") * 1000, name).toBeGreaterThan(loadConfig(envOf(service)).shutdownGraceMs);
    }
  });

  it("has a Grafana dashboard whose every query names a metric the server registers", async () => {
    const dashboard = JSON.parse(read("deploy/grafana/dashboards/asset-search.json")) as { panels: { targets: { expr: string }[] }[] };
    const deps = createDeps(loadConfig({ DATA_DIR: "data", ASSET_SERVER_REPLAY: FIXTURES }));
    const registered = new Set((await deps.usage.metrics.registry.getMetricsAsJSON()).map((m) => m.name));
    const asked = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => [...t.expr.matchAll(/asset_search_\w+/g)].map(([name]) => name)));
    expect(asked.length).toBeGreaterThan(10);
    for (const name of asked) expect(registered.has(name.replace(/_(bucket|sum|count)$/, "")), name).toBe(true);
  });
});
