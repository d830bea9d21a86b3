/// The columns of the CSV export, in the order of the header (`ArchiveCSV.header`): each row
/// reads and writes a field by its column's name, never by a number.
enum ArchiveCSVColumn: Int, CaseIterable, Sendable {
    case kind, id, habit, name, day, archivedOn, recordedAt, updatedAt, amount, unit
    case schedule, scheduleParams, progress, progressParams, streak, streakParams
    case revision, scheduleSHA256, progressSHA256, streakSHA256, sha256, source
    case note
    case position, colorTag, step, reminders
    case takesBack, installed
    case question, description
    case members, rule, ruleParams, ruleSHA256

    /// Its name in the header.
    var header: String {
        switch self {
        case .archivedOn: "archived_on"
        case .recordedAt: "recorded_at"
        case .updatedAt: "updated_at"
        case .scheduleParams: "schedule_params"
        case .progressParams: "progress_params"
        case .streakParams: "streak_params"
        case .scheduleSHA256: "schedule_sha256"
        case .progressSHA256: "progress_sha256"
        case .streakSHA256: "streak_sha256"
        case .colorTag: "color_tag"
        case .takesBack: "takes_back"
        case .ruleParams: "rule_params"
        case .ruleSHA256: "rule_sha256"
        default: String(describing: self)
        }
    }

    /// The header's names from the first column through `last`: each earlier version of the
    /// export ends at a column.
    static func names(through last: ArchiveCSVColumn) -> [String] { allCases.prefix(last.rawValue + 1).map(\.header) }

    /// Whether a file whose header has `count` columns has this one.
    func isIn(_ count: Int) -> Bool { rawValue < count }
}
