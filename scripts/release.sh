#!/usr/bin/env bash
# A release that runs without a Swift toolchain (issue #33): builds `corkboard` with the Swift
# runtime and Foundation linked in statically, checks that it needs nothing of the toolchain at
# run time, and packs it with the web client, the docs and a systemd unit into
#
#   OUT/corkboard-VERSION-linux-ARCH.tar.gz     (VERSION from `corkboard --version`)
#
#   scripts/release.sh [OUT]      OUT defaults to .build/releases; prints the tarball's path last
#
# SCRATCH (default .build/release-static) is the build folder: kept between runs, so a second
# release after a small change builds incrementally. At run time the binary needs only what
# Debian's libssl3 zlib1g libsqlite3-0 libpq5 and the base system (glibc, libstdc++, libgcc)
# give; the check below refuses to pack anything else. packaging/INSTALL.md says how to install.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$(mkdir -p "${1:-.build/releases}" && cd "${1:-.build/releases}" && pwd)
scratch=${SCRATCH:-.build/release-static}

echo "== building corkboard (release, static Swift runtime and Foundation) in $scratch" >&2
started=$(date +%s)
# --static-swift-stdlib links the toolchain's static libraries (swift_static/linux:
# libswiftCore, Foundation, libdispatch, BlocksRuntime, ICU's data); no -Xlinker flags are
# needed for them. The C libraries (OpenSSL, zlib, SQLite, libpq) stay Debian's shared ones,
# so their security updates reach the server without a new release. --disable-local-rpath:
# no RUNPATH $ORIGIN, which SwiftPM adds by default and which would let a library dropped
# next to the binary be loaded in place of Debian's.
swift build -c release --static-swift-stdlib --disable-local-rpath --product corkboard --scratch-path "$scratch" >&2
echo "== built in $(($(date +%s) - started)) s" >&2
binary="$scratch/release/corkboard"

# What the binary loads at run time must be Debian's, never the toolchain's.
libraries=$(ldd "$binary")
echo "$libraries" | sed 's/^/   /' >&2
if echo "$libraries" | grep -E 'not found|libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|libicu' >&2; then
    echo "release.sh: the binary above needs a library of the toolchain or one that is missing" >&2
    exit 1
fi
# Nor may it look for libraries in the toolchain's folder (a RUNPATH would find them there
# on this machine and hide a missing one).
if readelf -d "$binary" | grep -E 'RUNPATH|RPATH' >&2; then
    echo "release.sh: the binary has a library search path baked in" >&2
    exit 1
fi

version=$("$binary" --version | awk '{ print $2 }')
case "$version" in
[0-9]*.[0-9]*.[0-9]*) ;;
*) echo "release.sh: cannot read a version from \`corkboard --version\`: $version" >&2; exit 1 ;;
esac
name="corkboard-$version-linux-$(uname -m)"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
folder="$stage/$name"
mkdir -p "$folder/bin"
# The debug sections (DWARF) are most of the file and no help without the sources; the symbol
# table stays, so a crash's backtrace still names functions.
strip --strip-debug -o "$folder/bin/corkboard" "$binary"
cp -R web docs "$folder/"
cp LICENSE CHANGELOG.md README.md "$folder/"
cp packaging/corkboard.service packaging/corkboard.env packaging/INSTALL.md "$folder/"

# The same inputs give the same archive: sorted names, no owner, the last commit's time.
mtime=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}
tarball="$out/$name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -C "$stage" -cf - "$name" | gzip -n -9 >"$tarball"
echo "== $(du -h "$tarball" | cut -f1) $tarball (binary $(du -h "$folder/bin/corkboard" | cut -f1))" >&2
echo "$tarball"
