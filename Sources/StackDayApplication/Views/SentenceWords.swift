/// The command line's sentences in Korean, keyed by their English templates: a `{name}` is a
/// slot `Words.say` fills, the same slots in both (a template may leave one out). The longest
/// templates have names, for the command that says them.
public enum SentenceWords {
    public static let copied = "This store was a copy of another that syncs under the same device id (a copied file, or a backup put back): it now syncs under an id of its own, and sent everything it holds again."
    public static let restored = "The server was restored from a backup: this device sent everything it holds, so that what the server lost is back."
    public static let restampedOne = "{count} change stamped while this device's clock ran ahead was stamped again by the server's clock."
    public static let restamped = "{count} changes stamped while this device's clock ran ahead were stamped again by the server's clock."

    static let korean: [String: String] = [
        "Updated '{name}': weeks start on {first}.": "바꿨습니다: '{name}', 한 주는 {first}부터",
        "No users yet. Add one with: stackday user add NAME": "아직 사용자가 없습니다. 추가하려면: stackday user add NAME",
        "Removed user '{name}' with {habits} and {records}.": "사용자를 지웠습니다: '{name}', 습관 {habitCount}개와 기록 {recordCount}건",
        "{days} from {from} to {to}.": "{from} … {to} 사이 해야 하는 날 {count}일",
        "current {current}, longest {longest}, after the history {from} … {last}": "기록 {from} … {last} 뒤: 현재 {current}, 최장 {longest}",
        "LIMIT": "한도", "VALUE": "값", "FROM": "출처", "user": "사용자", "standard (serve --limit may change it)": "기본 (serve --limit이 바꿀 수 있음)",
        "not in use": "쓰이지 않음", "parameters: none": "매개변수: 없음", "parameters:": "매개변수:",
        "published {name} sha256:{hash} to {to}": "공개했습니다: {name} sha256:{hash}, 대상 {to}", "every user": "모든 사용자",
        "unpublished {name} ({offers})": "공개를 거두었습니다: {name} ({count})",
        "shared {name} sha256:{hash} with {user}": "공유했습니다: {name} sha256:{hash}, {user}에게",
        "stopped sharing {name} with {user}": "공유를 멈췄습니다: {name}, {user}",
        "wrote a {role} starter to {file}; next: stackday policy test {file}": "{file}에 {role} 정책의 시작점을 썼습니다. 다음: stackday policy test {file}",
        "installed {name} sha256:{hash}": "설치했습니다: {name} sha256:{hash}",
        "upgraded '{name}': revision {number} from {day}": "올렸습니다: '{name}', 개정 {number}, {day}부터",
        "'{name}' already runs it": "이미 이 스크립트를 씁니다: '{name}'",
        "no active habit uses {name}": "이 정책을 쓰는 진행 중인 습관이 없습니다: {name}",
        "Wrote {habits} in Loop's layout to {path}.": "Loop 형식으로 내보냈습니다: 습관 {count}개, {path}",
        "StackDay report": "StackDay 보고서",
        "See '{command}' for more information.": "자세한 내용은 '{command}'에서 볼 수 있습니다.",
        "Paired this device with {server}.": "{server}에 이 기기를 연결했습니다.",
        "Synced with {server}: pushed {pushed}, pulled {pulled}.": "동기화했습니다: 보낸 변경 {pushedCount}건, 받은 변경 {pulledCount}건",
        copied: "이 저장소는 같은 기기 ID로 동기화하던 다른 저장소의 사본(복사한 파일 또는 되살린 백업)이었습니다. 이제 자기 ID로 동기화하며, 가진 것을 모두 다시 보냈습니다.",
        restored: "서버가 백업에서 복원되었습니다. 서버가 잃은 것을 되찾도록 이 기기가 가진 것을 모두 보냈습니다.",
        restampedOne: "앞서 가 있던 시계로 기록한 변경 {count}건을 서버 시계에 맞춰 다시 찍었습니다.",
        restamped: "앞서 가 있던 시계로 기록한 변경 {count}건을 서버 시계에 맞춰 다시 찍었습니다.",
        "The server renamed '{from}' to '{to}' (another habit has that name, or it was renamed on the server).": "서버가 '{from}'의 이름을 '{to}'(으)로 바꾸었습니다",
        "'{habit}': its {field} {mine}, set here, lost to {kept}, set later on another device.": "'{habit}': 이 기기에서 바꾼 {field} {mine} 대신 다른 기기에서 나중에 바꾼 {kept}을(를) 남겼습니다",
        "A {what} of '{habit}'{day} was not kept by the server: {why}.": "'{habit}'의 {what}{day}은(는) 서버에 남지 않았습니다: {why}",
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
