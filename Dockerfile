# syntax=docker/dockerfile:1
# The service as an image: `docker build -t asset-search .`, or `docker compose up` (compose.yaml).
# test/image.test.ts reproduces the runtime stage's layout without a container runtime.

# Build: every dependency, then the server, the command line and the web app into dist/ (bin/build.js).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY vendor ./vendor
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime: production dependencies only (the bundle imports them from node_modules), the build and the embedded data.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787
WORKDIR /app
COPY package.json package-lock.json ./
COPY vendor ./vendor
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY data ./data
# The guides of /docs, read as Markdown when asked (server/web/docs.ts).
COPY docs ./docs
# The image's own user: the server writes nothing but DATA_CACHE_DIR (the system's temporary folder by default).
USER node
EXPOSE 8787
# Liveness: the process answers. Readiness (data loaded, not draining) is /ready, for the proxy and Kubernetes.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself as PID 1's command, so SIGTERM reaches the server (npm would not pass it on).
CMD ["node", "dist/server/main.js"]
