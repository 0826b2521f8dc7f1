#!/usr/bin/env bash
# The web version's test, for CI: builds it (web/build.sh), serves target/web/ on 127.0.0.1
# (web/serve.sh: precompressed files) and loads it in headless Chromium (SwiftShader WebGL) in
# real time (web/browser.py, which keeps each page's screenshot, DOM and console under
# target/web-test/ and presses keys, turns the wheel and drags through the DevTools
# protocol), beside the desktop app run with the same flags:
#  1. the module: at most 1.2 MB gzipped (the size budget), no names section, built with
#     simd128, and served as its brotli or gzip copy with that Content-Encoding and the type
#     application/wasm;
#  2. the README's headless example (?launch=50&frames=600&headless): its summary line, read
#     from the page's DOM, equals the desktop's (`--headless --frames 600 --launch 50`) in
#     every field but the timings (fps, physics_ms, physics_ms_last), the hash included; the
#     console clean (no warning, error or exception);
#  3. the table drawn for 300 frames (?launch=50&frames=300): the screenshot shows the shapes
#     and the balls and agrees with the desktop window's screenshot of the same run within a
#     tolerance (web/check_shot.py), and the run ends on the desktop's summary;
#  4. URL parameters applied: pinball with the AABBs shown and the grid, drawn as the desktop
#     draws it; Newton's cradle with sweep and prune and soft contacts, headless; a field filled
#     with 2,000 balls; a Fill of 3,000 on the table (soft contacts: WebAssembly's SIMD kernel
#     in the browser, AVX2 on the desktop); each with the desktop's hash; and ?check=kernels:
#     the SIMD kernel gives the scalar kernel's bits as the browser runs them;
#  5. refusals and answers as readable text in the page, in parameters, never a trap: a bad
#     parameter (?launch=5000, the desktop's message with launch=N for --launch <N>), ?help
#     (the parameters, a page that scrolls), ?tour=list and ?tour=99;
#  6. the page as a person uses it (the table, 1280 x 800): F1 opens Help and Esc closes it
#     and the page goes on; one wheel notch scrolls the side panel by lines, not to its end;
#     F5 and F12 reach the browser untouched (no download), S downloads the PNG; the first drag
#     on the table after choosing from a drop-down launches a ball; Experiment's Run shows its
#     progress while the page keeps drawing; a clean console;
#  7. nothing reaches the module after a run ends (moves, clicks, keys, focus: no exception);
#  8. at 800 x 600 the record bar's scene Load is on screen (it opens the file chooser);
#  9. an address's settings are for that visit only (?tour=3 then a plain visit has the
#     default iterations), unless the page's Keep button keeps them; a last scene that cannot
#     be restored says so on the page;
# 10. the canvas follows the device pixel ratio (a 640 x 400 window at ratio 2: 1280 x 800);
# 11. a browser without WebGL, or without WebAssembly SIMD, gets the page's message in words;
# 12. the first frame's time cold over a line throttled to 10 Mbit/s (reported, not held to a
#     limit: a test asserts no time).
# The desktop's windows need a display: $DISPLAY, else an Xvfb started here. Installs chromium
# and Xvfb when missing. WEB_NO_BUILD=1 skips the build (target/web/ as last built). Exits 1
# on the first failure, saying what differed.
set -euo pipefail
cd "$(dirname "$0")/.."
shots=target/web-test
rm -rf "$shots"
mkdir -p "$shots"

# Installs Debian's package $1 unless dpkg says it is installed.
need() {
  local status
  status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)
  if [ "$status" != "install ok installed" ]; then
    echo "+ apt-get install $1"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "$1" >/dev/null
  fi
}
need chromium

# WEB_NO_BUILD=1 tests target/web/ as it was last built.
[ "${WEB_NO_BUILD:-0}" = 1 ] || web/build.sh

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
if [ -z "${DISPLAY:-}" ]; then
  need xvfb
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
  [ -n "$2" ] || fail "$1: the page printed no summary line (see $shots/*.console)"
  [ "$(untimed <<<"$2")" = "$(untimed <<<"$3")" ] ||
    fail "$1: the browser's run differs from the desktop's: web ${2##* }, desktop ${3##* }"
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

fail() { # the test's failure: what differed
  echo "web test: $*" >&2
  exit 1
}
clean() { # the console of page $1 has no warning, error or exception
  local bad
  bad=$(grep -E '^(warning|error|exception):' "$shots/$1.console" || true)
  [ -z "$bad" ] || fail "$1: the console is not clean: $bad"
}
said() { # the line the page printed for action $2 (`facts NAME ...`, `eval NAME ...`) of $1
  printf '%s\n' "${page[@]}" | awk -v k="$1 $2" 'index($0, k " ") == 1 { print substr($0, length(k) + 2) }'
}
json() { # the value at the path $2 (a Python subscript, e.g. '["help"]') of the JSON $1
  python3 -c 'import json, sys; print(json.dumps(eval("json.loads(sys.argv[1])" + sys.argv[2])))' "$1" "$2"
}
text_of() { # the page's text in place of the toy (#text), title and body, of the HTML file $1
  python3 -c 'import html, re, sys; t = sys.stdin.read(); m = re.search(r"<section id=\"text\"[^>]*>(.*?)</section>", t, re.S); print(html.unescape(re.sub(r"<[^>]+>", "\n", m.group(1))).strip() if m and "hidden" not in t[m.start():m.start() + 40] else "")' <"$1"
}

echo "+ the module: size, names, SIMD, compressed copies"
wasm=target/web/collision-math-toy.wasm
budget=1200000
gz=$(stat -c %s "$wasm.gz")
echo "module: $(stat -c %s "$wasm") bytes, $gz gzipped (budget $budget), $(stat -c %s "$wasm.br") with brotli"
[ "$gz" -le "$budget" ] || fail "the module is $gz bytes gzipped, over the budget of $budget"
python3 - "$wasm" <<'PY' || fail "the module's sections are not as built"
import sys
data = open(sys.argv[1], "rb").read()
def leb(i):
    r = s = 0
    while True:
        b = data[i]; i += 1; r |= (b & 0x7F) << s; s += 7
        if b < 0x80: return r, i
i, names, simd = 8, [], False
while i < len(data):
    sid = data[i]; size, j = leb(i + 1)
    if sid == 0:
        n, k = leb(j); names.append(data[k:k + n].decode())
        # The features the module was built with, one name each (simd128 among them).
        simd |= names[-1] == "target_features" and b"simd128" in data[k + n:j + size]
    i = j + size
print("custom sections:", names or "none", "; built with simd128:", simd)
sys.exit(0 if "name" not in names and simd else 1)
PY
for enc in br gzip identity; do
  got=$(python3 -c 'import sys, urllib.request as u; r = u.urlopen(u.Request(sys.argv[1], headers={"Accept-Encoding": sys.argv[2]})); print(r.headers.get("Content-Encoding", "identity"), r.headers.get("Content-Type"))' "${url}collision-math-toy.wasm" "$enc")
  echo "served for Accept-Encoding $enc: $got"
  [ "$got" = "$enc application/wasm" ] || fail "the module was served as '$got' for Accept-Encoding $enc"
done
# A returning visit: asked again with the copy's ETag or its time, the server says 304 and
# sends nothing (the browser keeps the module it has); another tag gets it.
got=$(python3 - "${url}collision-math-toy.wasm" <<'PY'
import sys, urllib.error, urllib.request as u
def ask(extra):
    h = {"Accept-Encoding": "gzip", **extra}
    try:
        r = u.urlopen(u.Request(sys.argv[1], headers=h))
        return r.status, r.headers, len(r.read())
    except urllib.error.HTTPError as e:
        return e.code, e.headers, len(e.read())
status, headers, _ = ask({})
tag, time = headers["ETag"], headers["Last-Modified"]
print(ask({"If-None-Match": tag})[::2], ask({"If-Modified-Since": time})[::2],
      ask({"If-None-Match": '"other"'})[0])
PY
)
echo "asked again (by tag, by time, another tag): $got"
[ "$got" = "(304, 0) (304, 0) 200" ] || fail "the module asked again gave '$got', not 304 twice then 200"

echo "+ the headless example in the browser"
load headless '?launch=50&frames=600&headless'
same "the headless example" "$(summary_of "$shots/headless.html")" \
  "$(desktop --headless --frames 600 --launch 50)"
clean headless

echo "+ the table drawn for 300 frames, beside the desktop's window"
drawn table '?launch=50&frames=300' --launch 50 --frames 300

echo "+ URL parameters: pinball, AABBs shown, the grid"
drawn pinball '?scene=pinball&show=aabbs&broad-phase=grid&frames=120' \
  --scene pinball --show aabbs --broad-phase grid --frames 120
# Read whole, not piped into `grep -q`: grep would stop at the match and, under pipefail,
# the writer's broken pipe would fail the test.
line=$(summary_of "$shots/pinball.html")
[[ "$line" == *" broad=grid "* ]] || fail "?broad-phase=grid was not applied: $line"
echo "+ URL parameters: Newton's cradle, sweep and prune, soft contacts, headless"
load cradle '?scene=cradle&broad-phase=sap&solver=soft&frames=120&headless'
same "the cradle" "$(summary_of "$shots/cradle.html")" \
  "$(desktop --scene cradle --broad-phase sap --solver soft --frames 120 --headless)"
# A fill's random directions go through sin and cos: the library's own (geom/angle.rs), so
# the browser's run is the desktop's to the bit here too.
echo "+ URL parameters: a field of 2,000 balls, headless"
load field '?scene=field&fill=2000&broad-phase=sap&frames=60&headless'
line=$(summary_of "$shots/field.html")
[[ "$line" == *" balls=2000 "*" broad=sap solver=push-out "* ]] ||
  fail "?scene=field&fill=2000&broad-phase=sap was not applied: $line"
same "the field of 2,000" "$line" \
  "$(desktop --scene field --fill 2000 --broad-phase sap --frames 60 --headless)"

# A Fill of more than 1,000 balls takes soft contacts: the browser runs the solver's
# WebAssembly SIMD kernel (four lanes), the desktop its AVX2 kernel where the CPU has one; the
# same bits either way.
echo "+ soft contacts: a Fill of 3,000 balls, headless"
load soft '?fill=3000&frames=60&headless'
same "the soft Fill of 3,000" "$(summary_of "$shots/soft.html")" \
  "$(desktop --fill 3000 --frames 60 --headless)"
echo "page: $(element summary <"$shots/soft.html" | grep '^profile' || true)"

echo "+ the SIMD kernel against the scalar kernel, in the browser (?check=kernels)"
load kernels '?check=kernels'
row=$(element summary <"$shots/kernels.html" | grep '^kernels ' || true)
echo "page: $row"
[[ "$row" =~ ^kernels\ +[1-9][0-9]*\ +0\ +simd128\ \(4\ lanes\) ]] ||
  fail "?check=kernels did not hold the SIMD kernel to the scalar kernel's bits: '$row'"

echo "+ a bad parameter"
load refused '?launch=5000'
refusal=$(text_of "$shots/refused.html")
expected=$(cargo run --release --quiet -- --launch 5000 2>&1 | head -n1 || true)
expected=${expected//"'--launch <N>'"/"'launch=N'"}
echo "page:    ${refusal//$'\n'/ | }"
echo "desktop: $expected (in parameters)"
[[ "$refusal" == *"$expected"* && "$refusal" != *"--"* ]] ||
  fail "?launch=5000 was not refused with the desktop's message in parameters"
clean_refusal=$(grep -c '^exception:' "$shots/refused.console" || true)
[ "$clean_refusal" = 0 ] || fail "?launch=5000 threw"

echo "+ ?help: the parameters, a page that scrolls"
load help '?help' do:eval:scrolls:"(t => (t.scrollTop = 300, t.scrollTop > 0))(document.getElementById('text'))"
help=$(text_of "$shots/help.html")
echo "page: $(head -n1 <<<"$help"), $(wc -l <<<"$help") lines, scrolls: $(said eval scrolls)"
[[ "$help" == *"launch=N"* && "$help" == *"check=kernels"* && "$help" != *"--"* ]] ||
  fail "?help does not list the parameters in the page's words"
[ "$(said eval scrolls)" = true ] || fail "?help's page does not scroll"
clean help

echo "+ ?tour=list and ?tour=99"
load tours '?tour=list'
tours=$(text_of "$shots/tours.html")
echo "page: $(head -n1 <<<"$tours"), $(wc -l <<<"$tours") lines"
[ "$(wc -l <<<"$tours")" -gt 5 ] || fail "?tour=list shows no list"
clean tours
load tour99 '?tour=99'
refusal=$(text_of "$shots/tour99.html")
echo "page: ${refusal//$'\n'/ | }"
[[ "$refusal" == *"'99' for 'tour="*"99 is not in"* ]] || fail "?tour=99 was not refused in words"
! grep -q '^exception:' "$shots/tour99.console" || fail "?tour=99 threw: $(cat "$shots/tour99.console")"

echo "+ the page as a person uses it: keys, the wheel, a drop-down, the experiment"
# Places on a 1280 x 800 page: the side panel's text, the Scene drop-down and its first item,
# the table, the Experiment button and the experiment window's Run button.
WEB_UNTIL=frame load person '' do:frames:5 do:facts:start \
  do:key:F1 do:frames:3 do:facts:help do:shot:help \
  do:key:Escape do:frames:3 do:facts:esc do:eval:ended:'window.cmt_ended || null' \
  do:shot:wheel0 do:wheel:1120,450,120 do:frames:4 do:shot:wheel1 \
  do:eval:listen:"(window.cmt_keys = [], addEventListener('keydown', e => cmt_keys.push(e), true), 0)" \
  do:key:F12 do:key:F5 do:key:KeyS do:frames:3 \
  do:eval:keys:"cmt_keys.map(e => e.code + ':' + e.defaultPrevented).join(' ')" \
  do:eval:downloads:'cmt_downloads.join(" ")' \
  do:click:1067,86 do:frames:3 do:click:1060,111 do:frames:2 do:facts:chosen \
  do:drag:400,400,460,350 do:frames:4 do:facts:dragged \
  do:click:45,782 do:frames:3 do:shot:experiment do:click:331,108 do:frames:4 do:facts:running \
  do:frames:10 do:facts:later
for k in start help esc chosen dragged running later; do echo "facts $k: $(said facts "$k")"; done
[ "$(json "$(said facts help)" '["help"]')" = true ] || fail "F1 did not open Help"
[ "$(json "$(said facts esc)" '["help"]')" = false ] || fail "Esc did not close Help"
[ "$(said eval ended)" = null ] || fail "Esc ended the page"
(( $(json "$(said facts esc)" '["frames"]') > $(json "$(said facts help)" '["frames"]') )) ||
  fail "the page stopped after Esc"
shift=$(python3 web/scrolled.py "$shots/person-wheel0.png" "$shots/person-wheel1.png" 975 1270 120 700)
echo "one wheel notch (deltaY 120) scrolled the side panel by ${shift% *} px"
(( ${shift% *} >= 20 && ${shift% *} <= 120 )) || fail "one wheel notch scrolled the panel by ${shift% *} px, not a few lines"
echo "keys seen by the page: $(said eval keys); downloads: $(said eval downloads)"
[[ "$(said eval keys)" == *'"F12:false F5:false '* ]] || fail "F12 or F5 was taken from the browser"
[[ "$(said eval downloads)" =~ ^\"screenshot-.*\.png\"$ ]] || fail "S did not download one PNG (F12 none)"
before=$(json "$(said facts chosen)" '["balls"]')
after=$(json "$(said facts dragged)" '["balls"]')
(( after == before + 1 )) || fail "the first drag after choosing from a drop-down launched $((after - before)) balls, not 1"
running=$(json "$(said facts running)" '["experiment"]')
later=$(json "$(said facts later)" '["experiment"]')
echo "experiment progress: $running, then $later"
[[ "$running" != null ]] && python3 -c "import sys; sys.exit(not 0 <= $running < $later)" ||
  fail "the experiment showed no progress between frames"
clean person

echo "+ after a run ends, nothing reaches the module"
load ended '?frames=20' do:move:300,300 do:click:400,400 do:key:KeyP do:key:Space do:focus \
  do:wheel:1100,400,120 do:sleep:1
grep -q '^exception:' "$shots/ended.console" && fail "input after the end threw: $(grep '^exception:' "$shots/ended.console")"
clean ended

echo "+ 800 x 600: the record bar's scene Load is on screen"
WEB_VIEWPORT=800x600@1 WEB_UNTIL=frame load small '' do:frames:5 do:shot:bar \
  do:click:287,588 do:frames:2 do:eval:picks:'cmt_picks'
echo "page: file choosers opened: $(said eval picks)"
[ "$(said eval picks)" = 1 ] || fail "the scene's Load could not be reached at 800 x 600"

echo "+ an address's settings are for its visit; a lost last scene says so"
WEB_UNTIL=frame load settings '?tour=3' do:frames:3 do:facts:tour \
  do:goto: do:frames:3 do:facts:plain \
  do:goto:?tour=3 do:frames:3 do:eval:keep:"document.querySelector('#keep button').click(), 1" \
  do:frames:65 do:goto: do:frames:3 do:facts:kept \
  do:eval:lost:"localStorage.setItem('collision-math-toy/settings.ron', '(last_scene: Some(\"my.ron\"))'), 1" \
  do:goto: do:frames:3 do:eval:notice:"document.getElementById('notice').hidden ? '' : document.getElementById('notice').textContent.trim()"
for k in tour plain kept; do echo "facts $k: $(said facts "$k")"; done
echo "notice: $(said eval notice)"
tour_it=$(json "$(said facts tour)" '["iterations"]')
[ "$(json "$(said facts tour)" '["settings"]')" = '"visit"' ] || fail "?tour=3 was not offered as this visit's settings"
[ "$(json "$(said facts plain)" '["iterations"]')" != "$tour_it" ] || fail "?tour=3's iterations stuck to a plain visit"
[ "$(json "$(said facts kept)" '["iterations"]')" = "$tour_it" ] || fail "Keep did not keep ?tour=3's settings"
[[ "$(said eval notice)" == *my.ron* ]] || fail "a last scene that cannot be restored did not say so"

echo "+ the device pixel ratio: a 640 x 400 window at ratio 2"
WEB_VIEWPORT=640x400@2 load dpr '?frames=5'
echo "page: canvas ${page[2]:-?}"
[ "${page[2]:-}" = 1280x800 ] || fail "the canvas does not follow the device pixel ratio"

echo "+ no WebGL; no WebAssembly SIMD"
load no-webgl '' --disable-3d-apis
nogl=$(text_of "$shots/no-webgl.html")
echo "page: ${nogl//$'\n'/ | }"
[[ "$nogl" == *"could not give the page WebGL"* ]] || fail "a browser without WebGL did not get the message"
WEB_PRELOAD='WebAssembly.validate = () => false;' load no-simd ''
nosimd=$(text_of "$shots/no-simd.html")
echo "page: ${nosimd//$'\n'/ | }"
[[ "$nosimd" == *"WebAssembly SIMD"* ]] || fail "a browser without WebAssembly SIMD did not get the message"

echo "+ the first frame, cold, at 10 Mbit/s"
WEB_THROTTLE=10 WEB_UNTIL=frame load cold ''
echo "page: first frame drawn ${page[1]:-?} ms after loading began (the goal: 2,500 ms)"
echo "web test: passed"
