# Corkboard in a container: build with the Swift toolchain, run on a slim image.
# The SQLite data lives in /data, which docker-compose.yml mounts as a named volume; with
# `--store postgres` the boards live in PostgreSQL instead (libpq: libpq-dev to build, libpq5 to run).
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl-dev zlib1g-dev libsqlite3-dev libpq-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so a source change does not refetch them.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product corkboard \
 && install -D "$(swift build -c release --show-bin-path)/corkboard" /out/corkboard

FROM swift:6.3-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl3 zlib1g libsqlite3-0 libpq5 curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home /data corkboard \
 && mkdir -p /data && chown corkboard /data
COPY --from=build /out/corkboard /usr/local/bin/corkboard
COPY web /app/web
USER corkboard
ENV CORKBOARD_HOST=0.0.0.0 \
    CORKBOARD_PORT=8080 \
    CORKBOARD_WEB_ROOT=/app/web \
    CORKBOARD_DATA=/data
EXPOSE 8080
VOLUME ["/data"]
# SIGTERM (docker stop) drains connections and exits 0.
STOPSIGNAL SIGTERM
CMD ["corkboard", "serve"]
