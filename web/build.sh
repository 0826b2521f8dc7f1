#!/usr/bin/env bash
# Builds the toy for the web into target/web/: the app itself (the root package, every scene,
# panel and window) compiled for wasm32-unknown-unknown as collision-math-toy.wasm, the page
# (index.html, page.js) and macroquad's JS loader (mq_js_bundle.js, copied from the macroquad
# crate's own sources). Says which toolchain it used:
#  - rustup's, when it has the wasm32-unknown-unknown target (`rustup target add
#    wasm32-unknown-unknown` adds it);
#  - else Debian's rustc-web, cargo-web, rust-web-src and lld, installed when missing, with
#    std built for the target from its sources (RUSTC_BOOTSTRAP=1, -Zbuild-std).
# WEB_TOOLCHAIN=rustup or WEB_TOOLCHAIN=debian picks one; WEB_TARGET_DIR (default
# target/wasm) holds the build. The release profile is the desktop's but for the page's needs
# (set here, so Cargo.toml keeps one): no debug info, link-time optimisation, one codegen
# unit, abort on panic. With binaryen's wasm-opt on PATH (Debian: binaryen) the module is
# then optimised for size (WEB_WASM_OPT=0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/target/web
target=wasm32-unknown-unknown
export CARGO_TARGET_DIR=${WEB_TARGET_DIR:-$root/target/wasm}
# The imports the JS side provides (miniquad's gl.js, the plugins) are resolved when the page
# loads the module, not when it is linked.
export RUSTFLAGS="-C link-arg=--allow-undefined"
export CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_LTO=true
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_PANIC=abort
build_args=(build --release --bin collision-math-toy --target "$target")

rustup_has_target() {
  command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx "$target"
}

debian_packages() {
  local missing=() p status
  for p in rustc-web cargo-web rust-web-src lld; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "+ apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  # rustc links wasm with rust-lld, which rust-web-llvm makes a link to an lld of LLVM's
  # version (lld-22 for rustc-web 1.96), a package of its own that `lld` is not.
  local lld
  lld=$(readlink /usr/bin/rust-lld || true)
  if [ -n "$lld" ] && ! command -v "$lld" >/dev/null; then
    echo "+ apt-get install $lld (rust-lld links to it)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$lld" >/dev/null
  fi
}

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
version=$(grep -A1 '^name = "macroquad"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
bundle=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"macroquad-$version/js/mq_js_bundle.js" | head -n1)
rm -rf "$out"
mkdir -p "$out"
wasm=$out/collision-math-toy.wasm
built=$CARGO_TARGET_DIR/$target/release/collision-math-toy.wasm
compiled=$(($(date +%s) - start))
if [ "${WEB_WASM_OPT:-1}" != 0 ] && command -v wasm-opt >/dev/null; then
  # -O2 keeps the speed; --strip-debug drops the names section, which nothing reads.
  wasm-opt -O2 --strip-debug --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals "$built" -o "$wasm"
  opt="wasm-opt -O2 ($(stat -c %s "$built") bytes before)"
else
  cp "$built" "$wasm"
  opt="no wasm-opt"
fi
cp web/index.html web/page.js "$out/"
cp "$bundle" "$out/"
echo "web: compiled in $compiled s, $(($(date +%s) - start)) s in all, into target/web/:" \
  ".wasm $(stat -c %s "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzipped ($opt);" \
  "loader from macroquad $version"
