import StackDay

/// `group list`, `GET /v1/groups`: `{"groups": [GroupView…]}` in the order they were made.
public struct GroupListView: JSONView {
    public let groups: [GroupView]

    public init(groups: [GroupView]) {
        self.groups = groups
    }

    public var json: JSONValue { .object(["groups": .array(groups.map(\.json))]) }
}
