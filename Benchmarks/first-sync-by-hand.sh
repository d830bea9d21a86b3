#!/usr/bin/env bash
# One first sync timed by hand (docs/performance.md, "A sync's records logged once a batch"): a
# fresh `stackday serve` on its own SQLite file, a copy of DEVICE synced into it once, and the
# sync's wall time beside the server's CPU (read from /proc), which a profiler can follow with
# `perf record -p` meanwhile.
#   Benchmarks/first-sync-by-hand.sh DEVICE.sqlite [STACKDAY]   (default .build/release/stackday)
# DEVICE is a store that never synced, e.g. the `sync-fresh.sqlite` that
# `stackday-bench --only S1 --keep` leaves.
set -euo pipefail
device=$1
stackday=$(realpath "${2:-.build/release/stackday}")
work=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
common=(--tz +00:00 --policies "$work/no-policies")
mkdir "$work/no-policies"
token=$("$stackday" --db "$work/server.sqlite" "${common[@]}" user add ten 2>/dev/null)
sqlite3 "$device" ".backup '$work/device.sqlite'"
"$stackday" --db "$work/server.sqlite" "${common[@]}" serve --listen 127.0.0.1:0 > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 200); do grep -q "listening on" "$work/serve.log" && break; sleep 0.05; done
url=$(grep -o "http://127.0.0.1:[0-9]*" "$work/serve.log" | head -1)
[ -n "$url" ] || { echo "the server did not start: $(cat "$work/serve.log")" >&2; exit 1; }
ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
before=$(ticks)
start=$(date +%s.%N)
"$stackday" --db "$work/device.sqlite" "${common[@]}" --quiet sync --server "$url" --token "$token"
end=$(date +%s.%N)
after=$(ticks)
awk -v start="$start" -v end="$end" -v cpu="$((after - before))" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "first sync: %.2f s; the server'"'"'s CPU: %.2f s\n", end - start, cpu / hz }'
