import StackDay

/// `group show`, `GET /v1/groups/{name}`: the group as defined (`GroupView`) with its line of
/// today (`GroupDayView`) as `"today"`.
public struct GroupDetailView: JSONView {
    public let group: GroupView
    public let day: GroupDayView

    public init(group: GroupView, day: GroupDayView) {
        self.group = group
        self.day = day
    }

    /// Whether the group's rule, streak rule or a member failed (its `today` holds the error).
    public var failed: Bool {
        if case .failure = day.result { return true }
        return false
    }

    public var json: JSONValue {
        guard case .object(var object) = group.json else { return group.json }
        object["today"] = day.json
        return .object(object)
    }
}
