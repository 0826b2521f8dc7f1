#!/usr/bin/env bash
# The web version's test, for CI: builds it (web/build.sh), serves target/web/ on 127.0.0.1
# and loads it in headless Chromium (SwiftShader WebGL) in real time (web/browser.py, which
# keeps each page's screenshot, DOM and console under target/web-test/), beside the desktop
# app run with the same flags:
#  1. the README's headless example (?launch=50&frames=600&headless): its summary line, read
#     from the page's DOM, equals the desktop's (`--headless --frames 600 --launch 50`) in
#     every field but the timings (fps, physics_ms, physics_ms_last), the hash included;
#  2. the table drawn for 300 frames (?launch=50&frames=300): the screenshot shows the shapes
#     and the balls and agrees with the desktop window's screenshot of the same run within a
#     tolerance (web/check_shot.py), and the run ends on the desktop's summary;
#  3. URL parameters applied: pinball with the AABBs shown and the grid
#     (?scene=pinball&show=aabbs&broad-phase=grid&frames=120), drawn as the desktop draws it;
#     Newton's cradle with sweep and prune and soft contacts, headless, with the desktop's
#     summary; a field filled with 2,000 balls, its summary showing them, with the desktop's
#     hash; a Fill of 3,000 on the table (soft contacts: the scalar kernel in the browser, the
#     AVX2 one on the desktop), with the desktop's hash;
#  4. a bad parameter (?launch=5000) is refused with the desktop's message, shown in the page;
#  5. the canvas follows the device pixel ratio (a 640 x 400 window at ratio 2: 1280 x 800);
#  6. a browser without WebGL gets the page's message in words.
# The desktop's windows need a display: $DISPLAY, else an Xvfb started here. Installs chromium
# when missing. Exits 1 on the first failure, saying what differed.
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

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
if [ -z "${DISPLAY:-}" ]; then
  xnum=$(mktemp)
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$xnum" >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$xnum" ] && break; sleep 0.1; done
  export DISPLAY=":$(tr -d '[:space:]' <"$xnum")"
fi

# A free port, then the server; it stops with the script.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
web/serve.sh "$port" >"$shots/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.1
done
url="http://127.0.0.1:$port/"

# `load NAME QUERY [FLAG ...]`: the page until its run ends; sets `page` to its status, first
# frame (ms), canvas size and summary line; keeps $shots/NAME.{png,html,console}.
load() {
  local name=$1 query=$2
  shift 2
  mapfile -t page < <(python3 web/browser.py "$url$query" "$shots/$name" "$shots/chromium.log" \
    --use-angle=swiftshader --enable-unsafe-swiftshader "$@")
}
element() { # the text of the element with id $1 in the HTML on stdin
  python3 -c 'import html, re, sys; m = re.search(r"id=\"" + sys.argv[1] + r"\"[^>]*>([^<]*)<", sys.stdin.read()); print(html.unescape(m.group(1)).strip() if m else "")' "$1"
}
summary_of() { # the summary line in the page's HTML file $1
  # awk reads to the end: a reader that quits at the match would break the writer's pipe.
  element summary <"$1" | awk '/^frames=/ && !done { print; done = 1 }'
}
untimed() { # a summary line without its timings
  tr ' ' '\n' | grep -vE '^(fps|physics_ms|physics_ms_last)=' | tr '\n' ' '
}
desktop() { # the desktop's summary line for these flags
  cargo run --release --quiet -- "$@" | awk '/^frames=/ && !done { print; done = 1 }'
}
same() { # same simulation: the lines $2 (web) and $3 (desktop) of run $1 agree but for timings
  echo "web:     $2"
  echo "desktop: $3"
  if [ -z "$2" ]; then
    echo "web test: $1: the page printed no summary line (see $shots/*.console)" >&2
    exit 1
  fi
  if [ "$(untimed <<<"$2")" != "$(untimed <<<"$3")" ]; then
    echo "web test: $1: the browser's run differs from the desktop's: web ${2##* }, desktop ${3##* }" >&2
    exit 1
  fi
  echo "web test: $1: the same summary as the desktop, ${3##* }"
}
drawn() { # `drawn NAME QUERY FLAG...`: the page and the desktop window draw the same run
  local name=$1 query=$2
  shift 2
  load "$name" "$query"
  echo "page: first frame drawn ${page[1]:-?} ms after loading began"
  local line
  line=$(desktop "$@" --renderer gpu --screenshot "$shots/$name-desktop.png")
  python3 web/check_shot.py "$shots/$name.png" "$shots/$name-desktop.png"
  same "$name" "$(summary_of "$shots/$name.html")" "$line"
}

echo "+ the headless example in the browser"
load headless '?launch=50&frames=600&headless'
same "the headless example" "$(summary_of "$shots/headless.html")" \
  "$(desktop --headless --frames 600 --launch 50)"

echo "+ the table drawn for 300 frames, beside the desktop's window"
drawn table '?launch=50&frames=300' --launch 50 --frames 300

echo "+ URL parameters: pinball, AABBs shown, the grid"
drawn pinball '?scene=pinball&show=aabbs&broad-phase=grid&frames=120' \
  --scene pinball --show aabbs --broad-phase grid --frames 120
# Read whole, not piped into `grep -q`: grep would stop at the match and, under pipefail,
# the writer's broken pipe would fail the test.
line=$(summary_of "$shots/pinball.html")
if [[ "$line" != *" broad=grid "* ]]; then
  echo "web: $line" >&2
  echo "web test: ?broad-phase=grid was not applied" >&2
  exit 1
fi
echo "+ URL parameters: Newton's cradle, sweep and prune, soft contacts, headless"
load cradle '?scene=cradle&broad-phase=sap&solver=soft&frames=120&headless'
same "the cradle" "$(summary_of "$shots/cradle.html")" \
  "$(desktop --scene cradle --broad-phase sap --solver soft --frames 120 --headless)"
# A fill's random directions go through sin and cos: the library's own (geom/angle.rs), so
# the browser's run is the desktop's to the bit here too.
echo "+ URL parameters: a field of 2,000 balls, headless"
load field '?scene=field&fill=2000&broad-phase=sap&frames=60&headless'
line=$(summary_of "$shots/field.html")
if [[ "$line" != *" balls=2000 "*" broad=sap solver=push-out "* ]]; then
  echo "web: $line" >&2
  echo "web test: ?scene=field&fill=2000&broad-phase=sap was not applied" >&2
  exit 1
fi
same "the field of 2,000" "$line" \
  "$(desktop --scene field --fill 2000 --broad-phase sap --frames 60 --headless)"

# A Fill of more than 1,000 balls takes soft contacts: the browser runs the solver's scalar
# kernel, the desktop its AVX2 kernel where the CPU has one; the same bits either way.
echo "+ soft contacts: a Fill of 3,000 balls, headless"
load soft '?fill=3000&frames=60&headless'
same "the soft Fill of 3,000" "$(summary_of "$shots/soft.html")" \
  "$(desktop --fill 3000 --frames 60 --headless)"

echo "+ a bad parameter"
load refused '?launch=5000'
refusal=$(element status <"$shots/refused.html")
expected=$(cargo run --release --quiet -- --launch 5000 2>&1 || true)
echo "page:    $refusal"
echo "desktop: $expected"
if [ "$refusal" != "$expected" ]; then
  echo "web test: ?launch=5000 was not refused with the desktop's message" >&2
  exit 1
fi

echo "+ the device pixel ratio: a 640 x 400 window at ratio 2"
WEB_VIEWPORT=640x400@2 load dpr '?frames=5'
echo "page: canvas ${page[2]:-?}"
if [ "${page[2]:-}" != 1280x800 ]; then
  echo "web test: the canvas does not follow the device pixel ratio" >&2
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
