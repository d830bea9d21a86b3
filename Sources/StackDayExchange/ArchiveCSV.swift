import Foundation
import StackDay

/// The CSV export format: one header, then one row per habit, rule revision, completion, skip
/// and policy script (`kind` says which).
///
/// A `revision` row gives the effective-from day in `day`, the goal in `amount`, when it was
/// written in `recorded_at`, and the pinned hashes; a `script` row its `name`, `sha256`,
/// `source` and install time (`recorded_at`). Files with the version 1 header (no revision or
/// script rows; a habit row carries its goal and policies), the version 2 header (no `note`) and
/// the version 3 header (no `position`, `color_tag` and `step` of a habit row, no `reminders` of
/// a revision row), the version 4 header (no `takes_back` of a revision row, no `installed` of a
/// script row) and the version 5 header (no `question` and `description` of a habit row) are still read.
public enum ArchiveCSV {
    static let headerV1 = ["kind", "id", "habit", "name", "day", "archived_on", "recorded_at", "updated_at", "amount", "unit",
                           "schedule", "schedule_params", "progress", "progress_params", "streak", "streak_params"]
    static let headerV2 = headerV1 + ["revision", "schedule_sha256", "progress_sha256", "streak_sha256", "sha256", "source"]
    static let headerV3 = headerV2 + ["note"]
    static let headerV4 = headerV3 + ["position", "color_tag", "step", "reminders"]
    static let headerV5 = headerV4 + ["takes_back", "installed"]
    static let header = headerV5 + ["question", "description"]
    static let headers = [header, headerV5, headerV4, headerV3, headerV2, headerV1]

    public static func encode(_ archive: HabitArchive) -> String {
        ArchiveWriter.text(archive, format: .csv)
    }

    /// Lines of one row each, from `values` by column (the others empty).
    static func line(_ values: [Int: String]) -> String {
        var fields = [String](repeating: "", count: header.count)
        for (index, value) in values { fields[index] = value }
        return row(fields)
    }

    static var headerLine: String { header.joined(separator: ",") }

    static func habitLines(_ habit: Habit) -> String {
        line([
            0: "habit", 1: UUIDText.format(habit.id), 3: habit.name, 4: habit.startedOn.iso, 5: habit.archivedOn?.iso ?? "",
            6: InstantText.format(habit.createdAt), 7: InstantText.format(habit.updatedAt), 9: habit.unit,
            23: String(habit.position), 24: habit.colorTag?.rawValue ?? "", 25: habit.step.map(Quantity.describe) ?? "",
            29: habit.question ?? "", 30: habit.details ?? "",
        ])
    }

    static func revisionLines(_ habit: Habit) -> [String] {
        habit.revisions.map { revision in
            var values: [Int: String] = [
                0: "revision", 2: UUIDText.format(habit.id), 4: revision.effectiveFrom.iso, 6: InstantText.format(revision.createdAt),
                8: Quantity.describe(revision.goal), 16: String(revision.number), 26: ReminderTime.stored(revision.reminders),
                27: revision.takesBack.map(String.init) ?? "",
            ]
            for (offset, role) in PolicyRole.allCases.enumerated() {
                let choice = revision.choice(for: role)
                values[10 + 2 * offset] = choice.name
                values[11 + 2 * offset] = choice.parametersJSON
                values[17 + offset] = choice.sha256 ?? ""
            }
            return line(values)
        }
    }

    static func completionLine(_ completion: Completion) -> String {
        line([0: "completion", 1: UUIDText.format(completion.id), 2: UUIDText.format(completion.habitID),
              4: completion.completedOn.iso, 6: InstantText.format(completion.recordedAt),
              8: Quantity.describe(completion.amount), 22: completion.note ?? ""])
    }

    static func skipLine(_ skip: Skip) -> String {
        line([0: "skip", 1: UUIDText.format(skip.id), 2: UUIDText.format(skip.habitID), 4: skip.day.iso, 6: InstantText.format(skip.recordedAt)])
    }

    static func scriptLine(_ script: PolicyScript) -> String {
        line([0: "script", 3: script.name, 6: InstantText.format(script.installedAt), 20: script.sha256, 21: script.source,
              28: script.installed ? "1" : ""])
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
            let kind = row[0]
            let isRecord = kind.elementsEqual("completion".utf8) || kind.elementsEqual("skip".utf8)
            if isRecord, records == nil { catalog.records += 1; return }
            if !isRecord, records != nil { return }
            do {
                switch row.string(0) {
                case "completion":
                    try records?(.completion(try Completion(
                        id: try cells.uuid(1), habitID: try cells.uuid(2), completedOn: try cells.day(4),
                        recordedAt: try cells.instant(6), amount: try cells.number(8), note: header.count > 22 ? row.string(22) : nil
                    )))
                case "skip":
                    try records?(.skip(Skip(id: try cells.uuid(1), habitID: try cells.uuid(2), day: try cells.day(4), recordedAt: try cells.instant(6))))
                case "habit" where isV1:
                    catalog.habits.append(try Habit(
                        id: try cells.uuid(1), name: row.string(3), startedOn: try cells.day(4),
                        archivedOn: row[5].isEmpty ? nil : try cells.day(5),
                        createdAt: try cells.instant(6), updatedAt: try cells.instant(7), goal: try cells.number(8), unit: row.string(9),
                        schedule: try cells.policy(10), progress: try cells.policy(12), streak: try cells.policy(14)
                    ))
                case "habit":
                    var fields = HabitFields(
                        id: try cells.uuid(1), name: row.string(3), startedOn: try cells.day(4),
                        archivedOn: row[5].isEmpty ? nil : try cells.day(5), createdAt: try cells.instant(6),
                        updatedAt: try cells.instant(7), unit: row.string(9), line: row.line
                    )
                    if header.count > 23 {
                        guard let position = Int(row.string(23)) else { throw cells.failure(23, "position '\(row.string(23))' is not a whole number") }
                        fields.position = position
                        if !row[24].isEmpty {
                            guard let tag = HabitColor(rawValue: row.string(24)) else {
                                throw cells.failure(24, "color_tag '\(row.string(24))' is not one of \(HabitColor.names)")
                            }
                            fields.colorTag = tag
                        }
                        if !row[25].isEmpty { fields.step = try cells.number(25) }
                    }
                    if header.count > 30 {
                        fields.question = row.string(29)
                        fields.details = row.string(30)
                    }
                    pending.append(fields)
                case "revision" where !isV1:
                    let number = try cells.whole(16, "revision")
                    revisions[try cells.uuid(2), default: []].append(try HabitRevision(
                        number: number, effectiveFrom: try cells.day(4), goal: try cells.number(8),
                        schedule: try cells.policy(10, sha256: 17), progress: try cells.policy(12, sha256: 18),
                        streak: try cells.policy(14, sha256: 19), createdAt: try cells.instant(6),
                        reminders: header.count > 26 ? try cells.reminders(26) : [],
                        takesBack: header.count > 27 && !row.string(27).isEmpty ? try cells.whole(27, "takes_back") : nil
                    ))
                case "script" where !isV1:
                    do {
                        catalog.scripts.append(try PolicyScript(name: row.string(3), sha256: row.string(20), source: row.string(21),
                                                                installedAt: try cells.instant(6), installed: header.count > 28 && row.string(28) == "1"))
                    } catch let error as PolicyScriptError {
                        throw cells.failure(20, "\(error)")
                    }
                default:
                    throw cells.failure(0, "kind must be \(isV1 ? "habit, completion or skip" : "habit, revision, completion, skip or script"), not '\(row.string(0))'")
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
        return catalog
    }

    /// Typed access to a row's fields, naming line and column on failure.
    struct Cells {
        let row: CSVReader.RowView
        let file: String

        func failure(_ index: Int, _ message: String) -> ImportFormatError {
            ImportFormatError(file: file, line: row.line, column: index + 1, message: message)
        }

        func uuid(_ index: Int) throws -> UUID {
            guard let id = UUIDText.parse(row[index]) else { throw failure(index, "\(header[index]) '\(row.string(index))' is not a UUID") }
            return id
        }

        func day(_ index: Int) throws -> LocalDay {
            if let day = LocalDay(isoBytes: row[index]) { return day }
            do { return try LocalDay(iso: row.string(index)) } catch { throw failure(index, "\(header[index]): \(error)") }
        }

        func instant(_ index: Int) throws -> Date {
            guard let date = InstantText.parse(bytes: row[index]) else {
                throw failure(index, "\(header[index]) '\(row.string(index))' is not an ISO 8601 instant")
            }
            return date
        }

        func number(_ index: Int) throws -> Double {
            guard let value = Double(row.string(index)) else { throw failure(index, "\(header[index]) '\(row.string(index))' is not a number") }
            return value
        }

        /// A whole number.
        func whole(_ index: Int, _ name: String) throws -> Int {
            guard let value = Int(row.string(index)) else { throw failure(index, "\(name) '\(row.string(index))' is not a whole number") }
            return value
        }

        /// Reminder times as stored (`08:00,21:00`; empty for none).
        func reminders(_ index: Int) throws -> [ReminderTime] {
            guard !row[index].isEmpty else { return [] }
            do { return try ReminderTime.list([row.string(index)]) } catch { throw failure(index, "\(header[index]): \(error)") }
        }

        /// The policy in column `index`, its parameters in the next, its hash (when given) in `sha256`.
        func policy(_ index: Int, sha256 column: Int? = nil) throws -> PolicyChoice {
            let parameters = row.string(index + 1)
            let choice: PolicyChoice
            do {
                choice = try PolicyChoice(name: row.string(index), parametersJSON: parameters.isEmpty ? "{}" : parameters)
            } catch {
                throw failure(index + 1, "\(error)")
            }
            guard let column, !row[column].isEmpty else { return choice }
            let hash = row.string(column)
            guard PolicyScript.isHash(hash) else { throw failure(column, "\(header[column]) must be 64 lowercase hex digits") }
            return choice.pinned(to: hash)
        }
    }
}
