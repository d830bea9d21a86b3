#!/usr/bin/env bash
# Installs the baselines the benchmarks compare against: lua5.4, sqlite3 and python-dateutil, and
# wrk, which loads the server.
set -euo pipefail
missing=()
command -v lua5.4 >/dev/null 2>&1 || missing+=(lua5.4)
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v python3 >/dev/null 2>&1 || missing+=(python3 python3-pip)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! python3 -c "import dateutil" >/dev/null 2>&1; then
    python3 -m pip install --quiet python-dateutil || python3 -m pip install --quiet --break-system-packages python-dateutil
fi
