#!/usr/bin/env bash
# The web page's test, for CI: builds it (web/build.sh), serves target/web/ on 127.0.0.1 and
# loads it in headless Chromium (SwiftShader WebGL) in real time (web/browser.py, which keeps
# each page's screenshot and DOM under target/web-test/):
#  1. the README's headless example (?launch=50&frames=600&headless): its summary line, read
#     from the page's DOM, must equal the desktop's (`--headless --frames 600 --launch 50`)
#     in every field but the timings (fps, physics_ms, physics_ms_last), the hash included;
#  2. the table drawn for 300 frames (?launch=50&frames=300): the screenshot shows the shapes
#     and the balls (web/check_shot.py), and the run ends on the desktop's summary;
#  3. a bad parameter is refused with its message in the page;
#  4. a browser without WebGL gets the page's message in words.
# Installs chromium when missing. Exits 1 on the first failure, saying what differed.
set -euo pipefail
cd "$(dirname "$0")/.."
shots=target/web-test
rm -rf "$shots"
mkdir -p "$shots"

status=$(dpkg-query -W -f='${Status}' chromium 2>/dev/null || true)
if [ "$status" != "install ok installed" ]; then
  echo "+ apt-get install chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi

web/build.sh

# A free port, then the server; it stops with the script.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
web/serve.sh "$port" >"$shots/serve.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.1
done
url="http://127.0.0.1:$port/"

# `load NAME QUERY [FLAG ...]`: the page until its run ends; sets `page` to its status, first
# frame (ms) and summary line; keeps $shots/NAME.png and $shots/NAME.html.
load() {
  local name=$1 query=$2
  shift 2
  mapfile -t page < <(python3 web/browser.py "$url$query" "$shots/$name" "$shots/chromium.log" \
    --use-angle=swiftshader --enable-unsafe-swiftshader --window-size=1000,800 "$@")
}
element() { # the text of the element with id $1 in the HTML on stdin
  python3 -c 'import html, re, sys; m = re.search(r"id=\"" + sys.argv[1] + r"\"[^>]*>([^<]*)<", sys.stdin.read()); print(html.unescape(m.group(1)) if m else "")' "$1"
}
untimed() { # a summary line without its timings
  tr ' ' '\n' | grep -vE '^(fps|physics_ms|physics_ms_last)=' | tr '\n' ' '
}
desktop() { # the desktop's summary line after $1 frames of the example
  cargo run --release --quiet -- --headless --frames "$1" --launch 50
}
same() { # same simulation: the lines $2 (web) and $3 (desktop) of run $1 agree but for timings
  echo "web:     $2"
  echo "desktop: $3"
  if [ -z "$2" ]; then
    echo "web test: $1: the page printed no summary line (see $shots/chromium.log)" >&2
    exit 1
  fi
  if [ "$(untimed <<<"$2")" != "$(untimed <<<"$3")" ]; then
    echo "web test: $1: the browser's run differs from the desktop's: web ${2##* }, desktop ${3##* }" >&2
    exit 1
  fi
  echo "web test: $1: the same summary as the desktop, ${3##* }"
}

echo "+ the headless example in the browser"
load headless '?launch=50&frames=600&headless'
same "the headless example" "$(element summary <"$shots/headless.html")" "$(desktop 600)"

echo "+ the table drawn for 300 frames"
load table '?launch=50&frames=300'
echo "page: ${page[0]:-}; first frame drawn ${page[1]:-?} ms after loading began"
python3 web/check_shot.py "$shots/table.png"
same "300 frames drawn" "$(element summary <"$shots/table.html")" "$(desktop 300)"

echo "+ a bad parameter"
load refused '?launch=5000'
refusal=$(element status <"$shots/refused.html")
echo "page: $refusal"
if [ "$refusal" != 'error: launch: "5000" is not a whole number from 0 to 1000' ]; then
  echo "web test: ?launch=5000 was not refused with its message" >&2
  exit 1
fi

echo "+ no WebGL"
load no-webgl '' --disable-3d-apis
nogl=$(element status <"$shots/no-webgl.html")
echo "page: $nogl"
if [[ "$nogl" != *"could not give the page WebGL"* ]]; then
  echo "web test: a browser without WebGL did not get the message" >&2
  exit 1
fi
echo "web test: passed"
