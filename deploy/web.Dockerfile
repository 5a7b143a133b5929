# syntax=docker/dockerfile:1.20
#
# The web app's image (charts/web): the built shell and remotes, served with their precompressed .br/.gz files
# by frontends/shell/server/serve.ts behind deploy/web/main.ts (shell at /, remotes at /remotes/<name>/,
# /config.json from WEB_CONFIG). Build from the repository root with BuildKit:
#
#   docker build -f deploy/web.Dockerfile -t ledgerline/web:<tag> .

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false

FROM base AS manifests
COPY --parents package.json package-lock.json proto/package.json services/*/package.json services/sandboxes/*/package.json frontends/*/package.json ./

# The frontends' build tools and the root's (TypeScript, esbuild through tsx). Install scripts skipped as in
# development.
FROM manifests AS deps
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --ignore-scripts --include-workspace-root \
      -w @ledgerline/api -w @ledgerline/ui -w @ledgerline/shell \
      -w @ledgerline/settings -w @ledgerline/accounting -w @ledgerline/reports

FROM deps AS build
COPY tsconfig.base.json ./
COPY frontends/ frontends/
COPY services/platform/src/kit/registry.ts services/platform/src/kit/registry.ts
COPY services/platform/package.json services/platform/package.json
COPY deploy/web/ deploy/web/
# Each build writes dist/ with a .br and a .gz beside every text asset (frontends/ui/precompress.ts, in the ui kit's build preset).
RUN npm run build -w @ledgerline/shell -w @ledgerline/settings -w @ledgerline/accounting -w @ledgerline/reports
# The server: one file with no dependencies (node:http and the registry's list of remotes).
RUN npx esbuild deploy/web/main.ts --bundle --platform=node --format=esm --target=node20 --outfile=/app/server/main.mjs

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    WEB_PORT=8080 \
    WEB_ROOT=/app/frontends
WORKDIR /app
COPY --from=build /app/server/main.mjs ./server/main.mjs
COPY --from=build /app/frontends/shell/dist ./frontends/shell/dist
COPY --from=build /app/frontends/settings/dist ./frontends/settings/dist
COPY --from=build /app/frontends/accounting/dist ./frontends/accounting/dist
COPY --from=build /app/frontends/reports/dist ./frontends/reports/dist
# The `node` user of the base image, by number so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 8080
CMD ["node", "server/main.mjs"]
