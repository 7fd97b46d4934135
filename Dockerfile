# syntax=docker/dockerfile:1
# Pixel Atlas: one image recipe for every service. Build from the repository root, as docker compose does:
#   docker build --build-arg SERVICE=plots -t pixel-atlas/plots .
# The dependency and build stages do not read SERVICE, so every service's image shares their layers (one npm ci,
# one prisma generate for all); only the last layers differ. The gateway's image also carries the built web
# (web/dist), which it serves. See docs/operations.md; scripts/compose.test.ts checks this file.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- base: Node 24 (the current LTS) and the npm the lockfile was made with (npm 11 honours allowScripts)
FROM ${NODE_IMAGE} AS base
ENV CI=true NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false NPM_CONFIG_UPDATE_NOTIFIER=false CHECKPOINT_DISABLE=1
RUN --mount=type=cache,target=/root/.npm npm install --global npm@11.19.1
WORKDIR /app

# ---- manifests: the lockfile and every workspace's package.json, nothing else, so the npm ci layers below are
#      reused until dependencies change
FROM base AS manifests
COPY . /context
RUN cd /context \
 && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /app \; \
 && cp package-lock.json .npmrc /app/

# ---- prod-deps: the production dependencies of every service (not the web's, not the root's tools)
FROM base AS prod-deps
COPY --from=manifests /app /app
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --workspace=services

# ---- tsx: the TypeScript runner is a root devDependency; installed on its own at /node_modules, where
#      `node --import tsx` resolves it from any folder under /app
FROM base AS tsx
WORKDIR /tsx
RUN --mount=type=cache,target=/root/.npm echo '{"private":true}' > package.json \
 && npm install --omit=dev --no-package-lock tsx@4.23.15

# ---- build: every service's Prisma client (prisma generate works offline: prisma.config.ts points at
#      scripts/no-schema-engine.cjs) and, for the gateway, the web
FROM base AS build
COPY --from=manifests /app /app
RUN --mount=type=cache,target=/root/.npm npm ci --workspace=services --workspace=web
COPY tsconfig.base.json ./
COPY scripts/no-schema-engine.cjs scripts/
COPY packages packages
COPY services services
RUN DATABASE_URL=postgresql://build@localhost:5432/build npm run generate --if-present --workspace=services
COPY web web
ARG SERVICE
# The product name is baked into the page title at build time (docker compose passes SITE_NAME).
ARG SITE_NAME="Pixel Atlas"
RUN if [ "$SERVICE" = gateway ]; then SITE_NAME="$SITE_NAME" npm run build --workspace=web; \
    else rm -rf web/dist web/dist-server && mkdir -p web/dist web/dist-server; fi

# ---- runtime: production dependencies, the workspace packages and this service's source (TypeScript, run by tsx:
#      no compile step) with its generated client, run as the unprivileged `node` user
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=tsx /tsx/node_modules /node_modules
COPY --from=prod-deps /app /app
COPY tsconfig.base.json ./
COPY packages packages
ARG SERVICE
RUN test -n "$SERVICE" || { echo 'build with --build-arg SERVICE=<a folder of services/>' >&2; exit 1; }
# The gateway draws the share cards' text (names, tiers) with sharp, which needs a system font; the slim image has none.
RUN if [ "$SERVICE" = gateway ]; then \
      apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*; \
    fi
COPY services/${SERVICE} services/${SERVICE}
COPY --from=build /app/services/${SERVICE}/src/generated services/${SERVICE}/src/generated
COPY --from=build /app/web/dist web/dist
# The web app's server renderer: the gateway renders plot, user and region pages with it (the app's own components).
COPY --from=build /app/web/dist-server web/dist-server
ENV WEB_DIST_DIR=/app/web/dist
USER node
WORKDIR /app/services/${SERVICE}
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "src/server.ts"]
