#!/usr/bin/env bash
# The web page's test, for CI: builds it (web/build.sh), serves target/web/ on 127.0.0.1 and
# loads it in headless Chromium (SwiftShader WebGL):
#  1. the README's headless example (?launch=50&frames=600&headless): its summary line, read
#     from the dumped DOM, must equal the desktop's (`--headless --frames 600 --launch 50`)
#     in every field but the timings (fps, physics_ms, physics_ms_last), the hash included;
#  2. the table drawn in real time for 300 frames (?launch=50&frames=300, web/browser.py):
#     the screenshot shows the shapes and the balls (web/check_shot.py; kept as
#     target/web-test/table.png), and the run ends on the desktop's summary for 300 frames;
#  3. a bad parameter is refused with its message in the page;
#  4. a browser without WebGL gets the page's message in words.
# Installs chromium when missing. Exits 1 on the first failure, saying what differed.
set -euo pipefail
cd "$(dirname "$0")/.."
shots=target/web-test
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
profile=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$profile"' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.1
done
url="http://127.0.0.1:$port/"

# Chromium's own noise (D-Bus, GPU probing) goes to a log; its own profile keeps it apart from
# any other Chromium on the machine. Virtual time lets the page run its frames before the dump.
browse() {
  local budget=$1
  shift
  timeout 120 chromium --headless --no-sandbox --user-data-dir="$profile" \
    --use-angle=swiftshader --enable-unsafe-swiftshader --window-size=1000,800 \
    --virtual-time-budget="$budget" "$@" 2>>"$shots/chromium.log"
}
element() { # the text of the element with id $1 in the DOM on stdin
  python3 -c 'import html, re, sys; m = re.search(r"id=\"" + sys.argv[1] + r"\"[^>]*>([^<]*)<", sys.stdin.read()); print(html.unescape(m.group(1)) if m else "")' "$1"
}
untimed() { # a summary line without its timings
  tr ' ' '\n' | grep -vE '^(fps|physics_ms|physics_ms_last)=' | tr '\n' ' '
}

echo "+ the headless example in the browser"
browse 60000 --dump-dom "${url}?launch=50&frames=600&headless" >"$shots/headless.html"
web_line=$(element summary <"$shots/headless.html")
if [ -z "$web_line" ]; then
  # Virtual time has been seen to end a dump before the page ran; the real-time loader waits.
  echo "web test: no summary in the dumped DOM; loading the page again in real time"
  mapfile -t page < <(python3 web/browser.py "${url}?launch=50&frames=600&headless" \
    "$shots/headless.png" "$shots/chromium.log" --use-angle=swiftshader --enable-unsafe-swiftshader)
  web_line=${page[2]:-}
fi
echo "web:     $web_line"
desk_line=$(cargo run --release --quiet -- --headless --frames 600 --launch 50)
echo "desktop: $desk_line"
if [ -z "$web_line" ]; then
  echo "web test: the page printed no summary line (see $shots/chromium.log)" >&2
  exit 1
fi
if [ "$(untimed <<<"$web_line")" != "$(untimed <<<"$desk_line")" ]; then
  echo "web test: the browser's run differs from the desktop's: web ${web_line##* }, desktop ${desk_line##* }" >&2
  exit 1
fi
echo "web test: same summary as the desktop, ${web_line##* }"

echo "+ the table drawn, 300 frames in real time"
rm -f "$shots/table.png"
mapfile -t page < <(python3 web/browser.py "${url}?launch=50&frames=300" "$shots/table.png" \
  "$shots/chromium.log" --use-angle=swiftshader --enable-unsafe-swiftshader --window-size=1000,800)
echo "page: ${page[0]:-}; first frame ${page[1]:-?} ms after loading began"
python3 web/check_shot.py "$shots/table.png"
desk300=$(cargo run --release --quiet -- --headless --frames 300 --launch 50)
if [ "$(untimed <<<"${page[2]:-}")" != "$(untimed <<<"$desk300")" ]; then
  echo "web test: the drawn run's 300 frames differ from the desktop's: web '${page[2]:-}', desktop '$desk300'" >&2
  exit 1
fi
echo "web test: the drawn run ends as the desktop's, ${desk300##* }; screenshot $shots/table.png"

echo "+ a bad parameter"
refusal=$(browse 5000 --dump-dom "${url}?launch=5000" | element status)
echo "page: $refusal"
if [ "$refusal" != 'error: launch: "5000" is not a whole number from 0 to 1000' ]; then
  echo "web test: ?launch=5000 was not refused with its message" >&2
  exit 1
fi

echo "+ no WebGL"
nogl=$(browse 5000 --disable-3d-apis --dump-dom "$url" | element status)
echo "page: $nogl"
if [[ "$nogl" != *"could not give the page WebGL"* ]]; then
  echo "web test: a browser without WebGL did not get the message" >&2
  exit 1
fi
echo "web test: passed"
