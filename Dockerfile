# deposit-sandbox as a container image. Build: docker build -t deposit-sandbox .
# Run:   docker run --rm -p 4242:4242 deposit-sandbox   (docs/containers.md)
#
# The base image is an argument so the image can be built from any Node 20 image that has
# npm (the default is the official one). The steps use npm, node, the shell's mkdir and mv, and COPY.
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Installs the production dependencies and the three development dependencies the build uses
# (typescript, @types/node, rolldown), at the lockfile's versions; the others are test, lint and
# benchmark tools. The package.json trimmed for this is replaced by the original with the sources.
# --ignore-scripts: the build below is the only script that must run (prepare would run it twice).
RUN node -e "const p = require('./package.json'), build = ['typescript', '@types/node', 'rolldown']; \
      for (const name in p.devDependencies) if (!build.includes(name)) delete p.devDependencies[name]; \
      require('fs').writeFileSync('package.json', JSON.stringify(p))" \
 && npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# The image's files gathered in one folder, so the final stage takes them in one step, beside the
# empty store folder. The command line is bundled with every dependency it uses (dist/cli/*.cjs,
# built by rolldown, and the code cache that bin/ compiles it with, dist/cli/code-cache.cjs), and the
# pages' scripts are dist/client/: the image needs neither node_modules nor the library's other
# files (dist/**/*.js, its types and source maps).
RUN npm run build \
 && mkdir -p /image/app/dist/cli /image/data \
 && mv dist/cli/*.cjs /image/app/dist/cli/ && mv dist/client /image/app/dist/ \
 && mv package.json bin fixtures profiles scenarios /image/app/

FROM ${NODE_IMAGE}
# DEPOSIT_SANDBOX_IN_CONTAINER: the paths the sandbox prints are inside the container
# (docs/containers.md).
ENV NODE_ENV=production \
    DEPOSIT_SANDBOX_IN_CONTAINER=1 \
    DEPOSIT_SANDBOX_HOST=0.0.0.0 \
    DEPOSIT_SANDBOX_PORT=4242 \
    DEPOSIT_SANDBOX_DATA=/data
COPY --from=build /image/app /app
# The store folder belongs to the unprivileged user "node" (uid 1000) the sandbox runs as.
COPY --from=build --chown=1000:1000 /image/data /data
WORKDIR /app
VOLUME /data
EXPOSE 4242
# Checks the address the sandbox was configured with (DEPOSIT_SANDBOX_HOST / _PORT), not a fixed one.
HEALTHCHECK --interval=5s --timeout=10s --start-period=10s --retries=3 \
  CMD ["node", "/app/bin/deposit-sandbox.js", "health", "--timeout", "5000"]
# node is PID 1 and handles SIGTERM/SIGINT itself: it finishes requests, saves the store, exits 0.
ENTRYPOINT ["node", "/app/bin/deposit-sandbox.js"]
CMD ["serve"]
# Last: the instructions above only describe the image, and podman's build looks the user up
# again at every instruction that follows USER.
USER node
