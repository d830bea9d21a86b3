#!/usr/bin/env python3
"""The calendar feed (`stackday export --format ics`, the same text as GET /v1/feeds/{token}.ics)
read by independent implementations: it must parse with icalendar, and the days
recurring-ical-events expands from it must be the days `stackday policy preview` calls due, for
two years from today for every built-in schedule a rule states, and for the next 60 due days of
the rest (quotas, listed as dates).

  feed_test.py STACKDAY
"""
import datetime
import json
import subprocess
import sys
import tempfile

import icalendar
import recurring_ical_events

TODAY = datetime.date(2026, 12, 3)
NOW = "2026-12-03T12:00:00+09:00"
YEARS = 730
DATED = 60

# (schedule, params, start, dated): dated when the feed lists days instead of a rule.
CASES = [
    ("daily", {}, "2026-11-01", False),
    ("weekdays", {}, "2026-11-01", False),
    ("weekly", {"days": ["mon", "wed", "fri"]}, "2026-11-01", False),
    ("weekly", {"days": ["sun"]}, "2026-12-03", False),
    ("every-n-days", {"every": 3}, "2026-10-01", False),
    ("every-n-days", {"every": 10}, "2027-01-05", False),
    ("monthly-day", {"day": 15}, "2026-11-01", False),
    ("monthly-day", {"day": 31}, "2026-11-01", False),
    ("monthly-day", {"day": 30, "shortMonth": "last"}, "2026-11-01", False),
    ("monthly-day", {"day": 31, "shortMonth": "last"}, "2026-11-01", False),
    ("monthly-last-day", {}, "2026-11-01", False),
    ("monthly-nth-weekday", {"nth": 2, "weekday": "tue"}, "2026-11-01", False),
    ("monthly-nth-weekday", {"nth": -1, "weekday": "fri"}, "2026-11-01", False),
    ("monthly-nth-weekday", {"nth": 5, "weekday": "mon"}, "2026-11-01", False),
    ("rrule", {"rule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH", "exclude": ["2026-12-17"]}, "2026-12-01", False),
    ("rrule", {"rule": "FREQ=MONTHLY;BYDAY=1MO,3MO"}, "2026-11-01", False),
    ("rrule", {"rule": "FREQ=WEEKLY;UNTIL=20270630;BYDAY=MO,WE"}, "2026-11-02", False),
    ("rrule", {"rule": "FREQ=DAILY;COUNT=40"}, "2026-11-20", False),
    ("rrule", {"rule": "FREQ=WEEKLY;BYDAY=MO;COUNT=5"}, "2026-11-29", False),
    ("rrule", {"rule": "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29"}, "2026-11-01", False),
    ("times-per-week", {"times": 3}, "2026-11-01", True),
    ("times-per-month", {"times": 4}, "2026-11-01", True),
    ("times-in-days", {"times": 2, "days": 5}, "2026-11-01", True),
]


def run(stackday, db, *arguments):
    done = subprocess.run([stackday, "--db", db, "--now", NOW, "--tz", "+09:00", *arguments], capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"stackday {' '.join(arguments)}: {done.stderr}")
    return done.stdout


def preview(stackday, db, schedule, params, start, first, last):
    text = run(stackday, db, "--json", "policy", "preview", schedule, "--params", json.dumps(params), "--start", start,
               "--from", first.isoformat(), "--to", last.isoformat())
    return [datetime.date.fromisoformat(day) for day in json.loads(text)["due"]]


def expanded(text, first, last):
    calendar = icalendar.Calendar.from_ical(text)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"], "a calendar needs VERSION and PRODID"
    for event in calendar.walk("VEVENT"):
        for name in ("UID", "DTSTAMP", "DTSTART", "SUMMARY"):
            assert name in event, f"a VEVENT without {name}: {event.to_ical()!r}"
    days = []
    for event in recurring_ical_events.of(calendar).between(first, last + datetime.timedelta(days=1)):
        start = event["DTSTART"].dt
        days.append(start if isinstance(start, datetime.date) and not isinstance(start, datetime.datetime) else start.date())
    return sorted(set(days)), calendar


def main():
    stackday = sys.argv[1]
    last = TODAY + datetime.timedelta(days=YEARS - 1)
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        for index, (schedule, params, start, dated) in enumerate(CASES):
            db = f"{folder}/case-{index}.sqlite"
            run(stackday, db, "habit", "add", "habit", "--schedule", schedule, "--schedule-params", json.dumps(params), "--start", start,
                "--goal", "2", "--unit", "cups")
            text = run(stackday, db, "export", "--format", "ics")
            got, calendar = expanded(text, TODAY, last)
            expected = preview(stackday, db, schedule, params, start, TODAY, last)
            if dated:
                expected = expected[:DATED]
                if "RRULE" in text:
                    failures.append(f"{schedule} {params}: a quota is stated as a rule")
            elif "RRULE" not in text:
                failures.append(f"{schedule} {params}: no RRULE")
            if got != expected:
                missing = sorted(set(expected) - set(got))[:5]
                extra = sorted(set(got) - set(expected))[:5]
                failures.append(f"{schedule} {params} from {start}: {len(got)} days, preview {len(expected)}; missing {missing}, extra {extra}")
            if not any(str(event["SUMMARY"]) == "habit · 2 cups" for event in calendar.walk("VEVENT")):
                failures.append(f"{schedule}: SUMMARY lacks the goal")

        # Met today: today's occurrence again, marked done; the days stay the same.
        db = f"{folder}/met.sqlite"
        run(stackday, db, "habit", "add", "물 마시기", "--goal", "8", "--unit", "cups", "--start", "2026-11-01")
        run(stackday, db, "record", "물 마시기", "8")
        text = run(stackday, db, "export", "--format", "ics")
        got, calendar = expanded(text, TODAY, last)
        if got != preview(stackday, db, "daily", {}, "2026-11-01", TODAY, last):
            failures.append("a met day changed the days")
        today_events = [event for event in recurring_ical_events.of(calendar).at(TODAY)]
        if [str(event["SUMMARY"]) for event in today_events] != ["✓ 물 마시기 · 8 cups"]:
            failures.append(f"today is not marked done: {[str(event['SUMMARY']) for event in today_events]}")

        # Reminder times: an alarm each, that long after the all-day event's start.
        db = f"{folder}/remind.sqlite"
        run(stackday, db, "habit", "add", "walk", "--remind", "21:00", "--remind", "07:30")
        calendar = icalendar.Calendar.from_ical(run(stackday, db, "export", "--format", "ics"))
        alarms = [alarm for event in calendar.walk("VEVENT") for alarm in event.walk("VALARM")]
        triggers = sorted(alarm["TRIGGER"].dt for alarm in alarms)
        if triggers != [datetime.timedelta(hours=7, minutes=30), datetime.timedelta(hours=21)] or any(str(alarm["ACTION"]) != "DISPLAY" for alarm in alarms):
            failures.append(f"reminders: alarms {triggers}")

        # Two revisions: Mon/Wed/Fri until a day, then every day; the first rule ends the day before.
        db = f"{folder}/revised.sqlite"
        change = TODAY + datetime.timedelta(days=20)
        run(stackday, db, "habit", "add", "gym", "--schedule", "mon wed fri", "--start", "2026-11-01")
        run(stackday, db, "habit", "edit", "gym", "--schedule", "daily", "--from", change.isoformat())
        got, _ = expanded(run(stackday, db, "export", "--format", "ics"), TODAY, last)
        before = [day for day in preview(stackday, db, "weekly", {"days": ["mon", "wed", "fri"]}, "2026-11-01", TODAY, last) if day < change]
        after = [day for day in preview(stackday, db, "daily", {}, "2026-11-01", TODAY, last) if day >= change]
        if got != before + after:
            failures.append(f"two revisions: {len(got)} days, expected {len(before + after)}")

    if failures:
        print("calendar feed:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print(f"calendar feed: {len(CASES)} schedules, a day met today and two revisions: every expanded day is a due day of policy preview; reminders are alarms")


if __name__ == "__main__":
    main()
