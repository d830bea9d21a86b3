/// What `SimulateGroup` found: the group's day and figures as stored and under the proposal,
/// and the revision that proposes it (its `effectiveFrom` the first day it judges).
public struct GroupSimulation: Sendable {
    public let current: Result<GroupSummary, GroupFailure>
    public let proposed: Result<GroupSummary, GroupFailure>
    public let proposal: GroupRevision

    public init(current: Result<GroupSummary, GroupFailure>, proposed: Result<GroupSummary, GroupFailure>, proposal: GroupRevision) {
        self.current = current
        self.proposed = proposed
        self.proposal = proposal
    }
}
