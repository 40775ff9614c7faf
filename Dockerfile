# Paybench's container image: one image for web and worker nodes (PAYBENCH_ROLES chooses).
#   docker build -t paybench:0.1.0 .
# Build stage: every dependency (TypeScript, Vite), then the API, the CLI and the web app.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/package.json
COPY web/package.json web/package.json
COPY cli/package.json cli/package.json
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Run stage: production dependencies only, the built output, the migrations and the reference data.
FROM node:20-bookworm-slim AS run
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/package.json
COPY web/package.json web/package.json
COPY cli/package.json cli/package.json
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/openapi.yaml ./openapi.yaml
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/api/dist ./api/dist
COPY --from=build /app/api/reference-data ./api/reference-data
COPY --from=build /app/cli/dist ./cli/dist
COPY --from=build /app/web/dist ./web/dist
# A user of its own, no shell login; the data directory is the one place it writes.
RUN groupadd --system --gid 10001 paybench \
  && useradd --system --uid 10001 --gid paybench --no-create-home --shell /usr/sbin/nologin paybench \
  && mkdir -p /data && chown paybench:paybench /data
ENV PAYBENCH_DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0 \
    LOG_FORMAT=json \
    PAYBENCH_ROLES=web,worker \
    PAYBENCH_SEED_DEMO=false
VOLUME ["/data"]
USER paybench
EXPOSE 3000
# Liveness: 200 once started (503 while starting, which the start period allows for).
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "api/dist/main.js"]
