#!/bin/bash
# Fuzz the libnvbios parser with libFuzzer under ASan + UBSan for a bounded
# time, seeded with every board's image and the regression inputs.
# Crashing inputs land in vbios/fuzz/crashes/; add each to
# vbios/tests/regress/, which `meson test` parses.
#   vbios/fuzz/run-fuzz.sh [SECONDS]     (default 60)
set -euo pipefail
secs=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${NVDEV_CACHE:-$HOME/.cache/nvdev}/fuzz
mkdir -p "$work/corpus" "$here/crashes"
for pkg in clang libclang-rt-14-dev meson ninja-build libglib2.0-dev; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' ||
        { apt-get update -q && apt-get install -y -q "$pkg"; }
done
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$top/vbios" $(pkg-config --cflags glib-2.0) \
    "$here/fuzz-parse.c" "$top"/vbios/{parse,dcb,tables,script,dump}.c \
    $(pkg-config --libs glib-2.0) -o "$work/fuzz-parse"
# seeds: the boards' images, built with this checkout's nvbios, and the
# regression inputs
[ -f "$work/tools/build.ninja" ] || meson setup "$work/tools" "$top" >/dev/null
ninja -C "$work/tools" nvbios >/dev/null
for ini in "$top"/vbios/boards/*.ini; do
    "$work/tools/nvbios" build "$ini" -o "$work/corpus/$(basename "$ini" .ini).rom"
done
cp "$top"/vbios/tests/regress/*.rom "$work/corpus/"
"$work/fuzz-parse" -max_total_time="$secs" -max_len=131072 \
    -artifact_prefix="$here/crashes/" "$work/corpus" 2>&1 | tail -n 12
