#!/usr/bin/env bash
# The API document's test: openapi-spec-validator, schemathesis and prometheus_client (from PyPI,
# in a virtual environment under .build) against a `stackday serve` of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/api-venv
if [ ! -x "$venv/bin/st" ] || ! "$venv/bin/python" -c "import openapi_spec_validator, prometheus_client" 2>/dev/null; then
    python3 -m venv "$venv"
    # schemathesis 3.39 needs a hypothesis before 6.120 (later ones changed an internal it uses).
    "$venv/bin/pip" install --quiet "schemathesis>=3.39,<4" "hypothesis>=6.100,<6.120" "openapi-spec-validator>=0.7,<1" "prometheus_client>=0.20,<1"
fi
swift build --product stackday >/dev/null
"$venv/bin/python" Tests/API/api_test.py "$(swift build --show-bin-path)/stackday"
