# The service image: the same `catalog` command as on a developer's machine.
# Build stage: the browser clients (Vite is a dev dependency).
FROM node:20-bookworm-slim AS web
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:web

FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
COPY --from=web /app/dist/web ./dist/web
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
USER node
CMD ["node", "bin/catalog.js", "serve"]
