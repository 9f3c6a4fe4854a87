# deposit-sandbox as a container image. Build: docker build -t deposit-sandbox .
# Run:   docker run --rm -p 4242:4242 deposit-sandbox   (docs/containers.md)
#
# The base image is an argument so the image can be built from any Node 20 image that has
# npm (the default is the official one). The steps use only npm, node and COPY.
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the build below is the only script that must run (prepare would run it twice).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production \
    DEPOSIT_SANDBOX_HOST=0.0.0.0 \
    DEPOSIT_SANDBOX_PORT=4242 \
    DEPOSIT_SANDBOX_DATA=/data
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/fixtures ./fixtures
COPY --from=build /app/scenarios ./scenarios
# The store folder belongs to the unprivileged user "node" (uid 1000) the sandbox runs as.
RUN node -e "require('fs').mkdirSync('/data', { recursive: true }); require('fs').chownSync('/data', 1000, 1000)"
VOLUME /data
USER node
EXPOSE 4242
# Checks the address the sandbox was configured with (DEPOSIT_SANDBOX_HOST / _PORT), not a fixed one.
HEALTHCHECK --interval=5s --timeout=10s --start-period=10s --retries=3 \
  CMD ["node", "/app/bin/deposit-sandbox.js", "health", "--timeout", "5000"]
# node is PID 1 and handles SIGTERM/SIGINT itself: it finishes requests, saves the store, exits 0.
ENTRYPOINT ["node", "/app/bin/deposit-sandbox.js"]
CMD ["serve"]
