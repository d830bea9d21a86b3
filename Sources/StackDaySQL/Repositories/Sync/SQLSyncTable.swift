import StackDay

/// Where a kind of synced entity lives in either store, and its codec: each of the entity's
/// fields (`SyncEntityValue.fields`) paired with its column, how the key reads as text, and how
/// values bind and read in the executor's dialect. The only place sync's entities meet SQL.
struct SQLSyncTable: Sendable {
    /// A column and the rule of the field it holds.
    struct Column: Sendable {
        let name: String
        let value: SyncValue
    }

    let kind: SyncKind
    let name: String
    /// The key as text, in SQL (a UUID in upper case; a revision's `HABIT/NUMBER`).
    let keyText: String
    /// The columns the key is made of.
    let keyColumns: [String]
    /// The entity's fields' columns, in the fields' order.
    let columns: [Column]
    /// `columns`' names joined for a statement.
    let columnList: String

    /// `pairs` names each field (by its wire name) with its column.
    private init(_ kind: SyncKind, _ name: String, keyText: String, keyColumns: [String], fields: [String], rules: [SyncValue], pairs: [String: String]) {
        self.kind = kind
        self.name = name
        self.keyText = keyText
        self.keyColumns = keyColumns
        columns = zip(fields, rules).map { field, rule in
            guard let column = pairs[field] else { preconditionFailure("\(kind.rawValue) field \(field) has no column") }
            return Column(name: column, value: rule)
        }
        columnList = columns.map(\.name).joined(separator: ", ")
    }

    private init(_ kind: SyncKind, _ name: String, keyText: String, keyColumns: [String], pairs: [String: String]) {
        self.init(kind, name, keyText: keyText, keyColumns: keyColumns, fields: SyncEntity.fieldNames(kind), rules: SyncEntity.rules(kind), pairs: pairs)
    }

    static func of(_ kind: SyncKind) -> SQLSyncTable {
        switch kind {
        case .script: script
        case .habit: habit
        case .revision: revision
        case .completion: record
        case .skip: skip
        case .group: group
        case .groupRevision: groupRevision
        }
    }

    private static let script = SQLSyncTable(.script, "policy_scripts", keyText: "sha256", keyColumns: ["sha256"], pairs: [
        "sha256": "sha256", "name": "name", "source": "source", "installedAt": "installed_at", "installed": "installed",
    ])
    private static let habit = SQLSyncTable(.habit, "habits", keyText: "upper(CAST(id AS TEXT))", keyColumns: ["id"],
                                            pairs: ["id": "id", "createdAt": "created_at"].merging(habitColumns.map { ($0.key.rawValue, $0.value) }) { $1 })
    private static let revision = SQLSyncTable(
        .revision, "habit_revisions", keyText: "upper(CAST(habit_id AS TEXT)) || '/' || CAST(number AS TEXT)", keyColumns: ["habit_id", "number"],
        pairs: ["habit": "habit_id", "number": "number", "effectiveFrom": "effective_from", "goalThousandths": "goal_thousandths",
                "createdAt": "created_at", "reminders": "reminders", "takesBack": "takes_back"]
            .merging(PolicyRole.habitRoles.flatMap { role in
                [(role.rawValue + "Policy", role.rawValue + "_policy"), (role.rawValue + "Params", role.rawValue + "_params"),
                 (role.rawValue + "Sha256", role.rawValue + "_sha256")]
            }) { $1 })
    private static let record = SQLSyncTable(.completion, "completions", keyText: "upper(CAST(id AS TEXT))", keyColumns: ["id"], pairs: [
        "id": "id", "habit": "habit_id", "day": "completed_on", "recordedAt": "recorded_at", "amountThousandths": "amount_thousandths", "note": "note",
    ])
    private static let skip = SQLSyncTable(.skip, "skips", keyText: "upper(CAST(id AS TEXT))", keyColumns: ["id"], pairs: [
        "id": "id", "habit": "habit_id", "day": "day", "recordedAt": "recorded_at",
    ])

    private static let group = SQLSyncTable(.group, "habit_groups", keyText: "upper(CAST(id AS TEXT))", keyColumns: ["id"], pairs: [
        "id": "id", "name": "name", "createdAt": "created_at",
    ])
    private static let groupRevision = SQLSyncTable(
        .groupRevision, "group_revisions", keyText: "upper(CAST(group_id AS TEXT)) || '/' || CAST(number AS TEXT)", keyColumns: ["group_id", "number"],
        pairs: ["group": "group_id", "number": "number", "effectiveFrom": "effective_from", "members": "members", "groupPolicy": "group_policy",
                "groupParams": "group_params", "groupSha256": "group_sha256", "streakPolicy": "streak_policy", "streakParams": "streak_params",
                "streakSha256": "streak_sha256", "createdAt": "created_at", "takesBack": "takes_back"])

    /// A revision table's column naming its parent (`habit_id`, `group_id`).
    var parentColumn: String { keyColumns[0] }

    /// The column of each habit field stamped one by one: what the stores' triggers stamp and
    /// `sync_fields` names.
    static let habitColumns: [SyncHabitField: String] = [
        .name: "name", .startedOn: "started_on", .archivedOn: "archived_on", .unit: "unit", .updatedAt: "updated_at", .position: "position",
        .colorTag: "color_tag", .stepThousandths: "step_thousandths", .question: "question", .description: "description",
    ]
    /// Each stamped column's field.
    static let habitFields: [String: SyncHabitField] = Dictionary(uniqueKeysWithValues: habitColumns.map { ($0.value, $0.key) })

    /// The key's condition, the owner `$1`: `$2` (and `$3` for a revision's number).
    var keyCondition: String {
        switch kind {
        case .script: "sha256 = $2"
        case .revision, .groupRevision: "\(parentColumn) = $2::uuid AND number = $3"
        case .habit, .completion, .skip, .group: "id = $2::uuid"
        }
    }

    /// The key's values, bound after the owner.
    func keyValues(_ key: String) -> [SQLValue] {
        guard kind.isRevision else { return [.text(key)] }
        let revision = SyncRules.revision(key)
        return [.text(revision?.habit ?? ""), .integer(revision?.number ?? 0)]
    }

    /// `$N` with the cast PostgreSQL needs for a column of this value.
    static func parameter(_ index: Int, _ value: SyncValue) -> String {
        switch value {
        case .uuid: "$\(index)::uuid"
        case .day, .optionalDay: "$\(index)::date"
        default: "$\(index)"
        }
    }

    /// The entity's values as its columns take them.
    func bind(_ entity: SyncEntity) -> [SQLValue] {
        zip(entity.values, columns).map { Self.bind($0, $1.value) }
    }

    private static func bind(_ json: JSONValue, _ value: SyncValue) -> SQLValue {
        switch (value, json) {
        case (.reminders, .null): .text("")
        case (.position, .null), (.flag, .null): .integer(0)
        case (_, .null): .null
        // A group's members as the store keeps them: ids joined by commas.
        case (.members, _): .text((json.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ","))
        case (.instant, _): .real(json.numberValue ?? 0)
        case (.count, _), (.optionalCount, _), (.position, _), (.flag, _): .integer(Int64(json.numberValue ?? 0))
        default: .text(json.stringValue ?? "")
        }
    }

    /// The entity a row of `columns` holds.
    func entity(_ row: any SQLRow) -> SyncEntity {
        SyncEntity.trusted(kind, columns.map { Self.read(row, $0) })
    }

    /// The value of the key's first column in a row (a record's, skip's or habit's id).
    func key(_ row: any SQLRow) -> String {
        Self.read(row, columns[0]).stringValue ?? ""
    }

    /// `text` in upper case; itself when it has no lower-case ASCII letter.
    private static func upper(_ text: String) -> String {
        text.utf8.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) } ? text.uppercased() : text
    }

    private static func read(_ row: any SQLRow, _ column: Column) -> JSONValue {
        if row.isNull(column.name) { return .null }
        switch column.value {
        case .instant: return .number(row.real(column.name))
        case .count, .optionalCount, .position, .flag: return .number(Double(row.integer(column.name)))
        // PostgreSQL writes a uuid in lower case; every replica's keys are the canonical upper
        // (SQLite holds them so already: its text is kept as read, not copied upper-cased).
        case .uuid: return .string(upper(row.text(column.name)))
        case .members: return .array(row.text(column.name).split(separator: ",").map { .string(upper(String($0))) })
        default: return .string(row.text(column.name))
        }
    }
}
