import Foundation

/// What a server's merge of one device's sync decided beyond copying: habits it renamed, the
/// device's habit field changes that lost to later ones, records and skips it refused. A server
/// keeps the latest one per user (`SyncRepository.keepDecided`) for the web app to say, as
/// `stackday sync` says it on the device.
public struct SyncDecided: Sendable, Equatable {
    /// A habit the server renamed: two live habits had one name.
    public struct Renamed: Sendable, Equatable {
        public let from: String
        public let to: String

        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    /// A field the device changed that holds another value, set later elsewhere.
    public struct Overridden: Sendable, Equatable {
        /// The habit's name now.
        public let habit: String
        public let field: SyncHabitField
        /// The device's value and the one kept, as text (`none` for no value).
        public let mine: String
        public let kept: String

        public init(habit: String, field: SyncHabitField, mine: String, kept: String) {
            self.habit = habit
            self.field = field
            self.mine = mine
            self.kept = kept
        }
    }

    /// A pushed record or skip not kept, and why (`SyncRefusal`'s code).
    public struct Refused: Sendable, Equatable {
        public let kind: String
        public let habit: String
        public let day: String?
        public let code: String

        public init(kind: String, habit: String, day: String?, code: String) {
            self.kind = kind
            self.habit = habit
            self.day = day
            self.code = code
        }
    }

    public let device: String
    public let at: Date
    public var renamed: [Renamed]
    public var overridden: [Overridden]
    public var refused: [Refused]

    public init(device: String, at: Date, renamed: [Renamed] = [], overridden: [Overridden] = [], refused: [Refused] = []) {
        self.device = device
        self.at = at
        self.renamed = renamed
        self.overridden = overridden
        self.refused = refused
    }

    /// Whether it decided nothing beyond copying.
    public var isEmpty: Bool { renamed.isEmpty && overridden.isEmpty && refused.isEmpty }

    /// As kept: `{"device", "at", "renamed": [{"from", "to"}], "overridden": [{"habit", "field",
    /// "mine", "kept"}], "refused": [{"kind", "habit", "day", "code"}]}`.
    public var json: JSONValue {
        .object([
            "device": .string(device), "at": .number(at.timeIntervalSince1970),
            "renamed": .array(renamed.map { .object(["from": .string($0.from), "to": .string($0.to)]) }),
            "overridden": .array(overridden.map {
                .object(["habit": .string($0.habit), "field": .string($0.field.rawValue), "mine": .string($0.mine), "kept": .string($0.kept)])
            }),
            "refused": .array(refused.map {
                .object(["kind": .string($0.kind), "habit": .string($0.habit), "day": $0.day.map(JSONValue.string) ?? .null, "code": .string($0.code)])
            }),
        ])
    }

    /// From `json`'s form; nil for anything else.
    public init?(json: JSONValue) {
        guard let object = json.objectValue, let device = object["device"]?.stringValue, let at = object["at"]?.numberValue else { return nil }
        func items(_ name: String) -> [[String: JSONValue]] { object[name]?.arrayValue?.compactMap(\.objectValue) ?? [] }
        self.init(
            device: device, at: Date(timeIntervalSince1970: at),
            renamed: items("renamed").map { Renamed(from: $0["from"]?.stringValue ?? "", to: $0["to"]?.stringValue ?? "") },
            overridden: items("overridden").compactMap { item in
                item["field"]?.stringValue.flatMap(SyncHabitField.init(rawValue:)).map { field in
                    Overridden(habit: item["habit"]?.stringValue ?? "", field: field, mine: item["mine"]?.stringValue ?? "", kept: item["kept"]?.stringValue ?? "")
                }
            },
            refused: items("refused").map {
                Refused(kind: $0["kind"]?.stringValue ?? "", habit: $0["habit"]?.stringValue ?? "", day: $0["day"]?.stringValue,
                        code: $0["code"]?.stringValue ?? "")
            })
    }
}
