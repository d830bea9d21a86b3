#!/usr/bin/env bash
# The binary `make install` ships (STACKDAY_STATIC=1, release, the Swift runtime linked in), checked
# as it is linked and then run: what the loader sees (a position-independent executable that needs
# only SQLite, libm and libc, exports no symbols, and loads TLS, Argon2, libcrypto and the rest
# only when used), a habit's day from the first command to its figures, a password hashed, HTTPS
# answered, and the push test's whole run against it.
set -euo pipefail
cd "$(dirname "$0")/.."
STACKDAY_STATIC=1 swift build -c release --static-swift-stdlib --product stackday >/dev/null
bin="$PWD/.build/release/stackday"
work="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "shipped binary: $*" >&2; exit 1; }

# What the loader sees.
# Position-independent (its image placed at random: it serves the network and runs users' scripts).
type="$(readelf -h "$bin" | awk '/Type:/ { print $2 }')"
[ "$type" = DYN ] && readelf -d "$bin" | grep -q "Flags: PIE" || fail "ELF type $type, not a position-independent executable"
needed="$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')"
[ "$needed" = "ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libsqlite3.so.0 " ] || fail "needs $needed"
exported="$(readelf --dyn-syms -W "$bin" | awk '$7 != "UND" && $8 ~ /^\$s/' | wc -l)"
[ "$exported" -eq 0 ] || fail "exports $exported Swift symbols"
loaded="$(ldd "$bin")"
for library in gnutls sodium crypto pq microhttpd qrencode lua stdc++ gcc_s; do
    if grep -q "lib$library" <<<"$loaded"; then fail "ldd lists lib$library"; fi
done

# A habit's day, as a person types it; the figures at the end.
sd=("$bin" --db "$work/shipped.sqlite" --tz +00:00 --now 2026-12-07T12:00:00Z --policies "$work/none")
[ "$("$bin" --version)" != "" ] || fail "--version printed nothing"
"${sd[@]}" habit add read --goal 2 >/dev/null
"${sd[@]}" record read >/dev/null
"${sd[@]}" record read >/dev/null
today="$("${sd[@]}" today)"
grep -q "2/2  done  streak 1 day" <<<"$today" || fail "today after two records: $today"
figures="$("${sd[@]}" --json today | python3 -c 'import json, sys; h = json.load(sys.stdin)["habits"][0]; print(h["current"], h["progress"], h["completedDays"])')"
[ "$figures" = "1 1 1" ] || fail "streak, progress and days done after one day done: $figures"
preview="$("${sd[@]}" --json policy preview "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1" --from 2026-01-01 --to 2026-12-31 |
    python3 -c 'import json, sys; due = json.load(sys.stdin)["due"]; print(len(due), due[0], due[-1])')"
[ "$preview" = "12 2026-01-30 2026-12-31" ] || fail "the last weekday of each month of 2026: $preview"
# Bad input: one line, exit 1, no word from the loader.
if "${sd[@]}" record nothing 2>"$work/error"; then fail "an unknown habit was recorded"; fi
[ "$(wc -l <"$work/error")" -eq 1 ] || fail "an unknown habit's error: $(cat "$work/error")"

# Argon2id (libsodium, opened on demand) hashes a password.
"${sd[@]}" user add ana >/dev/null 2>&1
echo "a long enough password" | "${sd[@]}" user passwd ana >/dev/null

# HTTPS (GnuTLS, opened on demand) with a certificate made here.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
"${sd[@]}" serve --listen 127.0.0.1:0 --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" 2>"$work/serve.log" &
server=$!
port=""
for _ in $(seq 300); do
    port="$(sed -n 's#.*listening on https://127\.0\.0\.1:\([0-9]*\).*#\1#p' "$work/serve.log" | head -1)"
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || fail "the server exited: $(cat "$work/serve.log")"
    sleep 0.1
done
[ -n "$port" ] || fail "the server did not say where it listens"
status="$(python3 - "$port" <<'ASK'
import ssl, sys, urllib.error, urllib.request
unchecked = ssl.create_default_context()
unchecked.check_hostname, unchecked.verify_mode = False, ssl.CERT_NONE
try:
    print(urllib.request.urlopen(f"https://127.0.0.1:{sys.argv[1]}/v1/habits", context=unchecked, timeout=10).status)
except urllib.error.HTTPError as answer:
    print(answer.code)
ASK
)"
[ "$status" = 401 ] || fail "an unauthenticated call over HTTPS answered $status"
kill -TERM "$server"
wait "$server" || fail "the server did not exit 0 on SIGTERM"
server=""

# Reminders through a push service of another make, with this binary serving.
scripts/push-test.sh "$bin"
echo "shipped binary: linked as shipped, and every step passed"
