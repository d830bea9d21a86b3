#!/usr/bin/env bash
# The dashboard's browser test: headless Chromium driven by Selenium (from PyPI, in a virtual
# environment under .build) against a `stackday serve` of its own. The screenshot goes to
# .build/test-output/.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
    [ -x "$tool" ] || { echo "error: $tool is missing: apt-get install chromium chromium-driver" >&2; exit 1; }
done
venv=.build/browser-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "selenium>=4.10,<5"
fi
swift build --product stackday >/dev/null
"$venv/bin/python" Tests/Browser/dashboard_test.py "$(swift build --show-bin-path)/stackday" .build/test-output
