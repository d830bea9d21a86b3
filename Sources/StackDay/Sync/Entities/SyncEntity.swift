/// A live entity as a change carries it, typed by its kind. Each case is boxed (`indirect`): a
/// change is copied often on its way (pages, slices, batches), and a copy then retains one box
/// rather than every text field of the entity.
public indirect enum SyncEntity: Sendable, Hashable {
    case script(SyncScript)
    case habit(SyncHabit)
    case revision(SyncRevision)
    case record(SyncRecord)
    case skip(SyncSkip)
    case group(SyncGroup)
    case groupRevision(SyncGroupRevision)

    public var kind: SyncKind {
        switch self {
        case .script: .script
        case .habit: .habit
        case .revision: .revision
        case .record: .completion
        case .skip: .skip
        case .group: .group
        case .groupRevision: .groupRevision
        }
    }

    public var key: String {
        switch self {
        case .script(let script): script.key
        case .habit(let habit): habit.key
        case .revision(let revision): revision.key
        case .record(let record): record.key
        case .skip(let skip): skip.key
        case .group(let group): group.key
        case .groupRevision(let revision): revision.key
        }
    }

    /// The habit it belongs to (nil for a script or a group's; a habit's own id for a habit).
    public var habit: String? {
        switch self {
        case .script, .group, .groupRevision: nil
        case .habit(let habit): habit.id
        case .revision(let revision): revision.habit
        case .record(let record): record.habit
        case .skip(let skip): skip.habit
        }
    }

    /// The entity a replica must hold before this one (a habit before its revisions, records and
    /// skips, a group before its revisions), by its kind and key.
    public var parent: (kind: SyncKind, key: String)? {
        switch self {
        case .script, .habit, .group: nil
        case .revision(let revision): (.habit, revision.habit)
        case .record(let record): (.habit, record.habit)
        case .skip(let skip): (.habit, skip.habit)
        case .groupRevision(let revision): (.group, revision.group)
        }
    }

    /// The revision, for a revision of a habit or a group.
    public var numbered: (any SyncNumbered)? {
        switch self {
        case .revision(let revision): revision
        case .groupRevision(let revision): revision
        case .script, .habit, .record, .skip, .group: nil
        }
    }

    /// The day a record or skip is of.
    public var day: LocalDay? {
        switch self {
        case .record(let record): record.day
        case .skip(let skip): skip.day
        case .script, .habit, .revision, .group, .groupRevision: nil
        }
    }

    /// The values in its kind's field order (`SyncEntityValue.fields`).
    public var values: [JSONValue] {
        switch self {
        case .script(let script): script.values
        case .habit(let habit): habit.values
        case .revision(let revision): revision.values
        case .record(let record): record.values
        case .skip(let skip): skip.values
        case .group(let group): group.values
        case .groupRevision(let revision): revision.values
        }
    }

    /// The entity as one JSON object, its fields by their wire names.
    public var object: [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: zip(Self.fieldNames(kind), values))
    }

    /// A kind's field names on the wire, in order.
    public static func fieldNames(_ kind: SyncKind) -> [String] {
        switch kind {
        case .script: SyncScript.fieldNames
        case .habit: SyncHabit.fieldNames
        case .revision: SyncRevision.fieldNames
        case .completion: SyncRecord.fieldNames
        case .skip: SyncSkip.fieldNames
        case .group: SyncGroup.fieldNames
        case .groupRevision: SyncGroupRevision.fieldNames
        }
    }

    /// A kind's field rules, in order.
    public static func rules(_ kind: SyncKind) -> [SyncValue] {
        switch kind {
        case .script: SyncScript.fields.map(\.value)
        case .habit: SyncHabit.fields.map(\.value)
        case .revision: SyncRevision.fields.map(\.value)
        case .completion: SyncRecord.fields.map(\.value)
        case .skip: SyncSkip.fields.map(\.value)
        case .group: SyncGroup.fields.map(\.value)
        case .groupRevision: SyncGroupRevision.fields.map(\.value)
        }
    }

    /// An entity of `kind` from values in its field order, each checked by its rule.
    public static func decode(_ kind: SyncKind, _ values: [JSONValue?]) -> Result<SyncEntity, SyncEntityProblem> {
        switch kind {
        case .script: SyncScript.decode(values).map(SyncEntity.script)
        case .habit: SyncHabit.decode(values).map(SyncEntity.habit)
        case .revision: SyncRevision.decode(values).map(SyncEntity.revision)
        case .completion: SyncRecord.decode(values).map(SyncEntity.record)
        case .skip: SyncSkip.decode(values).map(SyncEntity.skip)
        case .group: SyncGroup.decode(values).map(SyncEntity.group)
        case .groupRevision: SyncGroupRevision.decode(values).map(SyncEntity.groupRevision)
        }
    }

    /// An entity of `kind` from values a store read (`SyncEntityValue.trusted`).
    public static func trusted(_ kind: SyncKind, _ values: [JSONValue?]) -> SyncEntity {
        switch kind {
        case .script: .script(.trusted(values))
        case .habit: .habit(.trusted(values))
        case .revision: .revision(.trusted(values))
        case .completion: .record(.trusted(values))
        case .skip: .skip(.trusted(values))
        case .group: .group(.trusted(values))
        case .groupRevision: .groupRevision(.trusted(values))
        }
    }

    /// An entity of `kind` from a JSON object of its fields by wire name; the problem names a
    /// member no field of the kind has.
    public static func decode(_ kind: SyncKind, object: [String: JSONValue]) -> Result<SyncEntity, SyncEntityProblem> {
        let fields = fieldValues(kind, object: object)
        if let unknown = fields.unknown {
            return .failure(SyncEntityProblem(field: unknown, reason: "is not a field of a \(kind.rawValue)"))
        }
        return decode(kind, fields.values)
    }

    /// A JSON object's members in `kind`'s field order (nil for one it leaves out), and the first
    /// member, by name, that no field of the kind has.
    public static func fieldValues(_ kind: SyncKind, object: [String: JSONValue]) -> (values: [JSONValue?], unknown: String?) {
        let names = fieldNames(kind)
        return (names.map { object[$0] }, object.keys.sorted().first { !names.contains($0) })
    }
}
