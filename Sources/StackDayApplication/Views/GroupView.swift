import Foundation
import StackDay
import StackDayExchange

/// A group as defined: `{"id", "name", "from", "members": [names], "rule", "streak", "revisions":
/// [{"revision", "from", "members", "rule", "streak", "createdAt", "takesBack"?}]}`, `rule` and
/// `streak` as `{"name", "params", "sha256"}` of the latest revision. A member whose habit is
/// gone is left out.
public struct GroupView: JSONView {
    public let group: HabitGroup
    /// The names of the habits the group's revisions name, by id.
    public let names: [UUID: String]

    public init(_ group: HabitGroup, names: [UUID: String]) {
        self.group = group
        self.names = names
    }

    /// The members of `revision` by name, in order.
    public func members(of revision: GroupRevision) -> [String] { revision.members.compactMap { names[$0] } }

    public var json: JSONValue {
        .object([
            "id": .string(group.id.uuidString), "name": .string(group.name), "from": .string(group.startedOn.iso),
            "members": .array(members(of: group.latest).map(JSONValue.string)),
            "rule": group.latest.rule.jsonValue, "streak": group.latest.streak.jsonValue,
            "revisions": .array(group.revisions.map { revision in
                .object([
                    "revision": ViewJSON.int(revision.number), "from": .string(revision.effectiveFrom.iso),
                    "members": .array(members(of: revision).map(JSONValue.string)),
                    "rule": revision.rule.jsonValue, "streak": revision.streak.jsonValue,
                    "createdAt": .string(InstantText.format(revision.createdAt)),
                ].merging(revision.takesBack.map { ["takesBack": ViewJSON.int($0)] } ?? [:]) { $1 })
            }),
        ])
    }
}
