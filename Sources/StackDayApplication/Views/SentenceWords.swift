/// The command line's sentences in Korean, keyed by their English templates: a `{name}` is a
/// slot `Words.say` fills, the same slots in both (a template may leave one out).
enum SentenceWords {
    static let korean: [String: String] = [
        "No habits yet. Add one with: stackday habit add NAME": "아직 습관이 없습니다. 추가하려면: stackday habit add NAME",
        "{due} due days": "대상일 {due}일",
        "{completed} of {due} ({rate})": "{due} 중 {counted} ({rate})",
        "{amount} a day": "하루 {amount}",
        "revision {number} of {count}, from {day}": "개정 {number}/{count}, {day}부터",
        "Renamed to '{name}'.": "이름을 바꿨습니다: '{name}'",
        "Updated '{name}': rule revision {number} judges days from {day}.": "바꿨습니다: '{name}', 규칙 개정 {number}, {day}부터 적용",
        "Updated '{name}'.": "바꿨습니다: '{name}'",
        "Moved '{name}'. Order: {order}.": "옮겼습니다: '{name}'. 순서: {order}",
        "Archived '{name}'; {day} is its last tracked day.": "보관했습니다: '{name}', 마지막 기록일 {day}",
        "'{name}' is active again.": "다시 진행합니다: '{name}'",
        "Deleted '{name}' with its completions and skips.": "지웠습니다: '{name}', 기록과 건너뛴 날까지",
        "Recorded {amount} for '{habit}' on {day}.": "기록했습니다: '{habit}', {day}, {amount}",
        "Recorded {amount} for '{habit}' on {day}, with a note.": "기록했습니다: '{habit}', {day}, {amount}, 메모 포함",
        "{day} is not a due day for '{habit}' by its schedule; the record is kept.": "{day}은(는) '{habit}'의 일정에 없는 날입니다. 기록은 남았습니다.",
        "Removed {amount} recorded for '{habit}' on {day}.": "지웠습니다: '{habit}', {day}, {amount}",
        "'{habit}' is already skipped on {span}; nothing changed.": "이미 건너뛴 날입니다: '{habit}', {span}. 바뀐 것이 없습니다.",
        "Skipped {days} of '{habit}' ({first} … {last}).": "건너뛰었습니다: '{habit}', {count}일 ({first} … {last})",
        "Took back {skips} of '{habit}' ({first} … {last}).": "건너뛰기를 취소했습니다: '{habit}', {count}일 ({first} … {last})",
        "No records of '{habit}' from {first} to {last}.": "기록이 없습니다: '{habit}', {first} … {last}",
    ]
}
