import StackDay

/// `policy list`, `GET /v1/policies`: `{"policies": [entry…]}`, every place each name the user
/// can use is found, by name, the one in use first (`PolicyEntryView`).
public struct PolicyListView: JSONView {
    public let entries: [PolicyEntryView]

    public var json: JSONValue { .object(["policies": .array(entries.map(\.json))]) }

    /// The entries in use (one per name).
    public var inUse: [PolicyEntryView] { entries.filter(\.inUse) }
}
