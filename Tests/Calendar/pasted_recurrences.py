#!/usr/bin/env python3
"""Recurrences as calendars export them, checked against independent implementations.

Each case is text a person pastes (or an .ics file), in the forms Google Calendar, Outlook, Apple
Calendar and Thunderbird write. Their due days over two years from the start come from
python-dateutil's rrulestr (rule lines) or recurring-ical-events (whole VEVENTs and calendars),
each occurrence taken as its day in the event's zone.

  pasted_recurrences.py --write          rewrite Tests/StackDayLuaTests/Fixtures/pasted-recurrences.json
  pasted_recurrences.py --check STACKDAY check the fixture still matches, and that
                                         `stackday policy preview` (and `habit add --from-ics`) agree
"""
import datetime
import json
import pathlib
import subprocess
import sys
import tempfile
import zoneinfo

import icalendar
import recurring_ical_events
from dateutil import tz
from dateutil.rrule import rrulestr

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "Tests/StackDayLuaTests/Fixtures/pasted-recurrences.json"
# Outlook names zones the Windows way; the calendar's own VTIMEZONE (or this table) says which.
WINDOWS_ZONES = {"Korea Standard Time": "Asia/Seoul", "Pacific Standard Time": "America/Los_Angeles",
                 "W. Europe Standard Time": "Europe/Berlin"}

SEOUL_TZ = "BEGIN:VTIMEZONE\nTZID:Asia/Seoul\nBEGIN:STANDARD\nTZOFFSETFROM:+0900\nTZOFFSETTO:+0900\nTZNAME:KST\nDTSTART:19700101T000000\nEND:STANDARD\nEND:VTIMEZONE\n"
BERLIN_TZ = ("BEGIN:VTIMEZONE\nTZID:Europe/Berlin\nBEGIN:DAYLIGHT\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200\nTZNAME:CEST\n"
             "DTSTART:19700329T020000\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\nEND:DAYLIGHT\nBEGIN:STANDARD\nTZOFFSETFROM:+0200\n"
             "TZOFFSETTO:+0100\nTZNAME:CET\nDTSTART:19701025T030000\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\nEND:STANDARD\nEND:VTIMEZONE\n")


def calendar(prodid, body, zone=""):
    text = f"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:{prodid}\n{zone}{body}END:VCALENDAR\n"
    return text.replace("\n", "\r\n")


# (name, the habit's zone, the text pasted, the habit's start when the text gives none)
CASES = [
    # Google Calendar: the recurrence lines of an event, as its "copy" and its API give them.
    ("google weekly until a UTC time", "Asia/Seoul",
     "DTSTART;TZID=Asia/Seoul:20261005T090000\nRRULE:FREQ=WEEKLY;UNTIL=20270630T145959Z;BYDAY=MO,WE", None),
    ("google rule line alone", "Asia/Seoul", "RRULE:FREQ=WEEKLY;UNTIL=20270630T145959Z;BYDAY=MO,WE", "2026-10-05"),
    ("google daily", "Asia/Seoul", "DTSTART;TZID=Asia/Seoul:20261001T090000\nRRULE:FREQ=DAILY", None),
    ("google all-day weekly", "Asia/Seoul", "DTSTART;VALUE=DATE:20261001\nRRULE:FREQ=WEEKLY;BYDAY=TU,TH", None),
    ("google second tuesday", "America/New_York", "DTSTART;TZID=America/New_York:20261013T190000\nRRULE:FREQ=MONTHLY;BYDAY=2TU", None),
    ("google last friday", "Asia/Seoul", "DTSTART;TZID=Asia/Seoul:20261030T180000\nRRULE:FREQ=MONTHLY;BYDAY=-1FR", None),
    ("google yearly all-day", "Asia/Seoul", "DTSTART;VALUE=DATE:20270314\nRRULE:FREQ=YEARLY", None),
    ("google every weekday", "Europe/Berlin",
     "DTSTART;TZID=Europe/Berlin:20261102T083000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", None),
    ("google every two weeks", "Asia/Seoul", "DTSTART;TZID=Asia/Seoul:20261006T200000\nRRULE:FREQ=WEEKLY;WKST=SU;INTERVAL=2;BYDAY=TU", None),
    ("google ten times", "Asia/Seoul", "DTSTART;TZID=Asia/Seoul:20261201T070000\nRRULE:FREQ=DAILY;COUNT=10", None),
    ("google with EXDATE lines", "Europe/Berlin",
     "DTSTART;TZID=Europe/Berlin:20261102T083000\nRRULE:FREQ=WEEKLY;UNTIL=20270331T215959Z;BYDAY=MO,TH\n"
     "EXDATE;TZID=Europe/Berlin:20261224T083000\nEXDATE;TZID=Europe/Berlin:20261228T083000", None),
    ("google monthly on the 15th", "Asia/Seoul", "DTSTART;TZID=Asia/Seoul:20261015T120000\nRRULE:FREQ=MONTHLY;BYMONTHDAY=15", None),
    ("google calendar file", "Asia/Seoul", calendar("-//Google Inc//Google Calendar 70.9054//EN",
     "BEGIN:VEVENT\nDTSTART;TZID=Asia/Seoul:20261101T070000\nDTEND;TZID=Asia/Seoul:20261101T080000\n"
     "RRULE:FREQ=WEEKLY;BYDAY=SU,WE\nEXDATE;TZID=Asia/Seoul:20261111T070000\nDTSTAMP:20261201T000000Z\n"
     "UID:abc123@google.com\nSUMMARY:Morning run\nEND:VEVENT\n", SEOUL_TZ), None),
    ("google file with a moved occurrence", "Asia/Seoul", calendar("-//Google Inc//Google Calendar 70.9054//EN",
     "BEGIN:VEVENT\nDTSTART;TZID=Asia/Seoul:20261102T210000\nDTEND;TZID=Asia/Seoul:20261102T220000\n"
     "RRULE:FREQ=WEEKLY;BYDAY=MO\nUID:moved@google.com\nSUMMARY:Read\nEND:VEVENT\n"
     "BEGIN:VEVENT\nDTSTART;TZID=Asia/Seoul:20261117T210000\nDTEND;TZID=Asia/Seoul:20261117T220000\n"
     "RECURRENCE-ID;TZID=Asia/Seoul:20261116T210000\nUID:moved@google.com\nSUMMARY:Read\nEND:VEVENT\n", SEOUL_TZ), None),
    ("google lower-case names", "Asia/Seoul", "dtstart;value=date:20261001\nrrule:freq=weekly;byday=mo,fr", None),
    # Outlook: Windows zone names, WKST=SU, INTERVAL=1 spelled out, CRLF and folded lines.
    ("outlook weekly until", "Asia/Seoul",
     "DTSTART;TZID=Korea Standard Time:20261005T090000\r\nRRULE:FREQ=WEEKLY;UNTIL=20270701T000000Z;INTERVAL=1;BYDAY=MO,WE,FR;WKST=SU", None),
    ("outlook monthly twelve times", "Asia/Seoul",
     "DTSTART;TZID=Korea Standard Time:20261101T093000\r\nRRULE:FREQ=MONTHLY;COUNT=12;BYMONTHDAY=1", None),
    ("outlook every weekday until", "America/Los_Angeles",
     "DTSTART;TZID=Pacific Standard Time:20261102T080000\r\nRRULE:FREQ=WEEKLY;UNTIL=20270630T150000Z;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR;WKST=SU", None),
    ("outlook fourth thursday of november", "America/Los_Angeles",
     "DTSTART;TZID=Pacific Standard Time:20261126T120000\r\nRRULE:FREQ=YEARLY;BYDAY=4TH;BYMONTH=11", None),
    ("outlook every three days", "Asia/Seoul", "DTSTART;TZID=Korea Standard Time:20261201T070000\r\nRRULE:FREQ=DAILY;INTERVAL=3;COUNT=20", None),
    ("outlook last weekday of the month", "Europe/Berlin",
     "DTSTART;TZID=W. Europe Standard Time:20261130T170000\r\nRRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;INTERVAL=1", None),
    ("outlook calendar file, folded", "Europe/Berlin", calendar("-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN",
     "BEGIN:VEVENT\nCLASS:PUBLIC\nDESCRIPTION:Stretch for ten minutes before the first meeting of the day\\, every day of t\n"
     " he working week.\nDTSTART;TZID=Europe/Berlin:20261102T083000\nDTEND;TZID=Europe/Berlin:20261102T084000\n"
     "RRULE:FREQ=WEEKLY;UNTIL=20270226T073000Z;INTERVAL=1;BYDAY=MO,TU,WE,\n TH,FR;WKST=SU\n"
     "EXDATE;TZID=Europe/Berlin:20261225T083000,20261231T083000\nSUMMARY;LANGUAGE=en-us:Stretch\nUID:040000008200E00074C5B7101A82E008\n"
     "X-MICROSOFT-CDO-BUSYSTATUS:BUSY\nEND:VEVENT\n", BERLIN_TZ), None),
    ("outlook folded rule line", "Asia/Seoul", "DTSTART;TZID=Korea Standard Time:20261005T090000\r\nRRULE:FREQ=WEEKLY;UNTIL=2027\r\n 0101T000000Z;BYDAY=MO,TH", None),
    # Apple Calendar: INTERVAL=1 always, BYDAY left out when it is DTSTART's weekday.
    ("apple weekly on the start's weekday", "Asia/Seoul",
     "DTSTART;TZID=Asia/Seoul:20261006T070000\nRRULE:FREQ=WEEKLY;INTERVAL=1;UNTIL=20270301T145959Z", None),
    ("apple monthly on the 31st", "Asia/Seoul", "DTSTART;VALUE=DATE:20261031\nRRULE:FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=31", None),
    ("apple leap day, five times", "Asia/Seoul", "DTSTART;VALUE=DATE:20240229\nRRULE:FREQ=YEARLY;INTERVAL=1;COUNT=5", None),
    ("apple every other day", "Asia/Seoul", "DTSTART;TZID=Asia/Seoul:20261201T060000\nRRULE:FREQ=DAILY;INTERVAL=2", None),
    ("apple weekends", "Asia/Seoul", "DTSTART;VALUE=DATE:20261205\nRRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=SA,SU", None),
    ("apple third wednesday", "Asia/Seoul", "DTSTART;TZID=Asia/Seoul:20261021T190000\nRRULE:FREQ=MONTHLY;INTERVAL=1;BYDAY=3WE", None),
    ("apple calendar file with EXDATE list", "Asia/Seoul", calendar("-//Apple Inc.//macOS 15.1//EN",
     "BEGIN:VEVENT\nCREATED:20261001T000000Z\nDTEND;VALUE=DATE:20261002\nDTSTART;VALUE=DATE:20261001\n"
     "EXDATE;VALUE=DATE:20261009,20261013\nRRULE:FREQ=DAILY;INTERVAL=4;UNTIL=20270131\nSEQUENCE:0\nSUMMARY:물 마시기\n"
     "UID:6A1F-APPLE\nEND:VEVENT\n"), None),
    # Thunderbird: alarms inside the event, X- properties, RDATE.
    ("thunderbird eight times", "Asia/Seoul", "DTSTART;TZID=Asia/Seoul:20261201T073000\nRRULE:FREQ=WEEKLY;COUNT=8;BYDAY=TU,TH", None),
    ("thunderbird last day of the month", "Asia/Seoul", "DTSTART;VALUE=DATE:20261031\nRRULE:FREQ=MONTHLY;BYMONTHDAY=-1", None),
    ("thunderbird calendar file with an alarm", "Asia/Seoul", calendar("-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN",
     "BEGIN:VEVENT\nCREATED:20261101T000000Z\nUID:tb-1\nSUMMARY:Journal\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR\n"
     "DTSTART;TZID=Asia/Seoul:20261102T220000\nDTEND;TZID=Asia/Seoul:20261102T221500\nX-MOZ-GENERATION:1\n"
     "BEGIN:VALARM\nACTION:DISPLAY\nTRIGGER;VALUE=DURATION:-PT15M\nDESCRIPTION:Journal\nEND:VALARM\nEND:VEVENT\n", SEOUL_TZ), None),
    ("thunderbird yearly on march 14", "Asia/Seoul", "DTSTART;VALUE=DATE:20270314\nRRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=14", None),
    ("thunderbird with RDATE", "Asia/Seoul",
     "DTSTART;VALUE=DATE:20261207\nRRULE:FREQ=MONTHLY;BYDAY=1MO\nRDATE;VALUE=DATE:20261224,20261231", None),
    # Other forms people paste.
    ("a UTC start", "Asia/Seoul", "DTSTART:20261001T000000Z\nRRULE:FREQ=WEEKLY;BYDAY=TH,SU", None),
    ("a floating start and UNTIL", "Asia/Seoul", "DTSTART:20261005T090000\nRRULE:FREQ=WEEKLY;UNTIL=20261231T090000;BYDAY=MO", None),
    ("a bare rule, two mondays a month", "Asia/Seoul", "FREQ=MONTHLY;BYDAY=1MO,3MO", "2026-10-05"),
    ("EXDATE lines, dates", "Asia/Seoul",
     "DTSTART;VALUE=DATE:20261201\nRRULE:FREQ=DAILY;COUNT=30\nEXDATE;VALUE=DATE:20261225\nEXDATE;VALUE=DATE:20261231,20261201", None),
    ("every other week from sunday", "Asia/Seoul", "DTSTART;VALUE=DATE:20261004\nRRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=SU,MO", None),
    ("first weekend day of the month", "Asia/Seoul", "DTSTART;VALUE=DATE:20261001\nRRULE:FREQ=MONTHLY;BYDAY=SA,SU;BYSETPOS=1", None),
    ("monday of ISO week 1", "Asia/Seoul", "DTSTART;VALUE=DATE:20261228\nRRULE:FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO", None),
    ("a VEVENT block alone", "Asia/Seoul",
     "BEGIN:VEVENT\nSUMMARY:Piano\nDTSTART;TZID=Asia/Seoul:20261103T190000\nRRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=12\n"
     "EXDATE;TZID=Asia/Seoul:20261124T190000\nEND:VEVENT", None),
]


ZONE_CASE = {name.upper(): name for name in list(zoneinfo.available_timezones()) + list(WINDOWS_ZONES)}


def two_years_after(day):
    try:
        return day.replace(year=day.year + 2)
    except ValueError:  # February 29th
        return day.replace(year=day.year + 2, day=28)


def zone_of(name):
    return tz.gettz(WINDOWS_ZONES.get(name, name))


def day_of(occurrence, zone):
    if isinstance(occurrence, datetime.datetime):
        if occurrence.tzinfo is not None:
            occurrence = occurrence.astimezone(zone)
        return occurrence.date()
    return occurrence


def expected(case):
    name, zone_name, text, start = case
    zone = tz.gettz(zone_name)
    if "BEGIN:VEVENT" in text.upper():
        cal_text = text if "BEGIN:VCALENDAR" in text.upper() else calendar("-//test//EN", text.replace("\r\n", "\n") + "\n")
        cal = icalendar.Calendar.from_ical(cal_text)
        master = next(c for c in cal.walk("VEVENT") if "RRULE" in c and "RECURRENCE-ID" not in c)
        first = day_of(master.decoded("DTSTART"), zone)
        last = two_years_after(first)
        events = recurring_ical_events.of(cal).between(first, last + datetime.timedelta(days=1))
        days = sorted({day_of(e.decoded("DTSTART"), zone) for e in events})
        return first, last, [d for d in days if first <= d <= last], str(master.get("SUMMARY")) if "SUMMARY" in master else None
    # dateutil reads RDATE values as date-times only, and upper-cases zone names before looking them up.
    lines = text.replace("\r\n", "\n").replace("RDATE;VALUE=DATE:", "RDATE:")
    kwargs = {"forceset": True, "unfold": True, "tzids": lambda name: zone_of(ZONE_CASE.get(name, name))}
    if start is not None:
        kwargs["dtstart"] = datetime.datetime.fromisoformat(start).replace(tzinfo=zone)
    rules = rrulestr(lines, **kwargs)
    dtstart = rules._rrule[0]._dtstart
    first = day_of(dtstart, zone)
    last = two_years_after(first)
    window_end = datetime.datetime.combine(last + datetime.timedelta(days=2), datetime.time())
    if dtstart.tzinfo is not None:
        window_end = window_end.replace(tzinfo=dtstart.tzinfo)
    days = sorted({day_of(o, zone) for o in rules.between(dtstart - datetime.timedelta(days=1), window_end, inc=True)})
    return first, last, [d for d in days if first <= d <= last], None


def fixture_cases():
    out = []
    for case in CASES:
        first, last, days, summary = expected(case)
        out.append({"name": case[0], "timeZone": case[1], "text": case[2], "start": case[3], "from": first.isoformat(),
                    "to": last.isoformat(), "due": [d.isoformat() for d in days], "summary": summary})
    return out


def preview(stackday, case):
    args = [stackday, "--db", ":memory:", "--tz", case["timeZone"], "--now", "2026-12-03T12:00:00Z", "--json",
            "policy", "preview", case["text"], "--from", case["from"], "--to", case["to"]]
    if case["start"]:
        args += ["--start", case["start"]]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        return f"exit {run.returncode}: {run.stderr.strip() or run.stdout.strip()}"
    return json.loads(run.stdout)["due"]


def from_ics(stackday, case, folder):
    """`habit add --from-ics` with the case as a file: the habit's name and start, as a list."""
    path = pathlib.Path(folder) / "event.ics"
    path.write_text(case["text"], encoding="utf-8")
    db = str(pathlib.Path(folder) / f"{abs(hash(case['name']))}.sqlite")
    common = [stackday, "--db", db, "--tz", case["timeZone"], "--now", "2026-12-03T12:00:00Z"]
    run = subprocess.run(common + ["--json", "habit", "add", "--from-ics", str(path)], capture_output=True, text=True)
    if run.returncode != 0:
        return f"exit {run.returncode}: {run.stderr.strip()}"
    habit = json.loads(run.stdout)
    return [habit["name"], habit["startedOn"], habit["rules"].get("remind", [])]


def expected_reminders(case):
    """The reminder times icalendar reads from the case's one recurring event: each alarm's moment
    (its trigger from the start, from the end, or an instant) as a time of day, else a timed
    start's; a zoned time as written, a UTC one in the habit's zone."""
    zone = zoneinfo.ZoneInfo(case["timeZone"])
    text = case["text"] if case["text"].lstrip().startswith("BEGIN:VCALENDAR") else "BEGIN:VCALENDAR\n" + case["text"] + "\nEND:VCALENDAR"
    event = next(c for c in icalendar.Calendar.from_ical(text).walk("VEVENT") if c.get("rrule") is not None)

    def moment(value):
        if not isinstance(value, datetime.datetime):
            return datetime.datetime.combine(value, datetime.time())
        if value.tzinfo is not None and value.utcoffset() == datetime.timedelta(0) and str(value.tzinfo) in ("UTC", "tzutc()"):
            return value.astimezone(zone)
        return value

    start = moment(event.get("dtstart").dt)
    times = set()
    for alarm in event.walk("VALARM"):
        trigger = alarm.get("trigger")
        if isinstance(trigger.dt, datetime.timedelta):
            related = str(trigger.params.get("RELATED", "START")).upper()
            base = moment(event.get("dtend").dt) if related == "END" and event.get("dtend") is not None else start
            at = base + trigger.dt
        else:
            at = trigger.dt.astimezone(zone)
        times.add(f"{at.hour:02d}:{at.minute:02d}")
    if not times and isinstance(event.get("dtstart").dt, datetime.datetime):
        times.add(f"{start.hour:02d}:{start.minute:02d}")
    return sorted(times)


def main():
    if sys.argv[1:] == ["--write"]:
        FIXTURE.write_text(json.dumps(fixture_cases(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {len(CASES)} cases to {FIXTURE.relative_to(ROOT)}")
        return 0
    if len(sys.argv) != 3 or sys.argv[1] != "--check":
        print(__doc__)
        return 64
    stackday = sys.argv[2]
    failures = []
    cases = fixture_cases()
    stored = json.loads(FIXTURE.read_text(encoding="utf-8"))
    if stored != cases:
        failures.append(f"{FIXTURE.name} differs from what dateutil and recurring-ical-events give now: run --write")
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            got = preview(stackday, case)
            if got != case["due"]:
                failures.append(f"{case['name']}: stackday gives {got if isinstance(got, str) else len(got)} days, "
                                f"expected {len(case['due'])}; first difference "
                                f"{next((a, b) for a, b in zip(got + [None] * 999, case['due'] + [None] * 999) if a != b) if not isinstance(got, str) else ''}")
            if case["summary"] is not None:
                named = from_ics(stackday, case, folder)
                expected = [case["summary"], case["from"], expected_reminders(case)]
                if named != expected:
                    failures.append(f"{case['name']}: habit add --from-ics gave {named}, expected {expected}")
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(cases)} pasted recurrences: {len(cases) - len(failures)} agree" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
