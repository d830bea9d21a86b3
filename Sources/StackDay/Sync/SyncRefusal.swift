/// A pushed change the server took but did not keep, and why (`code`): a record or skip of a
/// habit deleted elsewhere (`habit_deleted`) goes with the habit. The push still succeeds.
public struct SyncRefusal: Sendable, Equatable {
    public let kind: SyncKind
    public let key: String
    public let code: String

    /// The code of a record or skip whose habit was deleted.
    public static let habitDeleted = "habit_deleted"

    public init(kind: SyncKind, key: String, code: String) {
        self.kind = kind
        self.key = key
        self.code = code
    }

    public var json: JSONValue {
        .object(["kind": .string(kind.rawValue), "key": .string(key), "code": .string(code)])
    }

    /// Reads `json`; nil when it is not a refusal this build knows how to read.
    public init?(json: JSONValue) {
        guard let object = json.objectValue, let kind = object["kind"]?.stringValue.flatMap(SyncKind.init(rawValue:)),
              let key = object["key"]?.stringValue, let code = object["code"]?.stringValue else { return nil }
        self.init(kind: kind, key: key, code: code)
    }
}
