#!/usr/bin/env bash
# Reminders through a Web Push service of another make (Tests/Push/push_test.py): http-ece and
# cryptography, from PyPI into a virtual environment of the test's own, decrypt every message and
# verify every VAPID token the server sends.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/push-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import http_ece, cryptography" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "http-ece>=1.1,<2" "cryptography>=41"
fi
# The binary to run: the one given (scripts/shipped-binary-test.sh gives the shipped build's), else
# the debug build's.
bin="${1:-}"
if [ -z "$bin" ]; then
    swift build --product stackday >/dev/null
    bin="$(swift build --show-bin-path)/stackday"
fi
"$venv/bin/python" Tests/Push/push_test.py "$bin"
