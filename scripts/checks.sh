#!/usr/bin/env bash
# The checks outside `swift test`, at once: the C cores (the policy host, the HTTP layer) under
# sanitizers, the web app in Chromium,
# the policies under luacheck,
# the API document, the calendar interoperability and push messages through a push service of
# another make. They share nothing (each starts its own
# server on a free port, or none), so they run side by side; each one's output is printed whole
# when it ends, and the script fails when any of them does.
set -uo pipefail
cd "$(dirname "$0")/.."
# Built once before they start, so that none of them waits for another's build.
swift build --product stackday >/dev/null || exit 1
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
checks=(sanitize-c-core sanitize-http browser-test api-test calendar-test push-test lua-check)
declare -A pids
for check in "${checks[@]}"; do
    ( started=$SECONDS; "scripts/$check.sh" >"$logs/$check.log" 2>&1; status=$?; echo "$check: exit $status after $((SECONDS - started)) s" >>"$logs/$check.log"; exit $status ) &
    pids[$check]=$!
done
failed=0
for check in "${checks[@]}"; do
    wait "${pids[$check]}" || failed=1
    echo "=== scripts/$check.sh"
    cat "$logs/$check.log"
done
exit $failed
