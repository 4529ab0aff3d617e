# syntax=docker/dockerfile:1
# The workplan service: built with the whole workspace, shipped as the app package with
# its production dependencies only, run as the unprivileged `node` user.
#   docker build -t workplan .   (docker-compose.yml runs it beside MongoDB)

ARG NODE_IMAGE=node:26-trixie-slim

FROM ${NODE_IMAGE} AS build
# The same pnpm as package.json's packageManager; corepack is avoided, as it fetches
# pnpm again on first use and may ask to confirm.
RUN npm install --global --no-audit --no-fund pnpm@10.34.8
WORKDIR /repo
# pnpm fetch needs only the lockfile, so this layer is reused until dependencies change.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile && pnpm run build
# The app with its production dependencies alone. --legacy: the workspace links its
# packages rather than injecting them, which pnpm 10's new deploy insists on; the legacy
# deploy still installs the versions the shared lockfile names.
RUN pnpm --filter @workplan/app deploy --legacy --prod /deploy/app

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    SQLITE_PATH=/data/workplan.db
WORKDIR /app
# Owned by root and only read by the service: the process cannot rewrite its own code.
COPY --from=build /deploy/app ./
# Records live in the volume, not in the container's layer, so they outlive the container
# (unused with STORAGE=mongodb, as docker-compose.yml runs it). Made here so that a new
# named volume starts owned by the user the service runs as.
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT ?? 3000}/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The V8 settings of packages/app/src/node-flags.ts (a test keeps them the same).
CMD ["node", "--max-semi-space-size=16", "--no-allocation-site-pretenuring", "--v8-pool-size=0", "dist/main.js"]
