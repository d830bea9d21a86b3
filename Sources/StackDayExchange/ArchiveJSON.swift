import Foundation
import StackDay

/// The JSON export format:
/// `{"format":"stackday","version":2,"habits":[…],"completions":[…],"skips":[…],"scripts":[…]}`.
///
/// Version 2 gives each habit its rule `revisions` and carries the policy `scripts` they pin;
/// version 1 (a habit's goal and policies as fields, no scripts) is still read.
public enum ArchiveJSON {
    public static let version = 2

    public static func encode(_ archive: HabitArchive) -> String {
        let habits: [JSONValue] = archive.habits.map { habit in
            .object([
                "id": .string(UUIDText.format(habit.id)), "name": .string(habit.name), "startedOn": .string(habit.startedOn.iso),
                "archivedOn": habit.archivedOn.map { .string($0.iso) } ?? .null, "createdAt": .string(InstantText.format(habit.createdAt)),
                "updatedAt": .string(InstantText.format(habit.updatedAt)), "unit": .string(habit.unit),
                "revisions": .array(habit.revisions.map(revisionValue)),
            ])
        }
        let scripts: [JSONValue] = archive.scripts.map {
            .object(["name": .string($0.name), "sha256": .string($0.sha256), "installedAt": .string(InstantText.format($0.installedAt)),
                     "source": .string($0.source)])
        }
        let completions: [JSONValue] = archive.completions.map {
            .object(["id": .string(UUIDText.format($0.id)), "habit": .string(UUIDText.format($0.habitID)), "day": .string($0.completedOn.iso),
                     "recordedAt": .string(InstantText.format($0.recordedAt)), "amount": .number($0.amount)])
        }
        let skips: [JSONValue] = archive.skips.map {
            .object(["id": .string(UUIDText.format($0.id)), "habit": .string(UUIDText.format($0.habitID)), "day": .string($0.day.iso),
                     "recordedAt": .string(InstantText.format($0.recordedAt))])
        }
        // One record per line keeps large exports readable and diffable.
        var lines = ["{\"format\":\"stackday\",\"version\":\(version),"]
        for (key, items) in [("habits", habits), ("completions", completions), ("skips", skips), ("scripts", scripts)] {
            lines.append("\"\(key)\":[")
            for (index, item) in items.enumerated() { lines.append(item.jsonText + (index < items.count - 1 ? "," : "")) }
            lines.append(key == "scripts" ? "]" : "],")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Throws `ImportFormatError` naming `file`, the line and the column.
    public static func decode(_ text: String, file: String) throws -> HabitArchive {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: text)
        } catch {
            let (line, column) = position(of: error.column, in: text)
            throw ImportFormatError(file: file, line: line, column: column, message: error.reason)
        }
        guard let object = root.objectValue, case .string("stackday")? = object["format"] else {
            throw ImportFormatError(file: file, line: nil, column: nil, message: "not a StackDay export (expected \"format\": \"stackday\")")
        }
        guard case .number(let number)? = object["version"], number == 1 || number == Double(version) else {
            let found = object["version"].map(\.jsonText) ?? "none"
            throw ImportFormatError(file: file, line: nil, column: nil, message: "unsupported export version \(found); this StackDay reads versions 1 and \(version)")
        }
        var reader = FieldReader(file: file)
        var archive = HabitArchive()
        for (index, item) in try reader.array(object["habits"], path: "habits").enumerated() {
            reader.path = "habits[\(index)]"
            let fields = try reader.object(item)
            do {
                let id = try reader.uuid(fields, "id"), name = try reader.string(fields, "name")
                let startedOn = try reader.day(fields, "startedOn"), archivedOn = try reader.optionalDay(fields, "archivedOn")
                let createdAt = try reader.instant(fields, "createdAt"), updatedAt = try reader.instant(fields, "updatedAt")
                let unit = try reader.string(fields, "unit")
                if number == 1 {
                    archive.habits.append(try Habit(
                        id: id, name: name, startedOn: startedOn, archivedOn: archivedOn, createdAt: createdAt, updatedAt: updatedAt,
                        goal: try reader.number(fields, "goal"), unit: unit,
                        schedule: try reader.policy(fields, "schedule"), progress: try reader.policy(fields, "progress"), streak: try reader.policy(fields, "streak")
                    ))
                    continue
                }
                var revisions: [HabitRevision] = []
                for (offset, item) in try reader.array(fields["revisions"], path: "habits[\(index)].revisions").enumerated() {
                    reader.path = "habits[\(index)].revisions[\(offset)]"
                    let revision = try reader.object(item)
                    revisions.append(try HabitRevision(
                        number: Int(exactly: try reader.number(revision, "revision")) ?? 0, effectiveFrom: try reader.day(revision, "from"),
                        goal: try reader.number(revision, "goal"), schedule: try reader.policy(revision, "schedule"),
                        progress: try reader.policy(revision, "progress"), streak: try reader.policy(revision, "streak"),
                        createdAt: try reader.instant(revision, "createdAt")
                    ))
                }
                reader.path = "habits[\(index)]"
                archive.habits.append(try Habit(id: id, name: name, startedOn: startedOn, archivedOn: archivedOn, createdAt: createdAt,
                                                updatedAt: updatedAt, unit: unit, revisions: revisions))
            } catch let error as HabitValidationError {
                throw reader.failure("\(error)")
            }
        }
        for (index, item) in try reader.array(object["scripts"] ?? .array([]), path: "scripts").enumerated() {
            reader.path = "scripts[\(index)]"
            let fields = try reader.object(item)
            do {
                archive.scripts.append(try PolicyScript(
                    name: try reader.string(fields, "name"), sha256: try reader.string(fields, "sha256"),
                    source: try reader.string(fields, "source"), installedAt: try reader.instant(fields, "installedAt")
                ))
            } catch let error as PolicyScriptError {
                throw reader.failure("\(error)")
            }
        }
        for (index, item) in try reader.array(object["completions"], path: "completions").enumerated() {
            reader.path = "completions[\(index)]"
            let fields = try reader.object(item)
            do {
                archive.completions.append(try Completion(
                    id: try reader.uuid(fields, "id"), habitID: try reader.uuid(fields, "habit"), completedOn: try reader.day(fields, "day"),
                    recordedAt: try reader.instant(fields, "recordedAt"), amount: try reader.number(fields, "amount")
                ))
            } catch let error as HabitValidationError {
                throw reader.failure("\(error)")
            }
        }
        for (index, item) in try reader.array(object["skips"] ?? .array([]), path: "skips").enumerated() {
            reader.path = "skips[\(index)]"
            let fields = try reader.object(item)
            archive.skips.append(Skip(
                id: try reader.uuid(fields, "id"), habitID: try reader.uuid(fields, "habit"), day: try reader.day(fields, "day"),
                recordedAt: try reader.instant(fields, "recordedAt")
            ))
        }
        return archive
    }

    /// A revision as exports and `policy history --json` write it.
    public static func revisionValue(_ revision: HabitRevision) -> JSONValue {
        .object([
            "revision": .number(Double(revision.number)), "from": .string(revision.effectiveFrom.iso), "goal": .number(revision.goal),
            "schedule": revision.schedule.jsonValue, "progress": revision.progress.jsonValue, "streak": revision.streak.jsonValue,
            "createdAt": .string(InstantText.format(revision.createdAt)),
        ])
    }

    /// The 1-based line and column of a 1-based byte offset.
    static func position(of offset: Int, in text: String) -> (Int, Int) {
        var line = 1, column = 1
        for (index, byte) in text.utf8.enumerated() where index < offset - 1 {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    /// Reads typed fields, naming the JSON path of anything wrong.
    struct FieldReader {
        let file: String
        var path = ""

        func failure(_ message: String) -> ImportFormatError {
            ImportFormatError(file: file, line: nil, column: nil, message: "\(path): \(message)")
        }

        func array(_ value: JSONValue?, path: String) throws -> [JSONValue] {
            guard case .array(let items)? = value else {
                throw ImportFormatError(file: file, line: nil, column: nil, message: "\(path): expected a list")
            }
            return items
        }

        func object(_ value: JSONValue) throws -> [String: JSONValue] {
            guard let fields = value.objectValue else { throw failure("expected an object") }
            return fields
        }

        func string(_ fields: [String: JSONValue], _ key: String) throws -> String {
            guard case .string(let text)? = fields[key] else { throw failure("\(key) must be a string") }
            return text
        }

        func number(_ fields: [String: JSONValue], _ key: String) throws -> Double {
            guard case .number(let value)? = fields[key] else { throw failure("\(key) must be a number") }
            return value
        }

        func uuid(_ fields: [String: JSONValue], _ key: String) throws -> UUID {
            let text = try string(fields, key)
            guard let id = UUIDText.parse(text) else { throw failure("\(key) '\(text)' is not a UUID") }
            return id
        }

        func day(_ fields: [String: JSONValue], _ key: String) throws -> LocalDay {
            let text = try string(fields, key)
            do { return try LocalDay(iso: text) } catch { throw failure("\(key): \(error)") }
        }

        func optionalDay(_ fields: [String: JSONValue], _ key: String) throws -> LocalDay? {
            if fields[key] == nil || fields[key] == .null { return nil }
            return try day(fields, key)
        }

        func instant(_ fields: [String: JSONValue], _ key: String) throws -> Date {
            let text = try string(fields, key)
            guard let date = InstantText.parse(text) else { throw failure("\(key) '\(text)' is not an ISO 8601 instant") }
            return date
        }

        func policy(_ fields: [String: JSONValue], _ key: String) throws -> PolicyChoice {
            guard let object = fields[key]?.objectValue, case .string(let name)? = object["name"] else {
                throw failure("\(key) must be {\"name\": …, \"params\": {…}}")
            }
            var sha256: String? = nil
            if let value = object["sha256"], value != .null {
                guard case .string(let text) = value, PolicyScript.isHash(text) else { throw failure("\(key).sha256 must be 64 lowercase hex digits") }
                sha256 = text
            }
            return PolicyChoice(name: name, parameters: object["params"]?.objectValue ?? [:], sha256: sha256)
        }
    }
}
