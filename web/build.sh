#!/usr/bin/env bash
# Builds the toy for the web into target/web/: the app itself (the root package, every scene,
# panel and window) compiled for wasm32-unknown-unknown with WebAssembly's SIMD (`simd128`:
# the soft contacts' four-lane kernel, the grid's box tests) as collision-math-toy.wasm, the
# page (index.html, page.js) and macroquad's JS loader (mq_js_bundle.js, copied from the
# macroquad crate's own sources). Says which toolchain it used:
#  - rustup's, when it has the wasm32-unknown-unknown target (`rustup target add
#    wasm32-unknown-unknown` adds it);
#  - else Debian's rustc-web, cargo-web, rust-web-src and lld, installed when missing, with
#    std built for the target from its sources (RUSTC_BOOTSTRAP=1, -Zbuild-std).
# WEB_TOOLCHAIN=rustup or WEB_TOOLCHAIN=debian picks one; WEB_TARGET_DIR (default
# target/wasm) holds the build. The release profile is the desktop's but for the page's needs
# (set here, so Cargo.toml keeps one): no debug info, link-time optimisation, one codegen
# unit, abort on panic, and optimised for size (opt-level s) but for the physics library
# (`collide`, opt-level 3). Then, on either route (the tools installed when missing: Debian's
# binaryen, brotli and python3-fonttools):
#  - the panels' fonts inside the module are cut to the characters the toy writes
#    (web/fonts.py);
#  - binaryen's wasm-opt -O2 optimises it (inlining a function with one caller only when
#    small) and strips the names (WEB_KEEP_NAMES=1 keeps them,
#    for a profile with function names: the linker then keeps its name section, which
#    rebuilds every crate once, and wasm-opt carries it through with -g);
#  - every file is precompressed beside itself (.gz, .br) for web/serve.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/target/web
target=wasm32-unknown-unknown
export CARGO_TARGET_DIR=${WEB_TARGET_DIR:-$root/target/wasm}
# The imports the JS side provides (miniquad's gl.js, the plugins) are resolved when the page
# loads the module, not when it is linked. simd128 for every crate (std too on the Debian
# route): a browser without WebAssembly SIMD refuses the module, and the page says so in words
# before loading it (index.html).
export RUSTFLAGS="-C link-arg=--allow-undefined -C target-feature=+simd128"
export CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_LTO=true
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_PANIC=abort
export CARGO_PROFILE_RELEASE_OPT_LEVEL=s
# The linker strips the names unless told not to (Cargo's default for a profile without
# debug info); a profile build keeps them.
[ "${WEB_KEEP_NAMES:-0}" = 1 ] && export CARGO_PROFILE_RELEASE_STRIP=none
build_args=(build --release --bin collision-math-toy --target "$target"
  --config 'profile.release.package.collide.opt-level=3')

rustup_has_target() {
  command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx "$target"
}

# Installs the Debian packages of "$@" that are missing (one `apt-get update` for all).
apt_install() {
  local missing=() p status
  for p in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "+ apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

debian_packages() {
  apt_install rustc-web cargo-web rust-web-src lld
  # rustc links wasm with rust-lld, which rust-web-llvm makes a link to an lld of LLVM's
  # version (lld-22 for rustc-web 1.96), a package of its own that `lld` is not.
  local lld
  lld=$(readlink /usr/bin/rust-lld || true)
  if [ -n "$lld" ] && ! command -v "$lld" >/dev/null; then
    echo "+ apt-get install $lld (rust-lld links to it)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$lld" >/dev/null
  fi
}

# After the module: wasm-opt, brotli and fontTools (for the system's python3).
apt_install binaryen brotli python3-fonttools
python=python3
python3 -c 'import fontTools' 2>/dev/null || python=/usr/bin/python3

choice=${WEB_TOOLCHAIN:-}
if [ -z "$choice" ]; then
  if rustup_has_target; then choice=rustup; else choice=debian; fi
fi
start=$(date +%s)
case $choice in
  rustup)
    echo "web: toolchain: rustup, $(rustc --version), target $target"
    cargo "${build_args[@]}"
    ;;
  debian)
    debian_packages
    echo "web: toolchain: Debian rustc-web, $(/usr/bin/rustc --version), std built from rust-web-src for $target"
    RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc /usr/bin/cargo "${build_args[@]}" \
      -Zbuild-std=std,panic_abort
    ;;
  *)
    echo "web: WEB_TOOLCHAIN must be rustup or debian, not '$choice'" >&2
    exit 2
    ;;
esac

# macroquad's loader, from the version Cargo.lock names, in the cargo registry's sources.
registry=${CARGO_HOME:-$HOME/.cargo}/registry/src
locked() { grep -A1 "^name = \"$1\"$" Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p'; }
version=$(locked macroquad)
bundle=$(ls "$registry"/*/"macroquad-$version/js/mq_js_bundle.js" | head -n1)
rm -rf "$out"
mkdir -p "$out"
wasm=$out/collision-math-toy.wasm
built=$CARGO_TARGET_DIR/$target/release/collision-math-toy.wasm
compiled=$(($(date +%s) - start))

# The fonts cut to the characters in the app's, the library's, egui's and egui_plot's sources.
sources=(src crates)
for crate in egui egui_plot; do
  sources+=("$(ls -d "$registry"/*/"$crate-$(locked "$crate")/src" | head -n1)")
done
"$python" web/fonts.py "$built" "$out/cut.wasm" Cargo.lock "$registry" "${sources[@]}"

# -O2 keeps the speed; the names section (368 KB) and the producers go unless kept. A
# function called from one place is inlined there only up to 100 bytes (-ocimfs; binaryen's
# default inlines any size): the step then stays several functions, which the browser's
# optimizing compiler takes each alone and sooner (docs/benchmarks.md), and the module is
# smaller.
strip=(--strip-debug --strip-producers)
[ "${WEB_KEEP_NAMES:-0}" = 1 ] && strip=(-g)
wasm-opt -O2 -ocimfs 100 "${strip[@]}" --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals "$out/cut.wasm" -o "$wasm"
rm "$out/cut.wasm"
cp web/index.html web/page.js "$out/"
cp "$bundle" "$out/"

# Each file precompressed beside itself, as web/serve.sh sends them.
for f in "$out"/*; do
  gzip -9 -n -k "$f"
  brotli -q 11 -k "$f"
done
echo "web: compiled in $compiled s, $(($(date +%s) - start)) s in all, into target/web/:" \
  ".wasm $(stat -c %s "$wasm") bytes, $(stat -c %s "$wasm.gz") gzipped, $(stat -c %s "$wasm.br")" \
  "with brotli (wasm-opt -O2 from $(stat -c %s "$built") bytes); loader from macroquad $version"
