#!/bin/sh
# Builds the benchmark peers: the two Swift servers in release, checks that Node and
# Debian's node-ws are there for the third (installing node-ws with apt-get when missing
# and running as root), and installs socketify (uWebSockets for Python, pinned) into
# bench/peers/.venv/uws for the fourth (with Debian's libuv1, which its library links).
# Prints where each peer is. Run from anywhere.
#
#   bench/peers/build.sh               every peer
#   bench/peers/build.sh uws node      only those (any of: swift node uws)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
SOCKETIFY_VERSION=0.0.31
wanted=${*:-"swift node uws"}
case " $wanted " in *" swift "*|*" node "*|*" uws "*) ;; *) echo "usage: build.sh [swift] [node] [uws]" >&2; exit 64 ;; esac

apt_install() { # package (Debian)
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y "$1" >&2 || { apt-get update >&2 && apt-get install -y "$1" >&2; }
    else
        echo "Debian's $1 is missing: sudo apt-get install $1" >&2
        exit 1
    fi
}

case " $wanted " in *" swift "*)
    echo "building hummingbird-peer and flyingfox-peer (release; several minutes the first time)" >&2
    swift build -c release --package-path "$here"
    bin=$(swift build -c release --package-path "$here" --show-bin-path)
    echo "hummingbird-peer: $bin/hummingbird-peer"
    echo "flyingfox-peer:   $bin/flyingfox-peer" ;;
esac

case " $wanted " in *" node "*)
    if ! command -v node >/dev/null 2>&1; then
        echo "node is not installed (Debian: apt-get install nodejs); the ws peer cannot run" >&2
        exit 1
    fi
    [ -f /usr/share/nodejs/ws/package.json ] || apt_install node-ws
    node -e "require('/usr/share/nodejs/ws')" || { echo "node cannot load /usr/share/nodejs/ws" >&2; exit 1; }
    ws_version=$(node -p "require('/usr/share/nodejs/ws/package.json').version")
    echo "ws-peer:          node $here/node/server.js   (node $(node --version), ws $ws_version)" ;;
esac

case " $wanted " in *" uws "*)
    # socketify ships uWebSockets prebuilt (libsocketify_linux_amd64.so), which links libuv.
    [ -e /usr/lib/x86_64-linux-gnu/libuv.so.1 ] || ldconfig -p | grep -q 'libuv\.so\.1' || apt_install libuv1
    target="$here/.venv/uws"
    if ! PYTHONPATH="$target" python3 -c "import socketify, importlib.metadata as m; assert m.version('socketify') == '$SOCKETIFY_VERSION'" 2>/dev/null; then
        rm -rf "$target"
        python3 -m pip install --quiet --disable-pip-version-check --target "$target" "socketify==$SOCKETIFY_VERSION" >&2
    fi
    PYTHONPATH="$target" python3 -c "import socketify" || { echo "python3 cannot load socketify from $target" >&2; exit 1; }
    echo "uws-peer:         PYTHONPATH=$target python3 $here/uws/server.py   (socketify $SOCKETIFY_VERSION, $(python3 --version))" ;;
esac
