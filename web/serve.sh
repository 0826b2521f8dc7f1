#!/usr/bin/env bash
# Serves target/web/ (built by web/build.sh) on http://127.0.0.1:PORT/ (default 8034), each
# file as its precompressed copy (.br, else .gz) with its Content-Encoding where the browser
# accepts it, and 304 Not Modified to a browser asking again for an unchanged one (web/serve.py).
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8034}
echo "web: http://127.0.0.1:$port/  (headless example: http://127.0.0.1:$port/?launch=50&frames=600&headless)"
exec python3 web/serve.py target/web "$port"
