import Foundation
import StackDay

/// The JSON export format:
/// `{"format":"stackday","version":2,"habits":[…],"groups":[…],"completions":[…],"skips":[…],"scripts":[…]}`.
///
/// Version 2 gives each habit its rule `revisions` and carries the policy `scripts` they pin;
/// version 1 (a habit's goal and policies as fields, no scripts) is still read. `groups` is
/// written when there are any: `{"id", "name", "createdAt", "revisions": [{"revision", "from",
/// "members": [habit id…], "rule", "streak", "createdAt", "takesBack"?}]}`.
public enum ArchiveJSON {
    public static let version = 2

    public static func encode(_ archive: HabitArchive) -> String {
        ArchiveWriter.text(archive, format: .json)
    }

    static func habitValue(_ habit: Habit) -> JSONValue {
        .object([
            "id": .string(UUIDText.format(habit.id)), "name": .string(habit.name), "startedOn": .string(habit.startedOn.iso),
            "archivedOn": habit.archivedOn.map { .string($0.iso) } ?? .null, "createdAt": .string(InstantText.format(habit.createdAt)),
            "updatedAt": .string(InstantText.format(habit.updatedAt)), "unit": .string(habit.unit),
            "revisions": .array(habit.revisions.map(revisionValue)),
            "position": .number(Double(habit.position)), "colorTag": habit.colorTag.map { .string($0.rawValue) } ?? .null,
            "step": habit.step.map(JSONValue.number) ?? .null,
            "question": habit.question.map(JSONValue.string) ?? .null, "description": habit.details.map(JSONValue.string) ?? .null,
        ])
    }

    static func groupValue(_ group: HabitGroup) -> JSONValue {
        .object([
            "id": .string(UUIDText.format(group.id)), "name": .string(group.name), "createdAt": .string(InstantText.format(group.createdAt)),
            "revisions": .array(group.revisions.map { revision in
                .object([
                    "revision": .number(Double(revision.number)), "from": .string(revision.effectiveFrom.iso),
                    "members": .array(revision.members.map { .string(UUIDText.format($0)) }), "rule": revision.rule.jsonValue,
                    "streak": revision.streak.jsonValue, "createdAt": .string(InstantText.format(revision.createdAt)),
                ].merging(revision.takesBack.map { ["takesBack": .number(Double($0))] } ?? [:]) { $1 })
            }),
        ])
    }

    static func scriptValue(_ script: PolicyScript) -> JSONValue {
        .object(["name": .string(script.name), "sha256": .string(script.sha256), "installedAt": .string(InstantText.format(script.installedAt)),
                 "source": .string(script.source)].merging(script.installed ? ["installed": .bool(true)] : [:]) { $1 })
    }

    static func completionValue(_ completion: Completion) -> JSONValue {
        var fields: [String: JSONValue] = ["id": .string(UUIDText.format(completion.id)), "habit": .string(UUIDText.format(completion.habitID)),
                                           "day": .string(completion.completedOn.iso), "recordedAt": .string(InstantText.format(completion.recordedAt)),
                                           "amount": .number(completion.amount)]
        if let note = completion.note { fields["note"] = .string(note) }
        return .object(fields)
    }

    static func skipValue(_ skip: Skip) -> JSONValue {
        .object(["id": .string(UUIDText.format(skip.id)), "habit": .string(UUIDText.format(skip.habitID)), "day": .string(skip.day.iso),
                 "recordedAt": .string(InstantText.format(skip.recordedAt))])
    }

    /// Throws `ImportFormatError` naming `file`, the line and the column. Members may come in any order.
    public static func decode(_ text: String, file: String) throws -> HabitArchive {
        try HabitArchive(collecting: ArchiveFile(format: .json, input: .bytes(Array(text.utf8), file: file)))
    }

    /// The catalog: habits and scripts parsed, records counted and their extent checked.
    static func catalog(_ input: ArchiveInput) throws -> ArchiveCatalog {
        let file = input.file
        var stream = JSONObjectStream(input: try input.open(), file: file)
        var members: [String: JSONValue] = [:]
        var habits: [JSONValue] = [], scripts: [JSONValue] = [], groups: [JSONValue] = []
        var catalog = ArchiveCatalog()
        let arrays = try stream.walk(parsing: { ["habits", "scripts", "groups"].contains($0) }, member: { members[$0] = $1 }) { key, _, value in
            switch key {
            case "habits": habits.append(value ?? .null)
            case "groups": groups.append(value ?? .null)
            case "scripts": scripts.append(value ?? .null)
            case "completions", "skips": catalog.records += 1
            default: break
            }
        }
        guard case .string("stackday")? = members["format"] else {
            throw ImportFormatError(file: file, line: nil, column: nil, message: "not a StackDay export (expected \"format\": \"stackday\")")
        }
        guard case .number(let number)? = members["version"], number == 1 || number == Double(version) else {
            let found = members["version"].map(\.jsonText) ?? "none"
            throw ImportFormatError(file: file, line: nil, column: nil, message: "unsupported export version \(found); this StackDay reads versions 1 and \(version)")
        }
        var reader = FieldReader(file: file)
        for key in ["habits", "completions"] where !arrays.contains(key) {
            reader.path = key
            throw reader.failure("must be an array")
        }
        for (index, item) in habits.enumerated() {
            reader.path = "habits[\(index)]"
            let fields = try reader.object(item)
            do {
                let id = try reader.uuid(fields, "id"), name = try reader.string(fields, "name")
                let startedOn = try reader.day(fields, "startedOn"), archivedOn = try reader.optionalDay(fields, "archivedOn")
                let createdAt = try reader.instant(fields, "createdAt"), updatedAt = try reader.instant(fields, "updatedAt")
                let unit = try reader.string(fields, "unit")
                if number == 1 {
                    catalog.habits.append(try Habit(
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
                        createdAt: try reader.instant(revision, "createdAt"), reminders: try reader.reminders(revision),
                        takesBack: try reader.optionalNumber(revision, "takesBack").map { Int(exactly: $0) ?? 0 }
                    ))
                }
                reader.path = "habits[\(index)]"
                let position = try reader.optionalNumber(fields, "position").map { Int(exactly: $0) ?? -1 } ?? 0
                let colorTag = try reader.optionalString(fields, "colorTag").map { text in
                    guard let tag = HabitColor(rawValue: text) else { throw reader.failure("colorTag '\(text)' is not one of \(HabitColor.names)") }
                    return tag
                }
                catalog.habits.append(try Habit(id: id, name: name, startedOn: startedOn, archivedOn: archivedOn, createdAt: createdAt,
                                                updatedAt: updatedAt, unit: unit, revisions: revisions, position: position, colorTag: colorTag,
                                                step: try reader.optionalNumber(fields, "step"), question: try reader.optionalString(fields, "question"),
                                                details: try reader.optionalString(fields, "description")))
            } catch let error as HabitValidationError {
                throw reader.failure("\(error)")
            }
        }
        for (index, item) in groups.enumerated() {
            reader.path = "groups[\(index)]"
            let fields = try reader.object(item)
            do {
                var revisions: [GroupRevision] = []
                for (offset, item) in try reader.array(fields["revisions"], path: "groups[\(index)].revisions").enumerated() {
                    reader.path = "groups[\(index)].revisions[\(offset)]"
                    let revision = try reader.object(item)
                    let members = try reader.array(revision["members"], path: reader.path + ".members").map { member in
                        guard case .string(let text) = member, let id = UUIDText.parse(text) else { throw reader.failure("members must be habit ids") }
                        return id
                    }
                    revisions.append(try GroupRevision(
                        number: Int(exactly: try reader.number(revision, "revision")) ?? 0, effectiveFrom: try reader.day(revision, "from"),
                        members: members, rule: try reader.policy(revision, "rule"), streak: try reader.policy(revision, "streak"),
                        createdAt: try reader.instant(revision, "createdAt"),
                        takesBack: try reader.optionalNumber(revision, "takesBack").map { Int(exactly: $0) ?? 0 }))
                }
                reader.path = "groups[\(index)]"
                catalog.groups.append(try HabitGroup(id: try reader.uuid(fields, "id"), name: try reader.string(fields, "name"),
                                                     createdAt: try reader.instant(fields, "createdAt"), revisions: revisions))
            } catch let error as GroupError {
                throw reader.failure("\(error)")
            }
        }
        for (index, item) in scripts.enumerated() {
            reader.path = "scripts[\(index)]"
            let fields = try reader.object(item)
            do {
                catalog.scripts.append(try PolicyScript(
                    name: try reader.string(fields, "name"), sha256: try reader.string(fields, "sha256"),
                    source: try reader.string(fields, "source"), installedAt: try reader.instant(fields, "installedAt"),
                    installed: fields["installed"] == .bool(true)
                ))
            } catch let error as PolicyScriptError {
                throw reader.failure("\(error)")
            }
        }
        return catalog
    }

    /// Each completion and skip, parsed one at a time, in the order the file holds them.
    static func forEachRecord(_ input: ArchiveInput, _ body: (ArchiveRecord) throws -> Void) throws {
        let file = input.file
        var stream = JSONObjectStream(input: try input.open(), file: file)
        var reader = FieldReader(file: file)
        _ = try stream.walk(parsing: { $0 == "completions" || $0 == "skips" }, member: { _, _ in }) { key, index, value in
            guard let value else { return }
            reader.path = "\(key)[\(index)]"
            let fields = try reader.object(value)
            if key == "skips" {
                return try body(.skip(Skip(
                    id: try reader.uuid(fields, "id"), habitID: try reader.uuid(fields, "habit"), day: try reader.day(fields, "day"),
                    recordedAt: try reader.instant(fields, "recordedAt")
                )))
            }
            let completion: Completion
            do {
                completion = try Completion(
                    id: try reader.uuid(fields, "id"), habitID: try reader.uuid(fields, "habit"), completedOn: try reader.day(fields, "day"),
                    recordedAt: try reader.instant(fields, "recordedAt"), amount: try reader.number(fields, "amount"),
                    note: try reader.optionalString(fields, "note")
                )
            } catch let error as HabitValidationError {
                throw reader.failure("\(error)")
            }
            try body(.completion(completion))
        }
    }

    /// A revision as exports and `policy history --json` write it.
    public static func revisionValue(_ revision: HabitRevision) -> JSONValue {
        .object([
            "revision": .number(Double(revision.number)), "from": .string(revision.effectiveFrom.iso), "goal": .number(revision.goal),
            "schedule": revision.schedule.jsonValue, "progress": revision.progress.jsonValue, "streak": revision.streak.jsonValue,
            "createdAt": .string(InstantText.format(revision.createdAt)),
        ].merging(revision.reminders.isEmpty ? [:] : ["remind": .array(revision.reminders.map { .string($0.description) })]) { $1 }
         .merging(revision.takesBack.map { ["takesBack": .number(Double($0))] } ?? [:]) { $1 })
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

        func optionalNumber(_ fields: [String: JSONValue], _ key: String) throws -> Double? {
            switch fields[key] {
            case nil, .null?: return nil
            case .number(let value)?: return value
            default: throw failure("\(key) must be a number or null")
            }
        }

        func uuid(_ fields: [String: JSONValue], _ key: String) throws -> UUID {
            let text = try string(fields, key)
            guard let id = UUIDText.parse(text) else { throw failure("\(key) '\(text)' is not a UUID") }
            return id
        }

        /// `remind`: an array of `HH:MM` (absent: none).
        func reminders(_ fields: [String: JSONValue]) throws -> [ReminderTime] {
            guard let value = fields["remind"], value != .null else { return [] }
            guard let texts = value.arrayValue?.compactMap(\.stringValue), texts.count == value.arrayValue?.count else {
                throw failure("remind must be an array of times (HH:MM)")
            }
            do { return try ReminderTime.list(texts) } catch { throw failure("remind: \(error)") }
        }

        func day(_ fields: [String: JSONValue], _ key: String) throws -> LocalDay {
            let text = try string(fields, key)
            do { return try LocalDay(iso: text) } catch { throw failure("\(key): \(error)") }
        }

        func optionalString(_ fields: [String: JSONValue], _ key: String) throws -> String? {
            switch fields[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw failure("\(key) must be a string or null")
            }
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
