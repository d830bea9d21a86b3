import Foundation
import StackDay

/// The CSV export format: one header, then one row per habit, rule revision, group, group
/// revision, completion, skip and policy script (`kind` says which).
///
/// A `revision` row gives the effective-from day in `day`, the goal in `amount`, when it was
/// written in `recorded_at`, and the pinned hashes; a `script` row its `name`, `sha256`,
/// `source` and install time (`recorded_at`). Files with the version 1 header (no revision or
/// script rows; a habit row carries its goal and policies), the version 2 header (no `note`) and
/// the version 3 header (no `position`, `color_tag` and `step` of a habit row, no `reminders` of
/// a revision row), the version 4 header (no `takes_back` of a revision row, no `installed` of a
/// script row), the version 5 header (no `question` and `description` of a habit row) and the
/// version 6 header (no groups) are still read.
///
/// A `group` row gives the group's `id`, `name` and when it was made (`recorded_at`); a
/// `group_revision` row its group's `id`, the `revision` number, the effective-from `day`, the
/// member habits' ids in order (`members`, joined by commas), the group rule (`rule`,
/// `rule_params`, `rule_sha256`), the streak rule in the streak columns, and `takes_back`.
public enum ArchiveCSV {
    static let headerV1 = ArchiveCSVColumn.names(through: .streakParams)
    static let headerV2 = ArchiveCSVColumn.names(through: .source)
    static let headerV3 = ArchiveCSVColumn.names(through: .note)
    static let headerV4 = ArchiveCSVColumn.names(through: .reminders)
    static let headerV5 = ArchiveCSVColumn.names(through: .installed)
    static let headerV6 = ArchiveCSVColumn.names(through: .description)
    static let header = ArchiveCSVColumn.names(through: .ruleSHA256)
    static let headers = [header, headerV6, headerV5, headerV4, headerV3, headerV2, headerV1]

    public static func encode(_ archive: HabitArchive) -> String {
        ArchiveWriter.text(archive, format: .csv)
    }

    /// Lines of one row each, from `values` by column (the others empty).
    static func line(_ values: [ArchiveCSVColumn: String]) -> String {
        var fields = [String](repeating: "", count: header.count)
        for (column, value) in values { fields[column.rawValue] = value }
        return row(fields)
    }

    /// A role's policy, parameters and pinned hash columns.
    static func policyColumns(_ role: PolicyRole) -> (ArchiveCSVColumn, ArchiveCSVColumn, ArchiveCSVColumn) {
        switch role {
        case .schedule: (.schedule, .scheduleParams, .scheduleSHA256)
        case .progress: (.progress, .progressParams, .progressSHA256)
        case .streak: (.streak, .streakParams, .streakSHA256)
        case .group: preconditionFailure("a habit's row has no group policy")
        }
    }

    static var headerLine: String { header.joined(separator: ",") }

    static func habitLines(_ habit: Habit) -> String {
        line([
            .kind: "habit", .id: UUIDText.format(habit.id), .name: habit.name, .day: habit.startedOn.iso, .archivedOn: habit.archivedOn?.iso ?? "",
            .recordedAt: InstantText.format(habit.createdAt), .updatedAt: InstantText.format(habit.updatedAt), .unit: habit.unit,
            .position: String(habit.position), .colorTag: habit.colorTag?.rawValue ?? "", .step: habit.step.map(Quantity.describe) ?? "",
            .question: habit.question ?? "", .description: habit.details ?? "",
        ])
    }

    static func revisionLines(_ habit: Habit) -> [String] {
        habit.revisions.map { revision in
            var values: [ArchiveCSVColumn: String] = [
                .kind: "revision", .habit: UUIDText.format(habit.id), .day: revision.effectiveFrom.iso, .recordedAt: InstantText.format(revision.createdAt),
                .amount: Quantity.describe(revision.goal), .revision: String(revision.number), .reminders: ReminderTime.stored(revision.reminders),
                .takesBack: revision.takesBack.map(String.init) ?? "",
            ]
            for role in PolicyRole.habitRoles {
                let choice = revision.choice(for: role)
                let (policy, parameters, hash) = ArchiveCSV.policyColumns(role)
                values[policy] = choice.name
                values[parameters] = choice.parametersJSON
                values[hash] = choice.sha256 ?? ""
            }
            return line(values)
        }
    }

    /// A group's row, then one row per revision.
    static func groupLines(_ group: HabitGroup) -> [String] {
        [line([.kind: "group", .id: UUIDText.format(group.id), .name: group.name, .day: group.startedOn.iso, .recordedAt: InstantText.format(group.createdAt)])]
            + group.revisions.map { revision in
                line([
                    .kind: "group_revision", .id: UUIDText.format(group.id), .revision: String(revision.number), .day: revision.effectiveFrom.iso,
                    .recordedAt: InstantText.format(revision.createdAt), .members: revision.members.map(UUIDText.format).joined(separator: ","),
                    .rule: revision.rule.name, .ruleParams: revision.rule.parametersJSON, .ruleSHA256: revision.rule.sha256 ?? "",
                    .streak: revision.streak.name, .streakParams: revision.streak.parametersJSON, .streakSHA256: revision.streak.sha256 ?? "",
                    .takesBack: revision.takesBack.map(String.init) ?? "",
                ])
            }
    }

    static func completionLine(_ completion: Completion) -> String {
        line([.kind: "completion", .id: UUIDText.format(completion.id), .habit: UUIDText.format(completion.habitID),
              .day: completion.completedOn.iso, .recordedAt: InstantText.format(completion.recordedAt),
              .amount: Quantity.describe(completion.amount), .note: completion.note ?? ""])
    }

    static func skipLine(_ skip: Skip) -> String {
        line([.kind: "skip", .id: UUIDText.format(skip.id), .habit: UUIDText.format(skip.habitID), .day: skip.day.iso, .recordedAt: InstantText.format(skip.recordedAt)])
    }

    static func scriptLine(_ script: PolicyScript) -> String {
        line([.kind: "script", .name: script.name, .recordedAt: InstantText.format(script.installedAt), .sha256: script.sha256, .source: script.source,
              .installed: script.installed ? "1" : ""])
    }

    private static func row(_ fields: [String]) -> String {
        fields.map(CSVReader.quote).joined(separator: ",")
    }

    /// A habit row read before its revisions.
    private struct HabitFields {
        let id: UUID, name: String, startedOn: LocalDay, archivedOn: LocalDay?, createdAt: Date, updatedAt: Date, unit: String
        var position = 0, colorTag: HabitColor? = nil, step: Double? = nil, question: String? = nil, details: String? = nil
        let line: Int
    }

    /// Throws `ImportFormatError` naming `file`, the line and the column.
    public static func decode(_ text: String, file: String) throws -> HabitArchive {
        try HabitArchive(collecting: ArchiveFile(format: .csv, input: .bytes(Array(text.utf8), file: file)))
    }

    /// One pass over `input`. Without `records`, the catalog (records counted, not decoded);
    /// with it, each record to it and an empty catalog.
    static func read(_ input: ArchiveInput, records: ((ArchiveRecord) throws -> Void)?) throws -> ArchiveCatalog {
        let file = input.file
        var catalog = ArchiveCatalog()
        var columns: [String]? = nil
        var pending: [HabitFields] = []
        var revisions: [UUID: [HabitRevision]] = [:]
        var groups: [(id: UUID, name: String, createdAt: Date, line: Int)] = []
        var groupRevisions: [UUID: [GroupRevision]] = [:]
        try CSVReader.forEachRow(in: try input.open(), file: file) { row in
            guard let header = columns else {
                guard ArchiveCSV.headers.contains(row.strings) else {
                    throw ImportFormatError(file: file, line: row.line, column: nil, message: "expected the header \(ArchiveCSV.header.joined(separator: ","))")
                }
                columns = row.strings
                return
            }
            let cells = Cells(row: row, file: file)
            guard row.count == header.count else {
                throw ImportFormatError(file: file, line: row.line, column: min(row.count, header.count) + 1,
                                        message: "expected \(header.count) fields, found \(row.count)")
            }
            let isV1 = header.count == headerV1.count
            let kind = row[.kind]
            let isRecord = kind.elementsEqual("completion".utf8) || kind.elementsEqual("skip".utf8)
            if isRecord, records == nil { catalog.records += 1; return }
            if !isRecord, records != nil { return }
            do {
                switch row.string(.kind) {
                case "completion":
                    try records?(.completion(try Completion(
                        id: try cells.uuid(.id), habitID: try cells.uuid(.habit), completedOn: try cells.day(.day),
                        recordedAt: try cells.instant(.recordedAt), amount: try cells.number(.amount), note: ArchiveCSVColumn.note.isIn(header.count) ? row.string(.note) : nil
                    )))
                case "skip":
                    try records?(.skip(Skip(id: try cells.uuid(.id), habitID: try cells.uuid(.habit), day: try cells.day(.day), recordedAt: try cells.instant(.recordedAt))))
                case "habit" where isV1:
                    catalog.habits.append(try Habit(
                        id: try cells.uuid(.id), name: row.string(.name), startedOn: try cells.day(.day),
                        archivedOn: row[.archivedOn].isEmpty ? nil : try cells.day(.archivedOn),
                        createdAt: try cells.instant(.recordedAt), updatedAt: try cells.instant(.updatedAt), goal: try cells.number(.amount), unit: row.string(.unit),
                        schedule: try cells.policy(.schedule), progress: try cells.policy(.progress), streak: try cells.policy(.streak)
                    ))
                case "habit":
                    var fields = HabitFields(
                        id: try cells.uuid(.id), name: row.string(.name), startedOn: try cells.day(.day),
                        archivedOn: row[.archivedOn].isEmpty ? nil : try cells.day(.archivedOn), createdAt: try cells.instant(.recordedAt),
                        updatedAt: try cells.instant(.updatedAt), unit: row.string(.unit), line: row.line
                    )
                    if ArchiveCSVColumn.position.isIn(header.count) {
                        guard let position = Int(row.string(.position)) else { throw cells.failure(.position, "position '\(row.string(.position))' is not a whole number") }
                        fields.position = position
                        if !row[.colorTag].isEmpty {
                            guard let tag = HabitColor(rawValue: row.string(.colorTag)) else {
                                throw cells.failure(.colorTag, "color_tag '\(row.string(.colorTag))' is not one of \(HabitColor.names)")
                            }
                            fields.colorTag = tag
                        }
                        if !row[.step].isEmpty { fields.step = try cells.number(.step) }
                    }
                    if ArchiveCSVColumn.description.isIn(header.count) {
                        fields.question = row.string(.question)
                        fields.details = row.string(.description)
                    }
                    pending.append(fields)
                case "revision" where !isV1:
                    let number = try cells.whole(.revision, "revision")
                    revisions[try cells.uuid(.habit), default: []].append(try HabitRevision(
                        number: number, effectiveFrom: try cells.day(.day), goal: try cells.number(.amount),
                        schedule: try cells.policy(.schedule, sha256: .scheduleSHA256), progress: try cells.policy(.progress, sha256: .progressSHA256),
                        streak: try cells.policy(.streak, sha256: .streakSHA256), createdAt: try cells.instant(.recordedAt),
                        reminders: ArchiveCSVColumn.reminders.isIn(header.count) ? try cells.reminders(.reminders) : [],
                        takesBack: ArchiveCSVColumn.takesBack.isIn(header.count) && !row.string(.takesBack).isEmpty ? try cells.whole(.takesBack, "takes_back") : nil
                    ))
                case "group" where ArchiveCSVColumn.members.isIn(header.count):
                    groups.append((try cells.uuid(.id), row.string(.name), try cells.instant(.recordedAt), row.line))
                case "group_revision" where ArchiveCSVColumn.members.isIn(header.count):
                    let members = try row.string(.members).split(separator: ",").map { text in
                        guard let id = UUIDText.parse(String(text)) else { throw cells.failure(.members, "members: '\(text)' is not a UUID") }
                        return id
                    }
                    do {
                        groupRevisions[try cells.uuid(.id), default: []].append(try GroupRevision(
                            number: try cells.whole(.revision, "revision"), effectiveFrom: try cells.day(.day), members: members,
                            rule: try cells.policy(.rule, sha256: .ruleSHA256), streak: try cells.policy(.streak, sha256: .streakSHA256),
                            createdAt: try cells.instant(.recordedAt),
                            takesBack: row.string(.takesBack).isEmpty ? nil : try cells.whole(.takesBack, "takes_back")))
                    } catch let error as GroupError {
                        throw ImportFormatError(file: file, line: row.line, column: nil, message: "\(error)")
                    }
                case "script" where !isV1:
                    do {
                        catalog.scripts.append(try PolicyScript(name: row.string(.name), sha256: row.string(.sha256), source: row.string(.source),
                                                                installedAt: try cells.instant(.recordedAt), installed: ArchiveCSVColumn.installed.isIn(header.count) && row.string(.installed) == "1"))
                    } catch let error as PolicyScriptError {
                        throw cells.failure(.sha256, "\(error)")
                    }
                default:
                    let kinds = isV1 ? "habit, completion or skip"
                        : ArchiveCSVColumn.members.isIn(header.count) ? "habit, revision, group, group_revision, completion, skip or script"
                        : "habit, revision, completion, skip or script"
                    throw cells.failure(.kind, "kind must be \(kinds), not '\(row.string(.kind))'")
                }
            } catch let error as HabitValidationError {
                throw ImportFormatError(file: file, line: row.line, column: nil, message: "\(error)")
            }
        }
        guard columns != nil else { throw ImportFormatError(file: file, line: 1, column: nil, message: "expected the header \(header.joined(separator: ","))") }
        for fields in pending {
            do {
                catalog.habits.append(try Habit(
                    id: fields.id, name: fields.name, startedOn: fields.startedOn, archivedOn: fields.archivedOn, createdAt: fields.createdAt,
                    updatedAt: fields.updatedAt, unit: fields.unit, revisions: revisions[fields.id] ?? [],
                    position: fields.position, colorTag: fields.colorTag, step: fields.step, question: fields.question, details: fields.details
                ))
            } catch {
                throw ImportFormatError(file: file, line: fields.line, column: nil, message: "habit '\(fields.name)': \(error)")
            }
        }
        for group in groups {
            do {
                catalog.groups.append(try HabitGroup(id: group.id, name: group.name, createdAt: group.createdAt, revisions: groupRevisions[group.id] ?? []))
            } catch {
                throw ImportFormatError(file: file, line: group.line, column: nil, message: "group '\(group.name)': \(error)")
            }
        }
        return catalog
    }

    /// Typed access to a row's fields by column, naming line and column on failure.
    struct Cells {
        let row: CSVReader.RowView
        let file: String

        func failure(_ column: ArchiveCSVColumn, _ message: String) -> ImportFormatError {
            ImportFormatError(file: file, line: row.line, column: column.rawValue + 1, message: message)
        }

        func uuid(_ column: ArchiveCSVColumn) throws -> UUID {
            guard let id = UUIDText.parse(row[column]) else { throw failure(column, "\(column.header) '\(row.string(column))' is not a UUID") }
            return id
        }

        func day(_ column: ArchiveCSVColumn) throws -> LocalDay {
            if let day = LocalDay(isoBytes: row[column]) { return day }
            do { return try LocalDay(iso: row.string(column)) } catch { throw failure(column, "\(column.header): \(error)") }
        }

        func instant(_ column: ArchiveCSVColumn) throws -> Date {
            guard let date = InstantText.parse(bytes: row[column]) else {
                throw failure(column, "\(column.header) '\(row.string(column))' is not an ISO 8601 instant")
            }
            return date
        }

        func number(_ column: ArchiveCSVColumn) throws -> Double {
            guard let value = Double(row.string(column)) else { throw failure(column, "\(column.header) '\(row.string(column))' is not a number") }
            return value
        }

        /// A whole number.
        func whole(_ column: ArchiveCSVColumn, _ name: String) throws -> Int {
            guard let value = Int(row.string(column)) else { throw failure(column, "\(name) '\(row.string(column))' is not a whole number") }
            return value
        }

        /// Reminder times as stored (`08:00,21:00`; empty for none).
        func reminders(_ column: ArchiveCSVColumn) throws -> [ReminderTime] {
            guard !row[column].isEmpty else { return [] }
            do { return try ReminderTime.list([row.string(column)]) } catch { throw failure(column, "\(column.header): \(error)") }
        }

        /// The policy in `column`, its parameters in the next, its hash (when given) in `sha256`.
        func policy(_ column: ArchiveCSVColumn, sha256 hashColumn: ArchiveCSVColumn? = nil) throws -> PolicyChoice {
            let parametersColumn = ArchiveCSVColumn(rawValue: column.rawValue + 1) ?? column
            let parameters = row.string(parametersColumn)
            let choice: PolicyChoice
            do {
                choice = try PolicyChoice(name: row.string(column), parametersJSON: parameters.isEmpty ? "{}" : parameters)
            } catch {
                throw failure(parametersColumn, "\(error)")
            }
            guard let hashColumn, !row[hashColumn].isEmpty else { return choice }
            let hash = row.string(hashColumn)
            guard PolicyScript.isHash(hash) else { throw failure(hashColumn, "\(hashColumn.header) must be 64 lowercase hex digits") }
            return choice.pinned(to: hash)
        }
    }
}

extension CSVReader.RowView {
    /// A field's bytes by its column.
    subscript(_ column: ArchiveCSVColumn) -> UnsafeBufferPointer<UInt8> { self[column.rawValue] }

    /// A field's text by its column.
    func string(_ column: ArchiveCSVColumn) -> String { string(column.rawValue) }
}
