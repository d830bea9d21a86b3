#!/usr/bin/env python3
"""Writes Tests/StackDayLuaTests/Fixtures/rrule-cases.json: occurrences of day-level RFC 5545
rules computed by python-dateutil, the independent implementation the rrule policy is checked
against. Test-only: run it after adding a case (pip install python-dateutil)."""
import datetime
import json
import pathlib

from dateutil.rrule import rrulestr

# (name, DTSTART, RULE, last day of the window compared)
CASES = [
    # RFC 5545 section 3.8.5.3, every example that is day-level
    ("daily for 10 occurrences", "1997-09-02", "FREQ=DAILY;COUNT=10", "1998-12-31"),
    ("daily until December 24, 1997", "1997-09-02", "FREQ=DAILY;UNTIL=19971224", "1998-12-31"),
    ("every other day", "1997-09-02", "FREQ=DAILY;INTERVAL=2", "1997-12-31"),
    ("every 10 days, 5 occurrences", "1997-09-02", "FREQ=DAILY;INTERVAL=10;COUNT=5", "1998-12-31"),
    ("every day in January for 3 years (yearly)", "1998-01-01", "FREQ=YEARLY;UNTIL=20000131;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA", "2001-12-31"),
    ("every day in January for 3 years (daily)", "1998-01-01", "FREQ=DAILY;UNTIL=20000131;BYMONTH=1", "2001-12-31"),
    ("weekly for 10 occurrences", "1997-09-02", "FREQ=WEEKLY;COUNT=10", "1998-12-31"),
    ("weekly until December 24, 1997", "1997-09-02", "FREQ=WEEKLY;UNTIL=19971224", "1998-12-31"),
    ("every other week", "1997-09-02", "FREQ=WEEKLY;INTERVAL=2;WKST=SU", "1998-02-28"),
    ("weekly on Tuesday and Thursday for five weeks (until)", "1997-09-02", "FREQ=WEEKLY;UNTIL=19971007;WKST=SU;BYDAY=TU,TH", "1998-12-31"),
    ("weekly on Tuesday and Thursday for five weeks (count)", "1997-09-02", "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH", "1998-12-31"),
    ("every other week on Monday, Wednesday and Friday", "1997-09-01", "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224;WKST=SU;BYDAY=MO,WE,FR", "1998-12-31"),
    ("every other week on Tuesday and Thursday, 8 occurrences", "1997-09-02", "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH", "1998-12-31"),
    ("monthly on the first Friday, 10 occurrences", "1997-09-05", "FREQ=MONTHLY;COUNT=10;BYDAY=1FR", "1999-12-31"),
    ("monthly on the first Friday until December 24, 1997", "1997-09-05", "FREQ=MONTHLY;UNTIL=19971224;BYDAY=1FR", "1999-12-31"),
    ("every other month on the first and last Sunday", "1997-09-07", "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU", "1999-12-31"),
    ("monthly on the second-to-last Monday for 6 months", "1997-09-22", "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO", "1999-12-31"),
    ("monthly on the third-to-the-last day", "1997-09-28", "FREQ=MONTHLY;BYMONTHDAY=-3", "1998-12-31"),
    ("monthly on the 2nd and 15th, 10 occurrences", "1997-09-02", "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15", "1999-12-31"),
    ("monthly on the first and last day, 10 occurrences", "1997-09-30", "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1", "1999-12-31"),
    ("every 18 months on the 10th to 15th", "1997-09-10", "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15", "2000-12-31"),
    ("every Tuesday, every other month", "1997-09-02", "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU", "1998-06-30"),
    ("yearly in June and July, 10 occurrences", "1997-06-10", "FREQ=YEARLY;COUNT=10;BYMONTH=6,7", "2003-12-31"),
    ("every other year on January, February and March", "1997-03-10", "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3", "2004-12-31"),
    ("every third year on the 1st, 100th and 200th day", "1997-01-01", "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200", "2010-12-31"),
    ("every 20th Monday of the year", "1997-05-19", "FREQ=YEARLY;BYDAY=20MO", "2000-12-31"),
    ("Monday of week number 20", "1997-05-12", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "2000-12-31"),
    ("every Thursday in March", "1997-03-13", "FREQ=YEARLY;BYMONTH=3;BYDAY=TH", "1999-12-31"),
    ("every Thursday in June, July and August", "1997-06-05", "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8", "1999-12-31"),
    ("every Friday the 13th", "1997-09-02", "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", "2000-12-31"),
    ("the first Saturday after the first Sunday", "1997-09-13", "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13", "1998-06-30"),
    ("US presidential election day", "1996-11-05", "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", "2024-12-31"),
    ("the third Tuesday, Wednesday or Thursday for 3 months", "1997-09-04", "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3", "1998-12-31"),
    ("the second-to-last weekday of the month", "1997-09-29", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", "1998-06-30"),
    ("every other week on Tuesday and Sunday, WKST=MO", "1997-08-05", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", "1997-12-31"),
    ("every other week on Tuesday and Sunday, WKST=SU", "1997-08-05", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", "1997-12-31"),
    ("invalid dates are skipped: the 15th and 30th", "2007-01-15", "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5", "2007-12-31"),
    # Cases of our own
    ("last working day of the month", "2026-01-01", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2027-12-31"),
    ("the 2nd Tuesday", "2026-01-01", "FREQ=MONTHLY;BYDAY=2TU", "2027-12-31"),
    ("the last Friday", "2026-01-01", "FREQ=MONTHLY;BYDAY=-1FR", "2027-12-31"),
    ("every other week on Tuesday and Sunday from 2026, WKST=MO", "2026-01-06", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=MO", "2026-06-30"),
    ("every other week on Tuesday and Sunday from 2026, WKST=SU", "2026-01-06", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU", "2026-06-30"),
    ("monthly on the 31st", "2024-01-31", "FREQ=MONTHLY;BYMONTHDAY=31", "2025-12-31"),
    ("monthly from a 31st, no BY parts", "2024-01-31", "FREQ=MONTHLY", "2025-12-31"),
    ("yearly on February 29", "2024-02-29", "FREQ=YEARLY", "2036-12-31"),
    ("the 31st or the last day of the month", "2024-01-01", "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1", "2025-12-31"),
    ("the last day of the year", "2020-01-01", "FREQ=YEARLY;BYYEARDAY=-1", "2030-12-31"),
    ("the 2nd-to-last Sunday of the year", "2020-01-01", "FREQ=YEARLY;BYDAY=-2SU", "2030-12-31"),
    ("the last ISO week's Friday", "2020-01-01", "FREQ=YEARLY;BYWEEKNO=-1;BYDAY=FR", "2030-12-31"),
    ("week 1's Monday", "2020-01-01", "FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO", "2030-12-31"),
    ("every 3 days until a date", "2026-02-26", "FREQ=DAILY;INTERVAL=3;UNTIL=20260320", "2026-12-31"),
    ("weekdays in February only", "2024-01-01", "FREQ=DAILY;BYMONTH=2;BYDAY=MO,TU,WE,TH,FR", "2025-12-31"),
    ("yearly on the 1st Monday of September", "2020-01-01", "FREQ=YEARLY;BYMONTH=9;BYDAY=1MO", "2030-12-31"),
    ("quarterly on the first day", "2025-01-01", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1", "2027-12-31"),
    ("the first and last weekday of each month, 12 occurrences", "2026-01-01", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1;COUNT=12", "2027-12-31"),
]


def main():
    out = []
    for name, start, rule, last in CASES:
        dtstart = datetime.datetime.fromisoformat(start)
        end = datetime.datetime.fromisoformat(last)
        occurrences = rrulestr(rule, dtstart=dtstart).between(dtstart, end, inc=True)
        out.append({"name": name, "start": start, "rule": rule, "to": last, "due": [d.date().isoformat() for d in occurrences]})
    path = pathlib.Path(__file__).resolve().parent.parent / "Tests/StackDayLuaTests/Fixtures/rrule-cases.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
