#!/usr/bin/env bash
# Builds the policy host's C core with AddressSanitizer and UndefinedBehaviorSanitizer and runs
# it: the pattern functions against Lua's own (CASES generated cases, default 100000; SEED picks
# them), then a policy that drives the calendar and the matcher to their limits through a real
# host. Any memory fault, undefined behaviour or difference fails the script.
#   scripts/sanitize-c-core.sh [CASES [SEED]]
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-100000}"
seed="${2:-20261203}"
cc="${CC:-gcc}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$cc" -std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -DDEBUG \
    -I Sources/CLuaHost/include $(pkg-config --cflags lua5.4) \
    scripts/sanitizer/driver.c Sources/CLuaHost/*.c \
    $(pkg-config --libs lua5.4) -lm -lpthread -o "$out/driver"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$out/driver" Tests/StackDayLuaTests/Fixtures/pattern-differential.lua "$seed" "$cases" \
    Sources/StackDayLua/Lua/prelude.lua scripts/sanitizer/limits.lua
echo "sanitizers: clean"
