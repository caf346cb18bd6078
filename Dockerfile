# The service image: one image for the service instances and the worker (different commands).
# Build:  docker build -t pay-orchestrator .
# (No container engine runs on the development machines: `npm run rehearse:deploy` carries out
# these steps there, as docs/DEPLOYMENT.md explains.)
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund --loglevel=error
COPY . .
# .data: the service's own directory (the operator's service file; PGlite's data when no
# DATABASE_URL is set), made here so the runtime stage can hand it to the unprivileged user.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && mkdir -p .data

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/public ./public
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/src ./src
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/next.config.js /app/server.js /app/tsconfig.json ./
# Everything above belongs to root; the service writes only here (as `node`, it cannot write elsewhere).
COPY --from=build --chown=node:node /app/.data ./.data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health?probe=live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# npm start's command (package.json), Node's options with it (docs/DECISIONS.md, "WebAssembly's tiering").
CMD ["node", "--no-wasm-dynamic-tiering", "server.js"]
