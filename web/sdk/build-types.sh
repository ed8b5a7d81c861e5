#!/bin/sh
# Writes the SDK's TypeScript declarations (types/*.d.ts) from the JSDoc of its modules, with
# tsc (Debian's node-typescript). The declarations are checked in, so that the package and the
# server's /sdk/ need no build step; SDKPackageTests fails when they differ from what this writes.
set -eu
cd "$(dirname "$0")"
rm -rf types
tsc -p tsconfig.types.json
