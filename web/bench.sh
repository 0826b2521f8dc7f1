#!/usr/bin/env bash
# The browser's physics against the desktop's, on this machine: each case run headless in the
# page (headless Chromium, web/browser.py) and by the desktop app with the same flags, one
# after the other, ROUNDS times (default 5, interleaved so that a busy machine slows both),
# and the medians of `physics_ms` (the mean physics time a frame over the run, one thread on
# both) printed with their ratio. Then the first frame of the table, cold (no cache, a fresh
# profile) over a line throttled to 10 Mbit/s (Chromium's own throttling), ROUNDS times, and
# its median. Expects target/web/ built (web/build.sh) and builds the desktop app
# (cargo build --release). Prints the CPU's model name first.
#
# Usage: web/bench.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
cases=(
  "table, Fill 10,000|fill=10000&frames=300|--fill 10000 --frames 300"
  "table, Fill 3,000|fill=3000&frames=300|--fill 3000 --frames 300"
  "field 10,000, push-out, grid|scene=field&fill=10000&solver=push-out&broad-phase=grid&frames=300|--scene field --fill 10000 --solver push-out --broad-phase grid --frames 300"
)
cargo build --release --quiet
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(chromium --version 2>/dev/null)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 web/serve.py target/web "$port" 2>/dev/null &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
sleep 1
tmp=$(mktemp -d)
ms() { tr ' ' '\n' | sed -n 's/^physics_ms=//p' | head -n1; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for c in "${cases[@]}"; do
  IFS='|' read -r name query flags <<<"$c"
  web=() desk=()
  for _ in $(seq "$rounds"); do
    # awk reads to the end: a reader that quits at the match would break the writer's pipe.
    line=$(python3 web/browser.py "http://127.0.0.1:$port/?$query&headless" "$tmp/p" "$tmp/log" \
      --use-angle=swiftshader --enable-unsafe-swiftshader | awk '/^frames=/ && !n { print; n = 1 }')
    web+=("$(ms <<<"$line")")
    # shellcheck disable=SC2086
    line=$(target/release/collision-math-toy $flags --threads 1 --headless 2>/dev/null | awk '/^frames=/ && !n { print; n = 1 }')
    desk+=("$(ms <<<"$line")")
  done
  w=$(printf '%s\n' "${web[@]}" | median)
  d=$(printf '%s\n' "${desk[@]}" | median)
  echo "$name: browser ${web[*]} (median $w), desktop ${desk[*]} (median $d): $(awk -v w="$w" -v d="$d" 'BEGIN { printf "%.2f", w / d }')x"
done
first=()
for _ in $(seq "$rounds"); do
  mapfile -t page < <(WEB_THROTTLE=10 WEB_UNTIL=frame python3 web/browser.py \
    "http://127.0.0.1:$port/" "$tmp/p" "$tmp/log" --use-angle=swiftshader --enable-unsafe-swiftshader)
  first+=("${page[1]}")
done
echo "first frame, cold at 10 Mbit/s: ${first[*]} ms (median $(printf '%s\n' "${first[@]}" | median) ms)"
rm -rf "$tmp"
