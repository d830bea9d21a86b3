#!/usr/bin/env bash
# Builds the HTTP layer's C files (all but the server's start and stop, which need a daemon) with
# AddressSanitizer and UndefinedBehaviorSanitizer and runs their driver: the bearer-token, cookie,
# query and framing parsers and the fair queue on known cases, then the parsers on CASES random
# inputs (default 100000). Any memory fault, undefined behaviour or wrong answer fails the script.
#   scripts/sanitize-http.sh [CASES]
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-100000}"
cc="${CC:-gcc}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$cc" -std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -Wall -Wextra -Werror \
    -I Sources/CHTTP -I Sources/CHTTP/include -I Sources/CTLS/include \
    scripts/sanitizer/http_driver.c Sources/CHTTP/http_parse.c Sources/CHTTP/http_answer.c Sources/CHTTP/http_queue.c \
    Sources/CHTTP/http_links.c Sources/CHTTP/http_library.c -ldl -lpthread -o "$out/http-driver"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$out/http-driver" "$cases"
echo "http sanitizers: clean"
