import Foundation

/// What sync carries of each entity, what a change may hold, and the order a batch is applied
/// in; how changes merge is `SyncMerger`'s.
public enum SyncRules {
    /// The device a server stamps its own writes with (a rename, a renumbered revision, a write
    /// through the API or the pages).
    public static let serverDevice = "server"
    /// A habit's fields that merge one by one, each last-writer-wins by its own stamp: a rename on
    /// one device and an archive on another both hold. `updated_at` is one of them, so a merged
    /// habit's is the latest edit's that it kept.
    ///
    /// The stores' triggers stamp these; a migration that adds one re-creates the trigger with
    /// the whole list, and earlier migrations keep the list they had (`firstHabitFields`).
    public static let habitFields = displayHabitFields + ["question", "description"]
    /// The fields that merged one by one once a habit had a place, a colour and a step (SQLite's
    /// migrations 23 and 26, PostgreSQL's 18): what those migrations' triggers name, for ever.
    public static let displayHabitFields = firstHabitFields + ["position", "color_tag", "step_thousandths"]
    /// The fields that merged one by one when stamps per field began (SQLite's migrations 14 and
    /// 15, PostgreSQL's 9): what those migrations' triggers name, for ever.
    public static let firstHabitFields = ["name", "started_on", "archived_on", "unit", "updated_at"]

    /// The largest script source sync carries: the same bound as installing one, in bytes.
    public static let scriptLimit = PolicyScript.maximumInstalledBytes

    /// How far ahead of the receiving server's clock a change's hybrid time may be. Device clocks
    /// drift, but a stamp from the far future would win every later merge of its habit and run
    /// every replica's clock ahead with it (a stamp of 2^63 − 1 leaves no later time to write at).
    public static let clockSkewLimit: TimeInterval = 24 * 3600

    /// `clockSkewLimit` as a span of hybrid time.
    public static let clockSkew: Int64 = Int64(clockSkewLimit * 1000) << 16

    /// Throws when a stamp of `change` is more than `clockSkewLimit` ahead of `now`.
    public static func checkTime(_ change: SyncChange, index: Int, now: Date) throws(SyncError) {
        let latest = SyncStamp.time(at: now.addingTimeInterval(clockSkewLimit)) | 0xFFFF
        for stamp in [change.stamp] + Array(change.fieldStamps.values) where stamp.hlc > latest {
            throw .invalidChange(index: index, reason: "has a hybrid time more than a day ahead of the server's clock (\(stamp.hlc)); check the device's clock")
        }
        // A record or skip is of a day that has begun somewhere on Earth (UTC+14 is the furthest
        // ahead), as every other way of writing one requires (`TrackingRules.requireRecordable`).
        if let text = day(of: change), let day = LocalDay(text),
           day > LocalDay(date: now.addingTimeInterval(14 * 3600), timeZone: TimeZone(identifier: "UTC") ?? .current) {
            throw .invalidChange(index: index, reason: "is of \(text), a day that has not begun anywhere yet")
        }
    }

    /// Each kind's columns, the key's first. A revision's key is its habit and number. Made once:
    /// every change a sync checks, encodes, decodes or writes asks for its kind's.
    public static func columns(_ kind: SyncKind) -> [SyncColumn] {
        switch kind {
        case .script: scriptColumns
        case .habit: habitColumns
        case .revision: revisionColumns
        case .completion: completionColumns
        case .skip: skipColumns
        }
    }

    /// Each kind's column names, in `columns`' order.
    public static func columnNames(_ kind: SyncKind) -> [String] {
        switch kind {
        case .script: scriptNames
        case .habit: habitNames
        case .revision: revisionNames
        case .completion: completionNames
        case .skip: skipNames
        }
    }

    private static let scriptColumns = [
        SyncColumn("sha256", .optionalHash), SyncColumn("name", .text(limit: 200, empty: false)),
        SyncColumn("source", .text(limit: scriptLimit, empty: false)), SyncColumn("installed_at", .instant), SyncColumn("installed", .flag),
    ]
    private static let habitColumns = [
        SyncColumn("id", .uuid), SyncColumn("name", .text(limit: Habit.nameLimit, empty: false)), SyncColumn("started_on", .day),
        SyncColumn("archived_on", .optionalDay), SyncColumn("created_at", .instant), SyncColumn("updated_at", .instant),
        SyncColumn("unit", .text(limit: Habit.unitLimit, empty: true)), SyncColumn("position", .position),
        SyncColumn("color_tag", .colorTag), SyncColumn("step_thousandths", .optionalCount),
        SyncColumn("question", .optionalText(limit: Habit.textLimit)), SyncColumn("description", .optionalText(limit: Habit.textLimit)),
    ]
    private static let revisionColumns =
        [SyncColumn("habit_id", .uuid), SyncColumn("number", .count), SyncColumn("effective_from", .day), SyncColumn("goal_thousandths", .count)]
        + PolicyRole.habitRoles.flatMap { role in
            [SyncColumn(role.rawValue + "_policy", .text(limit: 200, empty: false)), SyncColumn(role.rawValue + "_params", .parameters),
             SyncColumn(role.rawValue + "_sha256", .optionalHash)]
        }
        + [SyncColumn("created_at", .instant), SyncColumn("reminders", .reminders), SyncColumn("takes_back", .optionalCount)]
    private static let completionColumns = [
        SyncColumn("id", .uuid), SyncColumn("habit_id", .uuid), SyncColumn("completed_on", .day), SyncColumn("recorded_at", .instant),
        SyncColumn("amount_thousandths", .count), SyncColumn("note", .optionalText(limit: Completion.noteLimit)),
    ]
    private static let skipColumns = [SyncColumn("id", .uuid), SyncColumn("habit_id", .uuid), SyncColumn("day", .day), SyncColumn("recorded_at", .instant)]

    private static let scriptNames = scriptColumns.map(\.name)
    private static let habitNames = habitColumns.map(\.name)
    private static let revisionNames = revisionColumns.map(\.name)
    private static let completionNames = completionColumns.map(\.name)
    private static let skipNames = skipColumns.map(\.name)

    /// The habit a change belongs to (nil for a script or a habit's own).
    public static func habit(of change: SyncChange) -> String? {
        switch change.kind {
        case .script: nil
        case .habit: change.key
        case .completion, .skip: change.fields?["habit_id"]?.stringValue
        case .revision: change.fields?["habit_id"]?.stringValue ?? revision(change.key)?.habit
        }
    }

    /// The key a row names (a revision's is its habit and number); nil when the row lacks it.
    public static func key(_ kind: SyncKind, _ row: [String: JSONValue]) -> String? {
        switch kind {
        case .script: row["sha256"]?.stringValue
        case .habit, .completion, .skip: row["id"]?.stringValue
        case .revision: row["habit_id"]?.stringValue.flatMap { habit in row["number"]?.numberValue.map { revisionKey(habit: habit, number: Int64($0)) } }
        }
    }

    /// The day a record's or skip's change is for (nil for any other, or a deletion).
    public static func day(of change: SyncChange) -> String? {
        switch change.kind {
        case .completion: change.fields?["completed_on"]?.stringValue
        case .skip: change.fields?["day"]?.stringValue
        case .script, .habit, .revision: nil
        }
    }

    /// A revision's key.
    public static func revisionKey(habit: String, number: Int64) -> String { "\(habit)/\(number)" }

    /// A revision key's habit and number; nil for text that is not `HABIT/NUMBER`.
    public static func revision(_ key: String) -> (habit: String, number: Int64)? {
        let parts = key.split(separator: "/")
        guard parts.count == 2, let number = Int64(parts[1]) else { return nil }
        return (String(parts[0]), number)
    }

    /// Checks a change from elsewhere before anything of it is written: every column present and
    /// of its kind, no other, the key matching the row, a script's text matching its hash.
    public static func check(_ change: SyncChange, index: Int) throws(SyncError) {
        func fail(_ reason: String) -> SyncError { .invalidChange(index: index, reason: reason) }
        let columns = columns(change.kind)
        guard let fields = change.fields else {
            guard keyProblem(change.kind, change.key) == nil else { throw fail("has a key that is not a \(change.kind.rawValue)'s") }
            return
        }
        if let unknown = fields.keys.sorted().first(where: { name in !columns.contains { $0.name == name } }) {
            throw fail("has a \(change.kind.rawValue) column it cannot have: \"\(unknown)\"")
        }
        for column in columns {
            if let problem = column.problem(fields[column.name]) { throw fail("\(change.kind.rawValue) column \"\(column.name)\" \(problem)") }
        }
        guard key(change.kind, fields) == change.key else { throw fail("has a key that is not its row's") }
        if change.kind == .habit, let archived = fields["archived_on"]?.stringValue, let started = fields["started_on"]?.stringValue, archived < started {
            throw fail("is a habit archived before it starts")
        }
        // What a habit, revision or record may hold is what every other way of writing one
        // checks: the entities' own rules, applied to the row as it arrives.
        switch change.kind {
        case .habit:
            let name = fields["name"]?.stringValue ?? ""
            if name.trimmedWhitespace.isEmpty { throw fail("is a habit whose name is blank") }
            do {
                try Habit.checkNewName(name)
                try Habit.checkNewUnit(fields["unit"]?.stringValue ?? "")
            } catch { throw fail("is a habit that is refused: \(error)") }
        case .revision:
            if let goal = fields["goal_thousandths"]?.numberValue, !Quantity.isKept(thousandths: goal) {
                throw fail("is a revision whose goal is not between 0.001 and \(Int64(Quantity.maximum))")
            }
        case .completion:
            if let amount = fields["amount_thousandths"]?.numberValue, !Quantity.isKept(thousandths: amount) {
                throw fail("is a record whose amount is not between 0.001 and \(Int64(Quantity.maximum))")
            }
        case .script, .skip:
            break
        }
        if change.kind == .script, let source = fields["source"]?.stringValue {
            if source.utf8.count > scriptLimit { throw fail("is a script of \(source.utf8.count) bytes, over the \(scriptLimit) a script may have") }
            if SHA256(of: Array(source.utf8)).description != change.key { throw fail("is a script whose text does not hash to its key") }
        }
    }

    private static func keyProblem(_ kind: SyncKind, _ key: String) -> String? {
        switch kind {
        case .script: PolicyScript.isHash(key) ? nil : "hash"
        case .habit, .completion, .skip: SyncColumn.isUUID(key) ? nil : "uuid"
        case .revision: revision(key).map { SyncColumn.isUUID($0.habit) && $0.number >= 1 } == true ? nil : "revision"
        }
    }

    /// The order to apply a batch in, as indices into it: live entities parents first (revisions
    /// by number), then deletions children first.
    public static func order(_ changes: [SyncChange]) -> [Int] {
        // A habit's revisions in number order: it holds them as 1, 2, 3, … with no gap.
        func number(_ change: SyncChange) -> Double { change.kind == .revision ? change.fields?["number"]?.numberValue ?? 0 : 0 }
        let live = changes.indices.filter { !changes[$0].deleted }.sorted { a, b in
            (changes[a].kind, number(changes[a]), a) < (changes[b].kind, number(changes[b]), b)
        }
        let gone = changes.indices.filter { changes[$0].deleted }.sorted { a, b in
            changes[a].kind == changes[b].kind ? a < b : changes[b].kind < changes[a].kind
        }
        return live + gone
    }
}
