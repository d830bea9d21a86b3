/// The built-in policies' descriptions and parameter help in Korean, keyed by their English text
/// (the scripts' own words, which stay as they are: their hashes pin them). A user's own script
/// is shown in its own words.
enum PolicyWords {
    /// What a person calls each built-in policy (English; Korean in `korean`), where its name is
    /// an id: a form shows these, and sends the name.
    static let titles: [String: String] = [
        "all": "every member",
        "any": "any member",
        "at-least": "at least N members",
        "sum": "members' sum",
        "at-most": "at most a limit",
        "daily": "every day",
        "every-n-days": "every N days",
        "freeze": "freezes",
        "goal": "reach the goal",
        "grace": "grace for misses",
        "monthly-day": "a day of each month",
        "monthly-last-day": "the month's last day",
        "monthly-nth-weekday": "nth weekday of the month",
        "rrule": "calendar rule (RRULE)",
        "strict": "strict",
        "times-in-days": "N times in D days",
        "times-per-month": "N times a month",
        "times-per-week": "N times a week",
        "weekdays": "weekdays",
        "weekly": "chosen weekdays",
    ]

    static let korean: [String: String] = [
        "every member": "모든 항목",
        "any member": "아무 항목이나",
        "at least N members": "N개 이상의 항목",
        "members' sum": "항목 합계",
        "Done when every member due that day is done: progress is the mean of the due members' progress; a skipped member is left out.":
            "그날 해야 하는 항목을 모두 하면 달성입니다. 진행률은 해야 하는 항목들의 진행률 평균이며, 건너뛴 항목은 빼고 셉니다.",
        "Done when any member is done that day (due or not): progress is the furthest member's; a skipped member is left out.":
            "그날 항목 하나라도 하면 달성입니다(해야 하는 날이 아니어도). 진행률은 가장 많이 한 항목의 진행률이며, 건너뛴 항목은 빼고 셉니다.",
        "Done when at least `count` members are done that day (due or not): progress is the sum of the furthest `count` members' progress over `count`; a skipped member is left out.":
            "그날 `count`개 이상의 항목을 하면 달성입니다(해야 하는 날이 아니어도). 진행률은 가장 많이 한 `count`개 항목의 진행률 합을 `count`로 나눈 값이며, 건너뛴 항목은 빼고 셉니다.",
        "How many members make the group done":
            "그룹 달성에 필요한 항목 수",
        "Done when the members' totals together reach `goal` (every member in one unit): progress = min(sum / goal, 1).":
            "항목들의 합계가 함께 `goal`에 이르면 달성입니다(모든 항목이 같은 단위). 진행률 = min(합계 / goal, 1).",
        "What the members' totals must reach together":
            "항목 합계가 함께 이르러야 할 값",
        "at most a limit": "한도 이하",
        "every day": "매일",
        "every N days": "N일마다",
        "freezes": "프리즈",
        "reach the goal": "목표 달성",
        "grace for misses": "놓친 날 용서",
        "a day of each month": "매달 N일",
        "the month's last day": "매달 마지막 날",
        "nth weekday of the month": "매달 n번째 요일",
        "calendar rule (RRULE)": "캘린더 규칙 (RRULE)",
        "strict": "엄격",
        "N times in D days": "D일 중 N회",
        "N times a month": "한 달에 N회",
        "N times a week": "일주일에 N회",
        "weekdays": "평일",
        "chosen weekdays": "고른 요일",

        "Stay at or under a limit (limit: a number >= 0); a day with nothing recorded is met.":
            "한도 이하로 지킵니다 (limit: 0 이상의 수). 아무것도 기록하지 않은 날도 달성입니다.",
        "The most a day may total and still be met":
            "하루 합계가 이 값 이하이면 달성입니다",
        "Every day is due.":
            "매일 해야 합니다.",
        "Every N days counted from the habit's start day (every: 1 or more).":
            "습관 시작일부터 세어 N일마다 해야 합니다 (every: 1 이상).",
        "Days from one due day to the next, counted from the start":
            "해야 하는 날 사이의 일수 (시작일부터 셈)",
        "Every `earnEvery` met due days in a row earn a freeze (up to `max` held); a missed due day spends one instead of breaking the streak.":
            "해야 하는 날을 `earnEvery`번 연속 달성할 때마다 프리즈를 하나 얻습니다(최대 `max`개). 놓친 날에는 연속 기록이 끊기는 대신 프리즈를 하나 씁니다.",
        "Met due days in a row that earn one freeze":
            "프리즈 하나를 얻는 연속 달성 일수",
        "The most freezes held at once":
            "한 번에 가질 수 있는 프리즈 수",
        "A day is done when its total reaches the goal: progress = min(total / goal, 1).":
            "하루 합계가 목표에 이르면 달성입니다: 진행률 = min(합계 / 목표, 1).",
        "Forgives a missed due day when at most `misses` misses fall in the `per` days ending on it; a forgiven miss keeps the streak without adding to it.":
            "놓친 날로 끝나는 `per`일 동안 놓친 날이 `misses`번 이하이면 용서합니다. 용서받은 날은 연속 기록을 이어 주지만 늘리지는 않습니다.",
        "Misses forgiven within the window":
            "기간 안에서 용서하는 놓친 날 수",
        "The window, in days ending on the missed day":
            "놓친 날로 끝나는 기간(일)",
        "Day N of every month (day: 1…31); shortMonth = \"skip\" or \"last\" decides months without that day.":
            "매달 N일 (day: 1…31). 그날이 없는 달은 shortMonth = \"skip\"(건너뜀) 또는 \"last\"(마지막 날)로 정합니다.",
        "The day of the month":
            "날짜(일)",
        "In months without that day: skip the month, or take its last day":
            "그날이 없는 달: 그 달을 건너뛰거나 마지막 날로 합니다",
        "The last day of every month.":
            "매달 마지막 날.",
        "The nth weekday of every month (nth: 1…5, or -1 for the last; weekday: mon … sun).":
            "매달 n번째 요일 (nth: 1…5, 마지막은 -1; weekday: mon … sun).",
        "Which one of the month: 1 to 5, or -1 for the last":
            "그 달의 몇 번째: 1~5, 마지막은 -1",
        "The weekday: mon, tue, wed, thu, fri, sat or sun":
            "요일: mon, tue, wed, thu, fri, sat, sun 중 하나",
        "An RFC 5545 recurrence rule at day level (rule: \"FREQ=…;BY…\", start: DTSTART, default the habit's start).":
            "일 단위 RFC 5545 반복 규칙 (rule: \"FREQ=…;BY…\", start: DTSTART, 기본값은 습관 시작일).",
        "An RFC 5545 RRULE at day level, e.g. FREQ=MONTHLY;BYDAY=2TU":
            "일 단위 RFC 5545 RRULE, 예: FREQ=MONTHLY;BYDAY=2TU",
        "DTSTART as YYYY-MM-DD (default: the habit's start day)":
            "DTSTART, YYYY-MM-DD (기본값: 습관 시작일)",
        "EXDATE: days the rule gives that are not due, as YYYY-MM-DD":
            "EXDATE: 규칙에 있지만 하지 않아도 되는 날, YYYY-MM-DD",
        "RDATE: days due besides the rule's, as YYYY-MM-DD":
            "RDATE: 규칙 외에 해야 하는 날, YYYY-MM-DD",
        "A due day met adds one; a due day missed resets; today pending, skipped and not-due days leave the streak.":
            "해야 하는 날을 달성하면 1 늘고, 놓치면 0으로 돌아갑니다. 아직 진행 중인 오늘, 건너뛴 날, 하지 않아도 되는 날은 연속 기록을 그대로 둡니다.",
        "At least N completed days in the D days ending on each day (times: 1…D, days: 1…366), judged day by day.":
            "각 날로 끝나는 D일 동안 N일 이상 달성해야 하며 (times: 1…D, days: 1…366), 날마다 판정합니다.",
        "Completed days needed in the window (at most days)":
            "기간 안에 달성해야 하는 일수 (days 이하)",
        "The window, in days ending on each day":
            "각 날로 끝나는 기간(일)",
        "Any N days of each calendar month (times: 1…31); streaks and rates count months.":
            "달마다 아무 날이나 N일 (times: 1…31). 연속 기록과 달성률은 달 단위로 셉니다.",
        "Completed days needed in each calendar month":
            "달마다 달성해야 하는 일수",
        "Any N days of each week (times: 1…7), Monday to Sunday or from Sunday (weekStart); streaks and rates count weeks.":
            "한 주에 아무 날이나 N일 (times: 1…7), 월요일~일요일 또는 일요일부터 (weekStart). 연속 기록과 달성률은 주 단위로 셉니다.",
        "Completed days needed in each week":
            "한 주에 달성해야 하는 일수",
        "The day each week begins on: mon or sun":
            "한 주가 시작하는 요일: mon(월요일) 또는 sun(일요일)",
        "Monday to Friday are due; Saturday and Sunday are not.":
            "월요일부터 금요일까지 해야 하고, 토요일과 일요일은 쉽니다.",
        "The chosen weekdays of every week (days: mon … sun).":
            "매주 고른 요일에 해야 합니다 (days: mon … sun).",
        "The weekdays: mon, tue, wed, thu, fri, sat, sun":
            "요일: mon, tue, wed, thu, fri, sat, sun",
    ]
}
