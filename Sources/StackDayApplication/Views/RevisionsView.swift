import StackDay

/// `policy history`, `GET /v1/habits/{name}/revisions`: `{"habit", "revisions": […]}`, every
/// revision ever written, each taken back by a rollback saying which (`takenBackBy`), each a
/// rollback wrote saying what it takes back (`takesBack`).
public struct RevisionsView: JSONView {
    public let habit: Habit

    public var json: JSONValue {
        .object(["habit": .string(habit.name), "revisions": .array(habit.revisions.map { revision in
            guard case .object(var fields) = ViewJSON.revision(revision) else { return ViewJSON.revision(revision) }
            if let taker = habit.takenBack(revision.number) { fields["takenBackBy"] = ViewJSON.int(taker) }
            return .object(fields)
        })])
    }
}
