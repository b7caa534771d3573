# einlass in a container. Build stage: exactly the README's build (npm ci, npm run build).
# Final stage: the single executable and the C library it links against, running as a non-root
# user with its data in the /data volume. Build with: docker build -t einlass .
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && mkdir -p /out/data \
 && cp dist/einlass /out/einlass

# distroless/base: glibc, CA certificates and time zone data, no shell, no package manager.
FROM gcr.io/distroless/base-debian12:nonroot
COPY --from=build /out/einlass /usr/local/bin/einlass
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
ENV EINLASS_DATA_DIR=/data \
    EINLASS_HOST=0.0.0.0 \
    PORT=3000
VOLUME ["/data"]
EXPOSE 3000
# the image has no curl: the binary checks its own /health
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["/usr/local/bin/einlass", "health"]
ENTRYPOINT ["/usr/local/bin/einlass"]
CMD ["serve"]
