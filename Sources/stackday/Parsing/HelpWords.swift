import StackDay

/// The help's words in Korean, keyed by their English text: every command's abstract and
/// discussion, every option's and argument's help, and the headings. A text without a Korean
/// entry is shown in English (a test keeps the table complete).
enum HelpWords {
    static func say(_ text: String, _ language: ReportLanguage) -> String {
        language == .korean ? korean[text] ?? text : text
    }

    static let korean: [String: String] = [
        "OVERVIEW": "개요", "USAGE": "사용법", "ARGUMENTS": "인수", "OPTIONS": "옵션", "SUBCOMMANDS": "하위 명령",
        "Show the version.": "버전을 보여 줍니다.", "Show help information.": "도움말을 보여 줍니다.",
        "A streaming replica of the PostgreSQL database that reads may use, each user's once it has replayed their writes (default: none).":
            "읽기에 쓸 수 있는 PostgreSQL 데이터베이스의 스트리밍 복제본. 사용자마다 그 사용자의 쓰기를 복제본이 다 재생한 뒤에만 씁니다(기본: 없음).",
        "--schedule takes a policy's name, words (\"3 times a week\", \"매월 마지막 금요일\"), or a rule pasted\nfrom a calendar (RRULE, DTSTART and EXDATE lines, or a VEVENT). --from-ics reads an .ics file's one\nrecurring event: its rule, its start, and its SUMMARY as the name when none is given.":
            "--schedule에는 정책 이름, 말(\"주 3회\", \"매월 마지막 금요일\"), 또는 캘린더에서 붙여 넣은 규칙(RRULE, DTSTART,\nEXDATE 줄, 또는 VEVENT)을 씁니다. --from-ics는 .ics 파일의 반복 일정 하나를 읽습니다. 그 규칙과 시작일을 쓰고,\n이름을 주지 않으면 SUMMARY를 이름으로 씁니다.",
        "--week-starts sun (the global option, given with this command) makes the user's weeks run Sunday to Saturday: calendars, the weekly report, and each habit counted by the week, which gets new rules from the first Sunday on (weeks already judged keep their figures).":
            "--week-starts sun(이 명령과 함께 주는 전역 옵션)은 사용자의 한 주를 일요일~토요일로 바꿉니다. 달력, 주간 보고서, 그리고 주 단위로 세는 습관마다 다음 일요일부터 새 규칙이 적용됩니다(이미 판정된 주의 기록은 그대로입니다).",
        "A TLS proxy in front is this server's only client: no warning for plain HTTP beyond loopback.":
            "앞에 둔 TLS 프록시만 이 서버의 클라이언트입니다. 루프백 밖의 평문 HTTP에도 경고하지 않습니다.",
        "A browser origin that may call the API (CORS; repeatable; default: none).":
            "API를 호출할 수 있는 브라우저 출처(CORS, 여러 번 지정 가능, 기본: 없음).",
        "A calendar app subscribes to the server's address followed by this path: the user's habits, each on its due days a year ahead, fetched again every hour. --rotate gives the feed a new address; the old one stops working.":
            "캘린더 앱은 서버 주소 뒤에 이 경로를 붙여 구독합니다. 사용자의 습관이 1년 앞까지 해야 하는 날마다 나오며, 한 시간마다 다시 받아 갑니다. --rotate는 피드에 새 주소를 주고, 옛 주소는 더 이상 쓸 수 없습니다.",
        "A calendar of each habit named: weeks as columns, the week's first day on top, a mark for each day's state.":
            "지정한 습관마다 달력을 보여 줍니다. 열은 주, 맨 위는 주의 첫날이며, 날마다 상태 표시가 있습니다.",
        "A code from the web app's Settings › Connect a device: exchanged once for this device's own token, which this store keeps (it is never printed).":
            "웹 앱의 설정 › 기기 연결에서 받은 코드. 한 번만 이 기기 전용 토큰으로 바뀌며, 그 토큰은 이 저장소에 보관됩니다(출력되지 않습니다).",
        "A colour to recognise the habit by: red, orange, amber, green, teal, cyan, blue, indigo, purple, pink, brown, grey, or none.":
            "습관을 알아보기 위한 색: red, orange, amber, green, teal, cyan, blue, indigo, purple, pink, brown, grey, 또는 none.",
        "A fixed current instant, ISO 8601 with an offset (2026-10-11T20:00:00+09:00).":
            "고정된 현재 시각, 오프셋이 있는 ISO 8601(2026-10-11T20:00:00+09:00).",
        "A habit's rule revisions: number, first day, and each role's policy@hash.":
            "습관의 규칙 개정 목록: 번호, 첫날, 역할마다 정책@해시.",
        "A new address; the old one answers 404 from now on.":
            "새 주소. 옛 주소는 이제 404로 답합니다.",
        "A new goal or policy is a new rule revision: days before --from keep their results.\nA policy named as before keeps its pinned script; 'stackday policy upgrade' moves it.":
            "새 목표나 정책은 새 규칙 개정입니다. --from 이전 날의 결과는 그대로입니다.\n전과 같은 이름의 정책은 고정된 스크립트를 유지합니다. 'stackday policy upgrade'로 옮길 수 있습니다.",
        "A note kept with the record (at most 1000 characters).":
            "기록에 붙여 두는 메모(최대 1000자).",
        "A path to a .lua file, or a name: the policy folder's file, else what the name resolves to.":
            ".lua 파일 경로, 또는 이름: 정책 폴더의 파일, 없으면 그 이름이 가리키는 정책.",
        "A policy name or a path to a .lua file.":
            "정책 이름 또는 .lua 파일 경로.",
        "A policy's description, roles, parameters and examples, then the source in use (a name or a .lua file).":
            "정책의 설명, 역할, 매개변수, 예시, 그리고 지금 쓰이는 소스(이름 또는 .lua 파일).",
        "A proxy whose X-Forwarded-For and X-Forwarded-Proto are believed (repeatable).":
            "X-Forwarded-For와 X-Forwarded-Proto를 믿을 프록시(여러 번 지정 가능).",
        "A request holding a thread longer is answered 503 and the thread replaced (default: 5).":
            "스레드를 이보다 오래 붙잡는 요청에는 503으로 답하고 스레드를 바꿉니다(기본: 5).",
        "A time to be reminded on due days, while the day is still open: push to subscribed browsers, webhooks, the calendar feed (repeatable; none for none; default: none).":
            "해야 하는 날 아직 끝나지 않았을 때 알림을 받을 시각: 구독한 브라우저로 푸시, 웹훅, 캘린더 피드(여러 번 지정 가능, 없으면 none, 기본: 없음).",
        "Add a user; prints its new token, which is shown only this once.":
            "사용자를 추가합니다. 새 토큰을 출력하며, 토큰은 이때 한 번만 보입니다.",
        "An .ics file with one recurring event: its rule and start (and name).":
            "반복 일정 하나가 든 .ics 파일: 그 규칙과 시작일(과 이름).",
        "Answer the HTTP JSON API for the store's users (see 'stackday user').":
            "저장소의 사용자들에게 HTTP JSON API를 제공합니다('stackday user' 참고).",
        "Any day of the week to report (default: today).":
            "보고할 주의 아무 날(기본: 오늘).",
        "Bytes a second a request body must average after the header timeout; slower ones are closed (default: 1024).":
            "헤더 시간 제한 뒤 요청 본문이 평균 초당 보내야 하는 바이트. 더 느리면 연결을 닫습니다(기본: 1024).",
        "CPU time all of one request's policy calls may take (default: 500).":
            "한 요청의 정책 호출 전체가 쓸 수 있는 CPU 시간(기본: 500).",
        "Certificate authorities (PEM) trusted besides the system's, for a server with its own (default: $STACKDAY_CACERT).":
            "시스템의 인증 기관 외에 믿을 인증 기관(PEM), 자체 인증서를 쓰는 서버용(기본: $STACKDAY_CACERT).",
        "Change a habit's goal, unit, start day or policies.":
            "습관의 목표, 단위, 시작일 또는 정책을 바꿉니다.",
        "Show a user's limits, or give the user limits of their own.":
            "사용자의 한도를 보여 주거나, 그 사용자만의 한도를 줍니다.",
        "Each limit is what the user may hold: scripts, script-bytes (installed scripts and their bytes), habits, webhooks, devices, pairing-codes (open ones), records-per-day (records of one habit on one day), sync-page (changes in one sync answer). A limit of the user's own holds over the server's (serve --limit), which holds over the standard one. Going over one stores nothing and answers quota_exceeded.":
            "한도는 사용자가 가질 수 있는 양입니다: scripts, script-bytes(설치한 스크립트 수와 그 바이트), habits, webhooks, devices, pairing-codes(아직 쓰지 않은 것), records-per-day(한 습관의 하루 기록 수), sync-page(동기화 응답 하나의 변경 수). 사용자만의 한도가 서버의 한도(serve --limit)보다, 서버의 한도가 기본 한도보다 우선합니다. 한도를 넘으면 아무것도 저장하지 않고 quota_exceeded로 답합니다.",
        "Give the user a limit of their own, as NAME=N (repeatable).":
            "사용자만의 한도를 NAME=N으로 줍니다(여러 번 쓸 수 있음).",
        "Take the user's own limit of NAME away: the server's holds again (repeatable).":
            "사용자만의 NAME 한도를 없앱니다. 서버의 한도가 다시 적용됩니다(여러 번 쓸 수 있음).",
        "A limit every user is held to unless they have their own (stackday user limits), as NAME=N (repeatable).":
            "사용자만의 한도(stackday user limits)가 없을 때 모든 사용자에게 적용할 한도, NAME=N(여러 번 쓸 수 있음).",
        "Change a user's week start or language.":
            "사용자의 한 주 시작 요일이나 언어를 바꿉니다.",
        "Check a policy in the sandbox, run its examples, then store it by its SHA-256.":
            "정책을 샌드박스에서 검사하고 예시를 실행한 뒤 SHA-256으로 저장합니다.",
        "Colour the output: auto (a terminal, unless NO_COLOR is set), always or never (default: auto).":
            "출력에 색을 씁니다: auto(터미널이고 NO_COLOR가 없을 때), always 또는 never(기본: auto).",
        "Compile a policy, check its roles and run its examples.":
            "정책을 컴파일하고, 역할을 검사하고, 예시를 실행합니다.",
        "Completed and eligible days (or periods), rate, streaks and score.":
            "달성한 날과 대상일(또는 기간), 달성률, 연속 기록, 점수.",
        "Connections one client address may hold (default: 64).":
            "클라이언트 주소 하나가 가질 수 있는 연결 수(기본: 64).",
        "Create a habit.":
            "습관을 만듭니다.",
        "Create and manage habits.":
            "습관을 만들고 관리합니다.",
        "Delete a habit with its completions and skips (asks first; --yes for scripts).":
            "습관을 기록과 건너뛴 날까지 지웁니다(먼저 묻습니다. 스크립트에서는 --yes).",
        "Do it without asking (for scripts; without a terminal it is required).":
            "묻지 않고 합니다(스크립트용. 터미널이 없으면 꼭 필요합니다).",
        "Each active habit today: due or not, progress and streak.":
            "오늘의 진행 중인 습관마다: 해야 하는지, 진행, 연속 기록.",
        "Each request carries a user's token (Authorization: Bearer TOKEN) and runs as that user, in the user's\ntime zone. SIGTERM or SIGINT stops accepting, lets requests in flight finish (up to 3 s) and exits 0,\neven when a call is stuck. One access line per request goes to stderr: method, path, status,\nmilliseconds, user (control characters escaped).\nAll of one request's policy calls share one budget of work and CPU time; a client (one token or session,\nelse one address) is answered on at most half the threads at once, its other requests waiting in the\nqueue, so one user's load cannot hold the server.\nWith --tls-cert and --tls-key it serves HTTPS (TLS 1.2 and 1.3) itself, with Strict-Transport-Security and\nSecure cookies; SIGHUP reads the two files again, for new connections (open ones keep theirs).\nWebhooks (POST /v1/webhooks) are sent from a queue kept in the store, retried with backoff for 24 hours;\nloopback and private addresses are refused unless --allow-local-webhooks.\nReminders go to the browsers that subscribed (Web Push, signed with a key made on the first start and\nkept in the store) and to webhooks that want them, at each reminder time, only for habits still open.":
            "요청마다 사용자의 토큰(Authorization: Bearer TOKEN)을 싣고, 그 사용자로서 그 사용자의 시간대로 실행됩니다.\nSIGTERM이나 SIGINT를 받으면 새 연결을 받지 않고, 처리 중인 요청을 끝낸 뒤(최대 3초) 0으로 끝납니다.\n호출이 멈춰 있어도 그렇습니다. 요청마다 접근 기록 한 줄이 stderr로 갑니다: 메서드, 경로, 상태,\n밀리초, 사용자(제어 문자는 이스케이프).\n한 요청의 정책 호출은 작업량과 CPU 시간 예산 하나를 나눠 씁니다. 한 클라이언트(토큰이나 세션 하나,\n없으면 주소 하나)는 한 번에 스레드의 절반까지만 쓰고 나머지 요청은 대기열에서 기다리므로,\n한 사용자의 부하가 서버를 붙잡을 수 없습니다.\n--tls-cert와 --tls-key를 주면 HTTPS(TLS 1.2, 1.3)를 직접 제공하며 Strict-Transport-Security와\nSecure 쿠키를 씁니다. SIGHUP을 받으면 두 파일을 다시 읽어 새 연결에 씁니다(열린 연결은 그대로).\n웹훅(POST /v1/webhooks)은 저장소의 대기열에서 보내며, 24시간 동안 간격을 늘려 가며 다시 보냅니다.\n--allow-local-webhooks가 없으면 루프백과 사설 주소는 거부합니다.\n알림은 구독한 브라우저(Web Push, 처음 시작할 때 만들어 저장소에 둔 키로 서명)와 알림을 원하는 웹훅으로,\n알림 시각마다 아직 끝나지 않은 습관에 대해서만 갑니다.",
        "Each state has its own mark: █ met, ▒ partly done, x missed, - skipped, · not due, ? pending; a legend line says so. Colours are added on a terminal unless NO_COLOR is set (--color always or never decides instead). A habit whose policy fails shows its error instead.":
            "상태마다 표시가 따로 있습니다: █ 달성, ▒ 일부 달성, x 놓침, - 건너뜀, · 쉬는 날, ? 남음. 범례 줄이 이를 알려 줍니다. 터미널에서는 NO_COLOR가 없으면 색을 씁니다(--color always 또는 never로 정할 수 있습니다). 정책이 실패한 습관은 그 오류를 보여 줍니다.",
        "Evaluate every habit from scratch, neither reading nor keeping cached policy answers.":
            "캐시된 정책 답을 읽지도 남기지도 않고 모든 습관을 처음부터 계산합니다.",
        "Every policy you can name: where it is found (installed, folder, published, shared, built-in), its hash, roles and description.":
            "쓸 수 있는 모든 정책: 찾은 곳(설치, 폴더, 공개, 공유, 기본), 해시, 역할, 설명.",
        "Excuse a day or a range of days; a skipped day neither counts nor breaks a streak.":
            "하루나 며칠을 면제합니다. 건너뛴 날은 세지도 않고 연속 기록을 끊지도 않습니다.",
        "Exit 1 when a habit is still open today, 0 when none is.":
            "오늘 아직 남은 습관이 있으면 1, 없으면 0으로 끝납니다.",
        "Failed authentications one address may make in a minute before it waits (default: 10).":
            "주소 하나가 1분에 실패할 수 있는 인증 횟수, 넘으면 기다려야 합니다(기본: 10).",
        "For cron: 'stackday today --pending --exit-status' lists what is still open today and exits 1 while anything is, 0 when nothing is; e.g. at 21:00: 0 21 * * * stackday today --pending --exit-status >/dev/null || notify-send StackDay \"Habits still open today\"":
            "cron용: 'stackday today --pending --exit-status'는 오늘 아직 남은 습관을 보여 주고, 남은 것이 있으면 1, 없으면 0으로 끝납니다. 예를 들어 21:00에: 0 21 * * * stackday today --pending --exit-status >/dev/null || notify-send StackDay \"Habits still open today\"",
        "Give a user a new token (the old one stops working); prints it.":
            "사용자에게 새 토큰을 줍니다(옛 토큰은 더 이상 쓸 수 없습니다). 토큰을 출력합니다.",
        "How long a browser session lasts (default: 30).":
            "브라우저 세션이 유지되는 기간(기본: 30).",
        "How long an idle connection is kept (default: 30).":
            "쉬고 있는 연결을 유지하는 시간(기본: 30).",
        "How much (default: 1).":
            "양(기본: 1).",
        "How much makes a day done (default: 1).":
            "하루를 달성으로 치는 양(기본: 1).",
        "How much makes a day done (default: unchanged).":
            "하루를 달성으로 치는 양(기본: 그대로).",
        "Inspect, check and try out Lua policies.":
            "Lua 정책을 살펴보고, 검사하고, 시험해 봅니다.",
        "Install a policy's current file and move every active habit using it onto it.":
            "정책의 현재 파일을 설치하고, 그 정책을 쓰는 진행 중인 습관을 모두 그 파일로 옮깁니다.",
        "Judge the whole history by the new rules, from the start day.":
            "새 규칙으로 시작일부터 전체 기록을 다시 판정합니다.",
        "Leave archived habits out.":
            "보관한 습관은 빼고 보여 줍니다.",
        "Let push subscriptions name a push service on loopback or a private address (tests, a self-hosted service).":
            "푸시 구독이 루프백이나 사설 주소의 푸시 서비스를 쓰게 합니다(테스트, 직접 운영하는 서비스).",
        "Whom push services may contact about this server's messages: mailto:… or https://… (default: mailto:stackday@HOST).":
            "푸시 서비스가 이 서버의 메시지에 대해 연락할 곳: mailto:… 또는 https://…(기본: mailto:stackday@HOST).",
        "Let webhooks go to loopback and private addresses (a receiver on this machine or network).":
            "웹훅을 루프백과 사설 주소로도 보냅니다(이 컴퓨터나 네트워크의 수신자).",
        "List a habit's records: day, amount, when each was recorded, and its note.":
            "습관의 기록 목록: 날짜, 양, 기록한 시각, 메모.",
        "List habits in their order ('habit move' changes it).":
            "습관을 순서대로 보여 줍니다('habit move'로 순서를 바꿉니다).",
        "List users: name, time zone, day start, created.":
            "사용자 목록: 이름, 시간대, 하루 시작 시각, 만든 때.",
        "Load the sample habits into a fresh database and print their weekly report.":
            "예시 습관을 새 데이터베이스에 넣고 주간 보고서를 출력합니다.",
        "Manage the users a server answers for and their tokens.":
            "서버가 응답할 사용자와 그 토큰을 관리합니다.",
        "Mark session cookies Secure even without X-Forwarded-Proto: https (behind a TLS proxy).":
            "X-Forwarded-Proto: https가 없어도 세션 쿠키에 Secure를 붙입니다(TLS 프록시 뒤에서).",
        "Move a habit in the list: before another, or last.":
            "목록에서 습관을 옮깁니다: 다른 습관 앞으로, 또는 맨 뒤로.",
        "Move it after every other habit.":
            "다른 모든 습관 뒤로 옮깁니다.",
        "No progress or working… lines on stderr (they appear only on a terminal).":
            "stderr에 진행 표시나 작업 중… 줄을 쓰지 않습니다(터미널에서만 나옵니다).",
        "On a terminal the password is asked twice, not shown; otherwise the first line of standard input is it. 8 to 1024 characters. Stored as an Argon2id hash; the token keeps working.":
            "터미널에서는 비밀번호를 보이지 않게 두 번 묻고, 아니면 표준 입력의 첫 줄이 비밀번호입니다. 8자에서 1024자. Argon2id 해시로 저장하며, 토큰은 계속 쓸 수 있습니다.",
        "One self-contained HTML page: the week's report and a year heatmap per habit.":
            "그 자체로 완결된 HTML 페이지 하나: 주간 보고서와 습관마다 1년 히트맵.",
        "Only the archived habits ('habit unarchive NAME' brings one back).":
            "보관한 습관만('habit unarchive NAME'으로 되살립니다).",
        "Only the habits still open today (due and not yet met).":
            "오늘 아직 남은 습관만(해야 하고 아직 달성하지 않은).",
        "Only this habit.":
            "이 습관만.",
        "Parameters for the policy, a JSON object.":
            "정책의 매개변수, JSON 객체.",
        "Parameters for the progress policy, a JSON object.":
            "진행 정책의 매개변수, JSON 객체.",
        "Parameters for the schedule policy, a JSON object.":
            "일정 정책의 매개변수, JSON 객체.",
        "Parameters for the streak policy, a JSON object.":
            "연속 정책의 매개변수, JSON 객체.",
        "Print machine-readable JSON on stdout.":
            "기계가 읽을 JSON을 stdout에 출력합니다.",
        "Print reports.":
            "보고서를 출력합니다.",
        "Print the path of a user's calendar feed (/v1/feeds/TOKEN.ics), made on first asking.":
            "사용자 캘린더 피드의 경로(/v1/feeds/TOKEN.ics)를 출력합니다. 처음 물을 때 만들어집니다.",
        "Read an export, or Loop Habit Tracker's CSV folder; importing twice changes nothing.":
            "내보낸 파일이나 Loop Habit Tracker의 CSV 폴더를 읽습니다. 두 번 가져와도 달라지는 것은 없습니다.",
        "Record an amount for a habit.":
            "습관의 양을 기록합니다.",
        "Remove a user with all of its habits, records, skips and scripts (asks first; --yes for scripts).":
            "사용자를 습관, 기록, 건너뛴 날, 스크립트까지 모두 지웁니다(먼저 묻습니다. 스크립트에서는 --yes).",
        "Remove the latest completion of a day.":
            "하루의 마지막 기록을 지웁니다.",
        "Rename a habit.":
            "습관의 이름을 바꿉니다.",
        "Requests a minute one user may make, whichever token carries them (default: no limit).":
            "사용자 한 명이 1분에 보낼 수 있는 요청 수, 어느 토큰으로 보내든(기본: 제한 없음).",
        "Requests of one client answered at once (default: half the threads, at least 1).":
            "한 클라이언트의 요청을 동시에 처리하는 수(기본: 스레드의 절반, 최소 1).",
        "Requests of one client that may wait; more are answered 503 (default: 64).":
            "한 클라이언트의 요청이 기다릴 수 있는 수. 넘으면 503으로 답합니다(기본: 64).",
        "Resume tracking an archived habit.":
            "보관한 습관을 다시 진행합니다.",
        "Run a streak rule over a history, or a habit's real history under a proposed policy.":
            "연속 규칙을 기록 패턴에, 또는 제안한 정책을 습관의 실제 기록에 적용해 봅니다.",
        "Run policy scripts in runner processes that are killed at their deadline, as the server does (default: in this process).":
            "정책 스크립트를 제한 시간이 되면 종료되는 실행 프로세스에서 돌립니다. 서버처럼(기본: 이 프로세스에서).",
        "Send this store's changes to a StackDay server and take its changes back.":
            "이 저장소의 변경을 StackDay 서버로 보내고 서버의 변경을 받아 옵니다.",
        "Serve HTTPS with this certificate chain (PEM; with --tls-key).":
            "이 인증서 체인으로 HTTPS를 제공합니다(PEM, --tls-key와 함께).",
        "Serve Prometheus metrics at /metrics on this address (default: none).":
            "이 주소의 /metrics에서 Prometheus 지표를 제공합니다(기본: 없음).",
        "Set a user's password, for signing in on the web by name and password.":
            "웹에서 이름과 비밀번호로 로그인하도록 사용자의 비밀번호를 정합니다.",
        "Show a habit's settings and statistics.":
            "습관의 설정과 통계를 보여 줍니다.",
        "Silence allowed before a request's headers are complete (default: 10).":
            "요청의 헤더가 다 올 때까지 허용하는 대기 시간(기본: 10).",
        "Simulate over this group's real history (a group or streak rule).":
            "이 그룹의 실제 기록으로 시험합니다(그룹 규칙이나 연속 규칙).",
        "Simulate over this habit's real history.":
            "이 습관의 실제 기록으로 시험합니다.",
        "Stop tracking a habit after a day (inclusive).":
            "하루를 마지막으로 습관의 추적을 멈춥니다(그날 포함).",
        "Sync over http:// with a server that is not on this machine (the token crosses the network readable).":
            "이 컴퓨터에 있지 않은 서버와 http://로 동기화합니다(토큰이 네트워크에서 읽힐 수 있습니다).",
        "Take a new device id and push and pull everything again (a copy of a store, a copied file or a backup put back, takes one by itself when it is recognised).":
            "새 기기 ID를 받아 모두 다시 보내고 받습니다(저장소 사본, 즉 복사한 파일이나 되살린 백업은 알아차리는 즉시 스스로 새 ID를 받습니다).",
        "Take back the skip of a day or of a range of days; they count again.":
            "하루나 며칠의 건너뛰기를 취소합니다. 그날들은 다시 셉니다.",
        "The IPv4 address and port (default: 127.0.0.1:8080; port 0 picks a free one).":
            "IPv4 주소와 포트(기본: 127.0.0.1:8080, 포트 0은 빈 포트를 고릅니다).",
        "The access log: text (default) or json, one object a line.":
            "접근 기록: text(기본) 또는 json, 한 줄에 객체 하나.",
        "The amount one tap of + records on the web (default: 1).":
            "웹에서 +를 한 번 누르면 기록하는 양(기본: 1).",
        "The amount one tap of + records on the web (default: unchanged).":
            "웹에서 +를 한 번 누르면 기록하는 양(기본: 그대로).",
        "The certificate's private key (PEM; with --tls-cert).":
            "인증서의 개인 키(PEM, --tls-cert와 함께).",
        "The database file (default: $STACKDAY_DB, else $XDG_DATA_HOME/stackday/stackday.sqlite).":
            "데이터베이스 파일(기본: $STACKDAY_DB, 없으면 $XDG_DATA_HOME/stackday/stackday.sqlite).",
        "The day (default: today).":
            "날짜(기본: 오늘).",
        "The day it counts for, YYYY-MM-DD.":
            "기록이 속할 날짜, YYYY-MM-DD.",
        "The day weeks begin on, for calendars, reports and new quota habits (default: the user's, set by 'user set', else mon).":
            "달력, 보고서, 새 주 단위 습관에서 한 주가 시작하는 요일(기본: 'user set'으로 정한 사용자의 값, 없으면 mon).",
        "The due days of a schedule policy over a range, as month grids.":
            "일정 정책의 해야 하는 날을 기간에 걸쳐 달력으로 보여 줍니다.",
        "The file (csv, json) or folder (loop).":
            "파일(csv, json) 또는 폴더(loop).",
        "The first day (default: 26 weeks ago, or the start day).":
            "첫날(기본: 26주 전, 또는 시작일).",
        "The first day (default: the habit's start, at most ten years back).":
            "첫날(기본: 습관의 시작일, 최대 10년 전).",
        "The first day of a range.":
            "기간의 첫날.",
        "The first day of the history, or with --habit the first day judged.":
            "기록의 첫날, --habit과 함께면 판정하는 첫날.",
        "The first day shown (default: 8 weeks before --to).":
            "보여 줄 첫날(기본: --to의 8주 전).",
        "The first day shown (default: the first of this month).":
            "보여 줄 첫날(기본: 이번 달 1일).",
        "The first day the new rules judge (default: today).":
            "새 규칙이 판정하는 첫날(기본: 오늘).",
        "Take back only from this day; the days before keep their results (default: the change's own first day).":
            "이날부터만 되돌립니다. 그 앞의 날은 결과를 그대로 둡니다(기본: 그 변경의 첫날).",
        "The first tracked day, YYYY-MM-DD (default: today).":
            "추적을 시작하는 날, YYYY-MM-DD(기본: 오늘).",
        "The first tracked day, YYYY-MM-DD (default: unchanged).":
            "추적을 시작하는 날, YYYY-MM-DD(기본: 그대로).",
        "The fold starts at the habit's start and ends today, as stats computes it; the lines shown are the days from --from to --to.\nA line says the outcome, the streak after it, and why; the step where the current streak began and the one that broke the streak before it are marked.\nWith --json, each step carries the rule's state before and after it (docs/json.md).":
            "연속 계산은 stats처럼 습관의 시작일에서 시작해 오늘 끝납니다. 보여 주는 줄은 --from부터 --to까지의 날입니다.\n한 줄은 결과, 그 뒤의 연속 기록, 그리고 이유를 말합니다. 지금의 연속이 시작된 단계와 그 전 연속을 끊은 단계에 표시가 붙습니다.\n--json이면 단계마다 그 전후의 규칙 상태가 들어갑니다(docs/json.md).",
        "What the habit asks, such as \"Did you read today?\" (empty: none).":
            "습관이 묻는 말, 예: \"오늘 책을 읽었나요?\" (비우면 없음).",
        "What the habit is for, in your words (empty: none).":
            "이 습관을 하는 까닭을 자기 말로 (비우면 없음).",
        "The format (default: from the extension; a folder is loop).":
            "형식(기본: 확장자로 정함, 폴더는 loop).",
        "The format (default: json); ics: the habits' schedules as an iCalendar feed, a year ahead (docs/server.md); loop: Loop Habit Tracker's CSV folder (needs --out FOLDER).":
            "형식(기본: json). ics: 습관의 일정을 1년 앞까지 iCalendar 피드로(docs/server.md). loop: Loop Habit Tracker의 CSV 폴더로(--out 폴더 필요).",
        "The habit start the policy sees (default: --from).":
            "정책이 보는 습관 시작일(기본: --from).",
        "The habit to move it before.":
            "이 습관 앞으로 옮깁니다.",
        "The habit's name (case-insensitive).":
            "습관 이름(대소문자 구분 없음).",
        "The habit's name (case-insensitive); several may be given.":
            "습관 이름(대소문자 구분 없음). 여러 개를 줄 수 있습니다.",
        "The habit's name (case-insensitive; with --from-ics, default: the event's SUMMARY).":
            "습관 이름(대소문자 구분 없음. --from-ics와 함께면 기본: 일정의 SUMMARY).",
        "The history, e.g. YYN-Y.":
            "기록 패턴, 예: YYN-Y.",
        "The language of the text every command prints (default: from $LC_ALL, $LC_MESSAGES or $LANG: ko… is ko, else en).":
            "모든 명령이 출력하는 글의 언어(기본: $LC_ALL, $LC_MESSAGES, $LANG 순서로 ko…이면 ko, 아니면 en).",
        "The largest request body (default: 1048576).":
            "가장 큰 요청 본문(기본: 1048576).",
        "The last day (default: today).":
            "마지막 날(기본: 오늘).",
        "The last day of a range.":
            "기간의 마지막 날.",
        "The last day of the history (default: yesterday); --from or --ending, not both.":
            "기록의 마지막 날(기본: 어제). --from과 --ending 중 하나만.",
        "The last day shown (default: the end of the second month after --from's).":
            "보여 줄 마지막 날(기본: --from이 속한 달 다음다음 달의 끝).",
        "The last day shown (default: today).":
            "보여 줄 마지막 날(기본: 오늘).",
        "The last tracked day (default: today).":
            "마지막으로 추적하는 날(기본: 오늘).",
        "The new name.":
            "새 이름.",
        "The order is kept by sync, and shown by 'habit list', the web app and the API.":
            "순서는 동기화되며, 'habit list', 웹 앱, API가 이 순서로 보여 줍니다.",
        "The policy's name.":
            "정책 이름.",
        "The policy.":
            "정책.",
        "The progress policy (default: goal).":
            "진행 정책(기본: goal).",
        "The progress policy (default: unchanged).":
            "진행 정책(기본: 그대로).",
        "Bring back this revision over every day the later ones judged (default: take back the latest change).":
            "이 개정을 뒤 개정들이 판정한 모든 날에 되살립니다(기본: 마지막 변경을 되돌림).",
        "The sample is three habits tracked from 2026-10-01 to 2026-10-11 in Seoul time. It is written to the store --db or --database names, when given (which must hold no habits yet), else to a fresh demo.sqlite beside the default database. The report is in Korean unless --lang en is given.":
            "예시는 서울 시간으로 2026-10-01부터 2026-10-11까지 기록한 습관 세 개입니다. --db나 --database로 저장소를 주면(아직 습관이 없어야 합니다) 거기에, 아니면 기본 데이터베이스 옆의 새 demo.sqlite에 씁니다. --lang en을 주지 않으면 보고서는 한국어입니다.",
        "The schedule: a policy, words such as \"mon wed fri\", or a calendar rule (default: daily).":
            "일정: 정책, \"mon wed fri\" 같은 말, 또는 캘린더 규칙(기본: daily).",
        "The schedule: a policy, words such as \"mon wed fri\", or a calendar rule (default: unchanged).":
            "일정: 정책, \"mon wed fri\" 같은 말, 또는 캘린더 규칙(기본: 그대로).",
        "The schedule: a policy, words such as \"mon wed fri\", or a pasted calendar rule.":
            "일정: 정책, \"mon wed fri\" 같은 말, 또는 붙여 넣은 캘린더 규칙.",
        "The server is a `stackday serve`; the token is a user's there (`stackday user add` on the server), whose habits this store's user then shares, or a device's own from --pair (kept in this store, so that later syncs need neither --token nor --server). Each page is applied in its own transaction: an interrupted sync is run again and repeats nothing. Prints what it pushed and pulled.":
            "서버는 `stackday serve`입니다. 토큰은 그 서버의 사용자 토큰(서버에서 `stackday user add`)으로, 이 저장소의 사용자가 그 사용자의 습관을 함께 쓰게 됩니다. 또는 --pair로 받은 기기 전용 토큰입니다(이 저장소에 보관되어, 다음 동기화에는 --token도 --server도 필요 없습니다). 페이지마다 트랜잭션 하나로 적용하므로, 끊긴 동기화를 다시 실행해도 아무것도 두 번 하지 않습니다. 보낸 것과 받은 것을 출력합니다.",
        "The server user's token (default: $STACKDAY_TOKEN, else the token a pairing kept in this store).":
            "서버 사용자의 토큰(기본: $STACKDAY_TOKEN, 없으면 기기 연결로 이 저장소에 보관한 토큰).",
        "The server, https://HOST[:PORT], or http:// on a trusted network (default: $STACKDAY_SERVER).":
            "서버, https://HOST[:PORT], 또는 믿을 수 있는 네트워크에서 http://(기본: $STACKDAY_SERVER).",
        "The streak policy (default: strict).":
            "연속 정책(기본: strict).",
        "The streak policy (default: unchanged).":
            "연속 정책(기본: 그대로).",
        "The time zone: an IANA name or ±HH:MM (default: the system zone).":
            "시간대: IANA 이름 또는 ±HH:MM(기본: 시스템 시간대).",
        "The unit of amounts, e.g. cups or km.":
            "양의 단위, 예: 잔, km.",
        "The user policy folder, searched before the built-ins (default: $STACKDAY_POLICIES, else ~/.config/stackday/policies).":
            "사용자 정책 폴더, 기본 정책보다 먼저 찾습니다(기본: $STACKDAY_POLICIES, 없으면 ~/.config/stackday/policies).",
        "The user's days follow --tz and --day-starts-at (default: this system's zone, midnight).":
            "사용자의 날짜는 --tz와 --day-starts-at을 따릅니다(기본: 이 시스템의 시간대, 자정).",
        "The user's name (also --user for the command line).":
            "사용자 이름(명령줄에서는 --user로도 씁니다).",
        "The weekly report, Monday to Sunday or from Sunday (--week-starts); --lang ko for the Korean layout.":
            "주간 보고서, 월요일~일요일 또는 일요일부터(--week-starts). --lang ko이면 한국어 형식.",
        "The whole file is checked before anything is written; a malformed row is named by file, line and column.":
            "무엇이든 쓰기 전에 파일 전체를 검사합니다. 잘못된 줄은 파일, 줄, 열로 알려 줍니다.",
        "Threads answering requests (default: 4).":
            "요청에 답하는 스레드 수(기본: 4).",
        "Track habits whose schedules, goals and streak rules are Lua policies.":
            "습관을 기록하고, 스크립트로 정한 규칙으로 판정합니다.",
        "When a day begins (default: 00:00).":
            "하루가 시작하는 시각(기본: 00:00).",
        "When it happened, ISO 8601 with an offset.":
            "일어난 시각, 오프셋이 있는 ISO 8601.",
        "Whose habits (default: $STACKDAY_USER, else default).":
            "누구의 습관인지(기본: $STACKDAY_USER, 없으면 default).",
        "Why a streak is what it is: every step of the streak rule's fold, one line a day (a period, under a quota).":
            "연속 기록이 왜 그런지: 연속 규칙의 계산 단계를 하루에 한 줄씩(주 단위 할당량이면 기간마다).",
        "With --habit: schedule, progress or streak; with --group: group or streak (default: the policy's only role).":
            "--habit과 함께: schedule, progress 또는 streak, --group과 함께: group 또는 streak(기본: 정책의 유일한 역할).",
        "With --history, PATTERN marks one day per character: Y met, N missed, - skipped, . not due, P pending.\nWith --habit, the habit's figures today are shown as stored and with the policy (the folder's current\nfile) serving --role from --from (default: the habit's start); nothing is written. With --group, the\nsame of a group, the policy serving its group rule or its streak rule.":
            "--history와 함께면 PATTERN의 글자 하나가 하루입니다: Y 달성, N 놓침, - 건너뜀, . 쉬는 날, P 남음.\n--habit과 함께면 습관의 오늘 수치를 저장된 대로, 그리고 --from부터(기본: 습관의 시작일) --role을 맡는\n정책(폴더의 현재 파일)으로 보여 줍니다. 아무것도 쓰지 않습니다. --group과 함께면 그룹에 대해 같은 일을 하며,\n정책은 그룹 규칙이나 연속 규칙을 맡습니다.",
        "With --pair: the name the server lists this device by (default: this machine's host name).":
            "--pair와 함께: 서버가 이 기기를 보여 줄 이름(기본: 이 컴퓨터의 호스트 이름).",
        "Without --on or --at the day is today. --at turns an instant into a day through --tz and --day-starts-at.":
            "--on이나 --at이 없으면 오늘입니다. --at의 시각은 --tz와 --day-starts-at으로 날짜가 됩니다.",
        "Write a revision bringing back the rules of an earlier one.":
            "이전 개정의 규칙을 되살리는 개정을 씁니다.",
        "Write every habit, completion and skip as CSV or JSON, or as Loop Habit Tracker's folder.":
            "모든 습관, 기록, 건너뛴 날을 CSV나 JSON으로, 또는 Loop Habit Tracker의 폴더로 씁니다.",
        "Write the page to a file instead of stdout.":
            "페이지를 stdout 대신 파일로 씁니다.",
        "Write to a file instead of stdout.":
            "stdout 대신 파일로 씁니다.",
        "en or ko.":
            "en 또는 ko.",
        "postgres://… or postgresql://… for PostgreSQL, sqlite:PATH or a path for SQLite (default: $STACKDAY_DATABASE_URL, else --db).":
            "PostgreSQL은 postgres://… 또는 postgresql://…, SQLite는 sqlite:PATH 또는 경로(기본: $STACKDAY_DATABASE_URL, 없으면 --db).",
        // policy new, test, types, publish, share.
        """
        A case names its file and line when it fails, with what was expected and what the policy gave, and the lines it
        wrote with trace(). --coverage lists the lines of the policy no case ran. Without arguments, every policy in the
        policy folder is tested.
        """:
            """
            실패한 사례는 파일과 줄, 기대한 값과 정책이 준 값, trace()로 남긴 줄을 보여 줍니다. --coverage는 어떤 사례도
            실행하지 않은 정책의 줄을 보여 줍니다. 인자가 없으면 정책 폴더의 모든 정책을 시험합니다.
            """,
        "Also print the lines of each policy that no case ran.": "어떤 사례도 실행하지 않은 정책의 줄도 보여 줍니다.",
        "Also show what the policies wrote with trace(), with the file, line and day of each line.":
            "정책이 trace()로 남긴 줄도 파일, 줄 번호, 날짜와 함께 보여 줍니다.",
        "Each --user given names a user it is published to; without one, every user (those added later too). The users' habits change only when they name it.":
            "--user마다 공개할 사용자를 하나씩 고릅니다. 없으면 모든 사용자(나중에 추가될 사용자 포함). 사용자가 이름을 골라 쓰기 전에는 습관이 바뀌지 않습니다.",
        "Make a script available to users of this store (a server's), pinned by its hash like an install.":
            "이 저장소(서버)의 사용자들이 쓸 수 있게 스크립트를 공개합니다. 설치처럼 해시로 고정됩니다.",
        "Policy files or names (default: every policy in the policy folder).": "정책 파일 또는 이름(기본: 정책 폴더의 모든 정책).",
        "Print LuaCATS annotations of what a policy sees, for lua-language-server.": "정책이 보는 것을 LuaCATS 주석으로 출력합니다(lua-language-server용).",
        "Print what every case traced, not only the failing ones'.": "실패한 사례뿐 아니라 모든 사례가 trace로 남긴 줄을 보여 줍니다.",
        "Run each policy's examples, its tests list and NAME_test.lua beside it; exit 1 when a case fails.":
            "정책마다 examples, tests 목록, 옆의 NAME_test.lua를 실행합니다. 사례 하나라도 실패하면 1로 끝납니다.",
        "Share a script you installed with another user, who sees it as shared by you.": "설치한 스크립트를 다른 사용자와 공유합니다. 상대에게는 내가 공유한 것으로 보입니다.",
        "Stop sharing a script with a user; habits that run it keep it.": "스크립트 공유를 멈춥니다. 이미 쓰는 습관은 그대로 씁니다.",
        "Take back a script published to users (every one, or each --user given); habits that run it keep it.":
            "공개한 스크립트를 거둡니다(모두에게서, 또는 --user마다). 이미 쓰는 습관은 그대로 씁니다.",
        "The new policy's name.": "새 정책의 이름.",
        "The user to share it with.": "공유할 사용자.",
        "What it decides: schedule, progress or streak.": "무엇을 정하는지: schedule, progress 또는 streak.",
        "Where to write it (default: NAME.lua in the policy folder).": "쓸 곳(기본: 정책 폴더의 NAME.lua).",
        "Write a commented starter policy for a role, with examples and tests, that passes policy check.":
            "역할마다 주석과 예시, 시험을 담은 시작 정책을 씁니다. policy check를 통과합니다.",
        "A group's day is done when its rule says so: all (the default: every member due that day), any, at-least (--rule-params '{\"count\": 2}'), sum (--rule-params '{\"goal\": 3}': the members' totals in one unit), or a policy of your own defining group(members, params, day). Its streak is a streak policy over the group's days.":
            "그룹의 하루는 그 규칙이 완료라고 할 때 완료입니다. all(기본: 그날 해야 하는 멤버 모두), any, at-least(--rule-params '{\"count\": 2}'), sum(--rule-params '{\"goal\": 3}': 한 단위로 센 멤버들의 합계), 또는 group(members, params, day)를 정의한 직접 만든 정책을 씁니다. 그룹의 연속 기록은 그룹의 날들에 대한 연속 정책이 정합니다.",
        "Change a group's members or rules from a day.":
            "그룹의 멤버나 규칙을 어느 날부터 바꿉니다.",
        "Days before --from keep the members and rules that judged them.":
            "--from 이전의 날은 그날을 판정한 멤버와 규칙을 그대로 유지합니다.",
        "Group habits into routines judged by a group rule of your own.":
            "습관을 묶어 직접 정한 그룹 규칙으로 판정하는 루틴을 만듭니다.",
        "List groups with their members and rules.":
            "그룹을 멤버와 규칙과 함께 나열합니다.",
        "Make a group of habits.":
            "습관 그룹을 만듭니다.",
        "Parameters for the group rule, a JSON object.":
            "그룹 규칙의 매개변수, JSON 객체.",
        "Remove a group (its habits stay).":
            "그룹을 지웁니다(습관은 그대로 남습니다).",
        "Record every member still open today up to its goal.":
            "오늘 아직 남은 멤버를 모두 목표만큼 기록합니다.",
        "Why a group's streak is what it is: every step of its streak rule's fold, one line a day.":
            "그룹의 연속 기록이 왜 그런지: 연속 규칙의 계산 단계를 하루에 한 줄씩.",
        "The fold starts at the group's start and ends today; the lines shown are the days from --from to --to.":
            "계산은 그룹의 시작일부터 오늘까지 하고, --from부터 --to까지의 날을 보여 줍니다.",
        "A calendar of a group's days as its rule judged them: weeks as columns, a mark for each day.":
            "그룹 규칙이 판단한 그룹의 날을 보여 주는 달력: 열은 주, 날마다 표시 하나.",
        "Rename a group.":
            "그룹 이름을 바꿉니다.",
        "Show a group's members, rules and figures today.":
            "그룹의 멤버, 규칙, 오늘의 수치를 보여 줍니다.",
        "Take back a group's latest change of members or rules.":
            "그룹의 멤버나 규칙에 대한 가장 최근 변경을 되돌립니다.",
        "The first day the earlier rules judge again (default: the day the change took effect).":
            "이전 규칙이 다시 판정하기 시작하는 날(기본: 변경이 적용된 날).",
        "The first day the members and rules judge, YYYY-MM-DD (default: the earliest member's start for a new group, today for an edit).":
            "멤버와 규칙이 판정하기 시작하는 날, YYYY-MM-DD(기본: 새 그룹은 가장 이른 멤버의 시작일, 수정은 오늘).",
        "The group rule, a policy defining group(members, params, day) (default: all).":
            "그룹 규칙, group(members, params, day)를 정의한 정책(기본: all).",
        "The group's name (case-insensitive).":
            "그룹 이름(대소문자 구분 없음).",
        "The member habits in order: names joined by commas on the command line, a list in JSON.":
            "멤버 습관을 순서대로: 명령줄에서는 쉼표로 이은 이름, JSON에서는 목록.",
        "The streak policy over the group's days (default: strict).":
            "그룹의 날들에 대한 연속 정책(기본: strict).",
    ]
}
