# Corkboard in a container, made of the same release tarball as an install without Docker
# (scripts/release.sh, packaging/INSTALL.md): built in the Swift image, run on plain Debian
# with no toolchain, only the four libraries the binary loads.
# The SQLite data lives in /data, which docker-compose.yml mounts as a named volume; with
# `--store postgres` the boards live in PostgreSQL instead.
FROM swift:6.3-bookworm AS build
# binutils: strip and readelf, which scripts/release.sh uses.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl-dev zlib1g-dev libsqlite3-dev libpq-dev pkg-config binutils \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so a source change does not refetch them.
COPY Package.swift ./
RUN swift package resolve
# Tests too: the manifest names their folders, and SwiftPM refuses a package that lacks one.
COPY Sources ./Sources
COPY Tests ./Tests
# What the tarball holds besides the binary.
COPY scripts ./scripts
COPY packaging ./packaging
COPY web ./web
COPY docs ./docs
COPY LICENSE CHANGELOG.md README.md ./
# The static release (Swift runtime and Foundation inside the binary), unpacked to /release.
RUN scripts/release.sh /out \
 && mkdir /release \
 && tar -xzf /out/corkboard-*.tar.gz -C /release --strip-components=1

# The same Debian as the build image (bookworm): the binary links against its glibc and libraries.
FROM debian:bookworm-slim
# libssl3 zlib1g libsqlite3-0 libpq5: what bin/corkboard loads (INSTALL.md); curl: the
# health check of docker-compose.yml.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl3 zlib1g libsqlite3-0 libpq5 curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home-dir /data --shell /usr/sbin/nologin corkboard \
 && mkdir -p /data && chown corkboard:corkboard /data
COPY --from=build /release /opt/corkboard
# Not root: the server needs no privilege, only its port (above 1024) and /data.
USER corkboard
# CORKBOARD_HOST: inside the container the server listens on every address (0.0.0.0), since
# only the container's network reaches it there; which of the host's addresses reach it is
# decided where the port is published (docker-compose.yml publishes on 127.0.0.1 only).
# Tokens: none are set, so the server runs in open mode, where whoever reaches it reads and
# changes every board; that is for local use. Before publishing the port on a network, mount
# a token file or a secret and set CORKBOARD_TOKENS or CORKBOARD_TOKEN_SECRET_FILE
# (docs/security.md).
# CORKBOARD_WEB_ROOT: the tarball's web client (the server's default, `web`, is relative to
# the working directory).
ENV PATH=/opt/corkboard/bin:$PATH \
    CORKBOARD_HOST=0.0.0.0 \
    CORKBOARD_PORT=8080 \
    CORKBOARD_WEB_ROOT=/opt/corkboard/web \
    CORKBOARD_DATA=/data
WORKDIR /data
EXPOSE 8080
VOLUME ["/data"]
# SIGTERM (docker stop) drains connections and exits 0.
STOPSIGNAL SIGTERM
CMD ["corkboard", "serve"]
