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
swift build --product stackday >/dev/null
"$venv/bin/python" Tests/Push/push_test.py "$(swift build --show-bin-path)/stackday"
