#!/usr/bin/env bash
# The floor a first sync meets on SQLite (docs/performance.md, "What bounds S1"): a store's records
# inserted again through its own triggers, in transactions of a push page each (as a server
# commits a first sync, page by page) ÷ in one transaction (as an import does).
#   Benchmarks/sqlite-commit-floor.sh STORE.sqlite [ROWS-A-TRANSACTION]   (default 2000)
# STORE is a store holding many records, e.g. the server file `stackday-bench --only S1 --keep` leaves.
set -euo pipefail
store=$1
page=${2:-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sqlite3 "$store" ".backup '$work/base.sqlite'"
sqlite3 "$work/base.sqlite" >/dev/null <<'SQL'
CREATE TABLE keep AS SELECT * FROM completions ORDER BY rowid;
DROP TRIGGER completions_cache_delete;
DROP TRIGGER completions_sync_delete;
DELETE FROM completions;
DELETE FROM sync_entities WHERE kind = 'completion';
VACUUM;
SQL
rows=$(sqlite3 "$work/base.sqlite" "SELECT count(*) FROM keep")
pragmas="PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536;"
{ echo "$pragmas"; echo "BEGIN IMMEDIATE; INSERT INTO completions SELECT * FROM keep; COMMIT;"; } > "$work/one.sql"
{
    echo "$pragmas"
    for ((first = 0; first < rows; first += page)); do
        echo "BEGIN IMMEDIATE; INSERT INTO completions SELECT * FROM keep WHERE rowid > $first AND rowid <= $((first + page)); COMMIT;"
    done
} > "$work/paged.sql"
seconds() { # the wall time of running a script on a fresh copy of the base store
    cp "$work/base.sqlite" "$work/run.sqlite"
    rm -f "$work/run.sqlite-wal" "$work/run.sqlite-shm"
    local start end
    start=$(date +%s.%N)
    sqlite3 "$work/run.sqlite" < "$1" >/dev/null
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { print b - a }' 
}
one=$(seconds "$work/one.sql")
paged=$(seconds "$work/paged.sql")
printf '%d records through the store'"'"'s triggers: %d a transaction %.2f s ÷ one transaction %.2f s = %.2f×\n' \
    "$rows" "$page" "$paged" "$one" "$(awk -v a="$paged" -v b="$one" 'BEGIN { print a / b }')"
