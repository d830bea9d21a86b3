import StackDay

/// A group's line of today and stats: `{"name", "rule", "state", "progress", "members": [{"name",
/// "state", "progress"}], "done", "current", "longest", "rate", "score"}` (`rule` the policy's
/// name, `done` how many members are done today), or `{"name", "rule", "error"}` for a group whose
/// rule or a member failed.
public struct GroupDayView: JSONView {
    public let result: Result<GroupSummary, GroupFailure>

    public init(_ result: Result<GroupSummary, GroupFailure>) {
        self.result = result
    }

    public var json: JSONValue {
        switch result {
        case .success(let summary):
            let stats = summary.statistics
            return .object([
                "name": .string(summary.group.name), "rule": .string(summary.revision.rule.name),
                "state": .string(summary.today?.state.rawValue ?? EntryState.notDue.rawValue),
                "progress": ViewJSON.number(summary.today?.progress ?? 0),
                "members": .array(summary.todayMembers.map { member in
                    .object(["name": .string(member.name), "state": .string(member.state.rawValue), "progress": ViewJSON.number(member.progress)])
                }),
                "done": ViewJSON.int(summary.doneToday),
                "current": ViewJSON.int(stats.streak.current), "longest": ViewJSON.int(stats.streak.longest),
                "rate": ViewJSON.number(stats.completionRate), "score": ViewJSON.number(stats.score),
            ])
        case .failure(let failure):
            return .object(["name": .string(failure.group.name), "rule": .string(failure.group.latest.rule.name), "error": .string(failure.message)])
        }
    }
}
