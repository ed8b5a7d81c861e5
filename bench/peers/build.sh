#!/bin/sh
# Builds the benchmark peers: the two Swift servers in release, and checks that Node and
# Debian's node-ws are there for the third (installing node-ws with apt-get when missing
# and running as root). Prints where each peer is. Run from anywhere.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

echo "building hummingbird-peer and flyingfox-peer (release; several minutes the first time)" >&2
swift build -c release --package-path "$here"
bin=$(swift build -c release --package-path "$here" --show-bin-path)

if ! command -v node >/dev/null 2>&1; then
    echo "node is not installed (Debian: apt-get install nodejs); the ws peer cannot run" >&2
    exit 1
fi
if [ ! -f /usr/share/nodejs/ws/package.json ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y node-ws >&2
    else
        echo "Debian's node-ws is missing: sudo apt-get install node-ws" >&2
        exit 1
    fi
fi
node -e "require('/usr/share/nodejs/ws')" || { echo "node cannot load /usr/share/nodejs/ws" >&2; exit 1; }
ws_version=$(node -p "require('/usr/share/nodejs/ws/package.json').version")

echo "hummingbird-peer: $bin/hummingbird-peer"
echo "flyingfox-peer:   $bin/flyingfox-peer"
echo "ws-peer:          node $here/node/server.js   (node $(node --version), ws $ws_version)"
