#!/usr/bin/env bash
# The web app's browser test: headless Chromium driven by Selenium and axe-core (both from PyPI,
# in a virtual environment under .build) against a `stackday serve` of its own, at a phone and a
# desktop width. Screenshots go to .build/test-output/.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
    [ -x "$tool" ] || { echo "error: $tool is missing: apt-get install chromium chromium-driver" >&2; exit 1; }
done
venv=.build/browser-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import selenium, axe_selenium_python" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "selenium>=4.10,<5" "axe-selenium-python>=2.1,<3"
fi
swift build --product stackday >/dev/null
"$venv/bin/python" Tests/Browser/webapp_test.py "$(swift build --show-bin-path)/stackday" .build/test-output
