#!/usr/bin/env bash
# Calendar interoperability: recurrences as calendars export them, and the calendar feed StackDay
# writes, checked against python-dateutil
# and recurring-ical-events (from PyPI, in a virtual environment under .build) through the
# `stackday` binary.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/calendar-venv
if ! "$venv/bin/python" -c "import dateutil, icalendar, recurring_ical_events" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "python-dateutil>=2.8,<3" "icalendar>=5,<7" "recurring-ical-events>=2.1,<4"
fi
swift build --product stackday >/dev/null
"$venv/bin/python" Tests/Calendar/pasted_recurrences.py --check "$(swift build --show-bin-path)/stackday"
"$venv/bin/python" Tests/Calendar/feed_test.py "$(swift build --show-bin-path)/stackday"
