import StackDay

/// The words the surfaces print (the command line and the pages), in English and Korean. English
/// is the key: a word the table lacks prints in English.
public struct Words: Sendable {
    public let language: ReportLanguage

    public init(_ language: ReportLanguage) {
        self.language = language
    }

    /// `text` in this language.
    public subscript(_ text: String) -> String {
        language == .korean ? Self.korean[text] ?? SentenceWords.korean[text] ?? PolicyWords.korean[text] ?? text : text
    }

    /// What a person calls a policy: a built-in's title in this language (`times-per-week` is
    /// "N times a week", "일주일에 N회"), any other policy by its name.
    public func policy(_ name: String) -> String {
        self[PolicyWords.titles[name] ?? name]
    }

    /// What a monthly schedule on day 29–31 does in short months, and how to have the other:
    /// said after a habit is made or its schedule changed.
    public func shortMonths(_ rule: ShortMonthRule) -> String {
        let months = rule.shortMonths.map { language == .korean ? "\($0)월" : Self.monthNames[$0 - 1] }.joined(separator: ", ")
        let other = "--schedule monthly-day --schedule-params '{\"day\":\(rule.day),\"shortMonth\":\"last\"}'"
        switch (language, rule.takesLastDay, rule.isCalendarRule) {
        case (.english, true, _):
            return "Months without day \(rule.day) (\(months)) take their last day; to skip them instead, give shortMonth \"skip\"."
        case (.english, false, false):
            return "Months without day \(rule.day) (\(months)) are not due; to take their last day instead: \(other)."
        case (.english, false, true):
            return "The calendar rule skips months without day \(rule.day) (\(months)), as calendars do; to take their last day instead: \(other)."
        case (.korean, true, _):
            return "\(rule.day)일이 없는 달(\(months))은 그 달의 마지막 날에 합니다. 그런 달을 건너뛰려면 shortMonth \"skip\"을 주세요."
        case (.korean, false, false):
            return "\(rule.day)일이 없는 달(\(months))은 건너뜁니다. 그 달의 마지막 날에 하려면: \(other)"
        case (.korean, false, true):
            return "캘린더 규칙은 \(rule.day)일이 없는 달(\(months))을 건너뜁니다. 그 달의 마지막 날에 하려면: \(other)"
        }
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A sentence in this language with its slots filled: `say("Renamed to '{name}'.", ("name", x))`
    /// (the template is the English; `SentenceWords` holds the Korean).
    public func say(_ template: String, _ slots: (String, String)...) -> String {
        var text = self[template]
        for (slot, value) in slots { text = text.replacingOccurrences(of: "{\(slot)}", with: value) }
        return text
    }

    /// A unit as it follows a number: ` cups` in English; in Korean glued on when it is Korean
    /// (`8잔`) and spaced when it is not (`8 cups`). Empty for no unit.
    public func unitAfterNumber(_ unit: String) -> String {
        if unit.isEmpty { return "" }
        return language == .korean ? WeeklyReportFormatter.koreanUnit(unit) : " " + unit
    }

    /// `3 days`, `3일`; weeks and months likewise.
    public func count(_ count: Int, _ unit: CountUnit) -> String {
        language == .korean ? CountPhrase.korean(count, unit) : CountPhrase.english(count, unit)
    }

    /// A day's state as `today` prints it.
    public func state(_ state: EntryState) -> String {
        switch state {
        case .completed: self["done"]
        case .pending: self["pending"]
        case .skipped: self["skipped"]
        case .notDue: self["not due"]
        case .missed: self["missed"]
        case .upcoming: self["upcoming"]
        }
    }

    /// A day's state, or `over the limit` for a day whose total passed its limit (today's, while
    /// it could still be pending, as well as a past one).
    public func state(_ entry: HabitEntry, target: DayTarget) -> String {
        target.wentOver(entry) ? self["over the limit"] : state(entry.state)
    }

    /// A day's amount beside its target: `3/8 cups`, or under a limit `3 of at most 2 cups`,
    /// `최대 2 중 3 cups`.
    public func amount(_ total: Double, of target: DayTarget, unit: String) -> String {
        let unitText = unit.isEmpty ? "" : " " + unit
        switch target {
        case .goal(let goal): return "\(Quantity.describe(total))/\(Quantity.describe(goal))\(unitText)"
        case .limit(let limit):
            return language == .korean ? "최대 \(Quantity.describe(limit)) 중 \(Quantity.describe(total))\(unitText)"
                                       : "\(Quantity.describe(total)) of at most \(Quantity.describe(limit))\(unitText)"
        }
    }

    /// A target for a day: `goal 8 cups a day`, `at most 2 cups a day`; `하루 목표 8 cups`,
    /// `하루 최대 2 cups`.
    public func target(_ target: DayTarget, unit: String) -> String {
        let amount = Quantity.describe(target.amount) + (unit.isEmpty ? "" : " " + unit)
        switch (target, language) {
        case (.goal, .korean): return "하루 목표 \(amount)"
        case (.limit, .korean): return "하루 최대 \(amount)"
        case (.goal, _): return "goal \(amount) a day"
        case (.limit, _): return "at most \(amount) a day"
        }
    }

    /// A month's short name: `Oct`, `10월`.
    public func month(_ month: Int) -> String {
        guard (1...12).contains(month) else { return String(month) }
        return language == .korean ? "\(month)월" : ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month - 1]
    }

    /// Monday … Sunday, short: `Mon`, `월`.
    public var weekdays: [String] {
        language == .korean ? ["월", "화", "수", "목", "금", "토", "일"] : ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    }

    /// The weekdays short, in the order a week beginning on `start` shows them.
    public func weekdays(_ start: WeekStart) -> [String] {
        start.weekdays.map { weekdays[$0 - 1] }
    }

    static let korean: [String: String] = [
        "Today": "오늘", "Sign out": "로그아웃", "offline · {n} waiting": "오프라인 · {n}개 대기 중", "waiting · tap to take back": "대기 중 · 누르면 취소", "Not kept: {what} ({habit}).": "저장되지 않음: {what} ({habit}).",
        "Webhooks": "웹훅",
        "Each event is POSTed as signed JSON to the address, and retried for a day until it is taken (docs/server.md, Webhooks).":
            "각 이벤트를 서명한 JSON으로 이 주소에 POST하고, 받을 때까지 하루 동안 다시 보냅니다 (docs/server.md, Webhooks).",
        "Its secret, shown only now: check each delivery's X-StackDay-Signature with it.": "비밀 키는 지금만 보입니다. 이 키로 각 전송의 X-StackDay-Signature를 확인하세요.",
        "No webhooks yet.": "아직 웹훅이 없습니다.", "latest": "최근", "delivered": "전달됨", "waiting to be sent": "보내기 대기 중", "failed": "실패",
        "Address": "주소", "Events": "이벤트", "Add a webhook": "웹훅 추가", "Sign in": "로그인", "Add a habit": "습관 추가", "Name": "이름", "Goal a day": "하루 목표",
        "Unit": "단위", "Schedule": "일정", "Or say it in words, or paste a calendar rule": "또는 말로 쓰거나 캘린더 규칙을 붙여 넣기",
        "mon wed fri": "월 수 금",
        "For example: 3 times a week, last friday of the month, or RRULE, DTSTART and EXDATE lines copied from a calendar.":
            "예: 주 3회, 매월 마지막 금요일, 또는 캘린더에서 복사한 RRULE, DTSTART, EXDATE 줄.",
        "Progress": "진행 방식", "Streak rule": "연속 규칙", "Create": "만들기", "Record": "기록",
        "Later": "나중에", "Reminders on this device": "이 기기의 알림", "Remind me on this device": "이 기기로 알림 받기", "Send a test": "시험 알림 보내기",
        "At each reminder time, a notification for each habit still open, with Done and Later. On an iPhone, add StackDay to the home screen first.":
            "알림 시각마다 아직 끝나지 않은 습관마다 완료와 나중에 버튼이 있는 알림이 옵니다. iPhone에서는 먼저 StackDay를 홈 화면에 추가하세요.",
        "Reminders need the page's script and a browser that takes notifications.": "알림을 받으려면 페이지의 스크립트와 알림을 받는 브라우저가 필요합니다.", "Not done yet today": "오늘 아직 하지 않았어요", "{total} of {goal} so far today": "오늘 지금까지 {goal} 중 {total}",
        "Reminders reach this device.": "이 기기로 알림이 옵니다.",
        "Done": "완료", "Undo": "되돌리기", "Skip": "건너뛰기", "Amount": "양", "streak": "연속", "longest": "최장", "rate": "달성률",
        "score": "점수", "No active habits yet. Add one below.": "아직 습관이 없습니다. 아래에서 추가하세요.", "Language": "언어", "Save": "저장",
        "Previous month": "이전 달", "Next month": "다음 달", "Last year": "지난 1년", "Score": "점수", "Edit": "수정",
        "Rules from": "새 규칙 적용일", "Archive": "보관", "Archive on": "보관일", "Unarchive": "보관 해제", "Records": "기록",
        "Nothing recorded on this day.": "이 날의 기록이 없습니다.", "Back to today": "오늘로", "Your token": "토큰", "Password": "비밀번호", "Or your token": "또는 토큰",
        "over the limit": "한도 초과", "within the limit": "한도 안", "tap to take back": "누르면 취소", "Skipped · take back": "건너뜀 · 취소",
        "Weeks start on": "한 주의 시작", "Monday": "월요일", "Sunday": "일요일",
        "Habits counted by the week take the new weeks from the next one; weeks already judged keep their figures.":
            "주 단위로 세는 습관은 다음 주부터 새 주를 따릅니다. 이미 판정된 주의 기록은 그대로입니다.",
        "Step for +": "+ 한 번에 더할 양", "Colour": "색", "No colour": "색 없음", "Place in the list": "목록 순서", "Move up": "위로",
        "Move down": "아래로", "red": "빨강", "orange": "주황", "amber": "호박색", "green": "초록", "teal": "청록", "cyan": "하늘색",
        "blue": "파랑", "indigo": "남색", "purple": "보라", "pink": "분홍", "brown": "갈색", "grey": "회색",
        "Today's records": "오늘의 기록", "Remove": "지우기", "Archived": "보관함", "until": "마지막 날",
        "Built-in versions your habits run": "습관이 쓰는 기본 정책 버전", "Nothing left to do today.": "오늘 남은 일이 없습니다.", "Start from a built-in policy": "기본 정책에서 시작하기",
        "That name and password do not match.": "이름과 비밀번호가 맞지 않습니다.",
        "Paste the token `stackday user add` printed.": "`stackday user add`가 출력한 토큰을 붙여 넣으세요.", "Parameters": "매개변수",
        "Signed in as": "로그인:", "Current streak": "현재 연속", "Longest streak": "최장 연속", "Completion rate": "달성률",
        "Habit strength": "습관 강도", "Legend": "범례", "archived": "보관됨", "Calendar": "달력", "Day": "날짜",
        "met": "달성", "partly done": "일부 달성", "missed": "놓침", "skipped": "건너뜀", "notDue": "쉬는 날", "pending": "남음", "over": "초과", "future": "예정",
        "done": "완료", "to do": "할 일", "not due": "쉬는 날", "later": "예정", "Settings": "설정", "Error": "오류",
        "That token belongs to no user.": "어느 사용자의 토큰도 아닙니다.", "Less": "적음", "More": "많음",
        "StackDay": "StackDay", "Delete": "삭제",
        "Rule lab": "규칙 실험실", "Role": "역할", "Policy": "정책", "Try it": "시험해 보기", "Now": "지금", "Proposed": "제안",
        "Change": "변화", "Days that differ": "달라지는 날", "Apply from": "적용 시작일", "Apply": "적용", "Rule revisions": "규칙 개정",
        "Bring back revision": "되돌릴 개정", "Roll back": "되돌리기", "schedule": "일정", "progress": "진행", "Policies": "정책",
        "Installed policies": "설치한 정책", "Built-in policies": "기본 정책", "Open": "열기", "Install": "설치", "Policy editor": "정책 편집기",
        "Source": "소스", "Installed": "설치됨", "Nothing installed yet.": "아직 설치한 정책이 없습니다.",
        "The checks refused the script:": "검사에서 스크립트가 거부되었습니다:",
        "Habit": "습관", "Today's progress": "오늘 진행", "State": "상태", "Streak": "연속", "This week": "이번 주", "Last year · Score": "지난 1년 · 점수",
        "Time zone": "시간대", "Day starts at": "하루 시작 시각", "Sync": "동기화", "No sync has needed a decision yet.": "아직 판단이 필요한 동기화가 없었습니다.",
        "The latest sync that needed a decision": "판단이 필요했던 최근 동기화", "device": "기기",
        "Renamed, two habits had one name:": "이름이 같은 습관이 있어 이름을 바꿨습니다:", "a later change kept": "나중 변경이 유지됨:",
        "start day": "시작일", "archive day": "보관일", "colour": "색", "step": "기록 단계", "place in the list": "목록 순서", "unit": "단위",
        "the device had": "기기의 값", "Not kept, its habit was deleted:": "습관이 삭제되어 보관하지 않음:", "skip": "건너뛰기", "record": "기록",
        "Devices": "기기", "Connect a device": "기기 연결", "Enter this code on the device within 10 minutes, or scan it with the phone's camera:":
            "10분 안에 기기에서 이 코드를 입력하거나 휴대폰 카메라로 찍으세요:", "QR code of the pairing link": "연결 링크의 QR 코드",
        "On a computer:": "컴퓨터에서:", "It stops working at": "만료 시각:", "No device is connected by a code.": "코드로 연결한 기기가 없습니다.",
        "connected": "연결", "last seen": "최근 사용", "Revoke": "연결 끊기",
        "Calendar feed": "캘린더 구독", "A calendar app subscribed to this address shows each habit on its due days, a year ahead, and checks it every hour.":
            "캘린더 앱에서 이 주소를 구독하면 습관마다 해야 하는 날이 1년 앞까지 보이고, 한 시간마다 새로 읽습니다.",
        "Make a calendar address": "캘린더 주소 만들기", "New address (the old one stops working)": "새 주소 (이전 주소는 더 이상 쓸 수 없음)",
        "Remind at": "알림 시각", "the habit was deleted on another device": "다른 기기에서 습관을 삭제했습니다", "question": "질문", "Question": "질문", "This browser is signed in as the device": "이 브라우저는 다음 기기로 로그인했습니다:",
        "The account's settings, devices, calendar feed and webhooks need the account's own sign-in.": "계정 설정, 기기, 캘린더 피드, 웹훅은 계정으로 직접 로그인해야 바꿀 수 있습니다.",
        "reminders": "알림", "none": "없음", "Reminders from the event: {times}": "일정의 알림에서 가져온 알림 시각: {times}",
        "Times of day, such as 08:00, 21:00: the calendar feed rings at them on due days.":
            "08:00, 21:00처럼 하루 중 시각을 적으면 캘린더 구독이 해야 하는 날 그 시각에 알려 줍니다.",
        "Pairing code": "연결 코드", "This device's name": "이 기기의 이름", "phone": "휴대폰", "Connect": "연결하기",
        // The command line's.
        "upcoming": "예정", "Today,": "오늘,", "No active habits.": "진행 중인 습관이 없습니다.",
        "No habits yet.": "아직 습관이 없습니다.", "HABIT": "습관", "DONE": "완료", "DUE": "대상", "RATE": "달성률",
        "STREAK": "연속", "LONGEST": "최장", "SCORE": "점수", "DAY": "날짜", "AMOUNT": "양", "RECORDED AT": "기록 시각", "NOTE": "메모",
        "name": "이름", "goal": "목표", "limit": "한도", "started": "시작", "archived on": "보관", "rules": "규칙", "streak rule": "연속 규칙",
        "completed": "달성", "now": "지금", "no": "아니요", "a day": "하루", "revision": "개정", "of": "/", "from": "부터",
        "due days": "대상일", "error": "오류", "Usage": "사용법", "Note": "메모", "Record with a note": "메모와 함께 기록",
        "NAME": "이름", "GOAL": "목표", "SCHEDULE": "일정", "STARTED": "시작", "ARCHIVED": "보관",
        "ROLES": "역할", "FOLDER": "폴더", "DESCRIPTION": "설명", "OUTCOME": "결과", "CURRENT": "현재", "TIME ZONE": "시간대",
        "DAY STARTS": "하루 시작", "CREATED": "만든 시각", "PROPOSED": "제안", "current streak": "현재 연속",
        "longest streak": "최장 연속", "eligible": "대상", "file": "파일", "roles": "역할", "description": "설명",
        "params": "기본값", "examples": "예시",
        // Where a policy is found.
        "installed": "설치함", "folder": "폴더", "published": "서버가 공개", "shared": "공유받음", "built-in": "기본", "pinned": "습관이 쓰는 중",
        "shared by {name}": "{name} 님이 공유", "Policies you can use": "쓸 수 있는 정책", "Roles": "역할", "Description": "설명",
        "Try on my history": "내 기록으로 해 보기", "SOURCE": "출처", "SHA256": "SHA256", "taken back by revision {n}": "개정 {n}에서 되돌림",
        "takes back revision {n}": "개정 {n}을 되돌림", "Scripts": "스크립트", "Take back the latest change": "마지막 변경 되돌리기",
        "Bring back an earlier revision": "이전 개정 되살리기", "What the policy traced": "정책이 trace로 남긴 줄",
        "Share with": "공유할 사용자", "Share": "공유", "Shared": "공유함",
        // Groups.
        "Groups": "그룹", "GROUP": "그룹", "MEMBERS": "습관", "RULE": "그룹 규칙", "STREAK RULE": "연속 규칙", "members": "습관",
        "rule": "그룹 규칙", "today": "오늘", "Group": "그룹", "Members": "습관", "Done all": "모두 완료", "Rules": "규칙",
        "Why the streak is what it is": "연속 기록이 왜 이런지",
    ]
}
