# gamedata-api container image. Three stages: `build` compiles TypeScript with the dev
# dependencies; `deps` installs the production dependencies only (with a compiler at hand for
# better-sqlite3's native addon); the final stage holds neither, runs as the unprivileged `node`
# user and starts Node directly, so SIGTERM from the container runtime reaches the server.
#
# No container engine or image registry is reachable where this file was written: it has not
# been built there (see "Containers" in the README).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would run tsc before the sources are here, and no native addon is
# needed to compile TypeScript.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# --omit=dev leaves tsc out, so `prepare` must not run; better-sqlite3's own install step (a
# prebuilt binary, or a compile) runs by itself afterwards.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && npm cache clean --force

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8080 \
  DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Ready once the store answers; the first start loads the demo data before listening (about a
# minute), hence the long start period.
HEALTHCHECK --interval=15s --timeout=5s --start-period=180s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js", "serve"]
