# The service image: the same `catalog` command as on a developer's machine; docker-compose.yml runs
# it as the api and as the worker.
# Node 24 LTS, pinned by exact tag (docs/deployment.md, The image): supported until April 2028, and
# the line the dependencies' native parts (argon2) ship prebuilt for. Bump the tag with each patch release.
ARG NODE_IMAGE=node:24.11.1-bookworm-slim

# Build stage: the browser clients (Vite is a dev dependency).
FROM ${NODE_IMAGE} AS web
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:web

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data UPLOAD_DIR=/data/uploads
# The heap cap npm start uses (README, Memory): without it V8 grows the old space to about four times
# the live data. Set NODE_OPTIONS in the stack's environment to size it for a larger catalogue.
ENV NODE_OPTIONS=--max-old-space-size=256
COPY package.json package-lock.json ./
# Production dependencies only; the npm cache is not part of the image.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
COPY --from=web /app/dist/web ./dist/web
# Every folder the service writes, made and owned here: a volume mounted on a folder the image lacks
# is created owned by root, and the service (user node) could not write to it.
RUN mkdir -p /data/uploads && chown -R node:node /data
EXPOSE 3000
USER node
CMD ["node", "bin/catalog.js", "serve"]
