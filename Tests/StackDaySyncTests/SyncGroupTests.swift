import Foundation
import Testing
import StackDay

/// Groups of habits sync as entities of their own: a group and its revisions, made, changed from a
/// day, renamed and removed on any device, reach every replica with the same members and rules.
@Suite("sync of habit groups")
struct SyncGroupTests {
    private func groups(_ context: HabitContext) throws -> [HabitGroup] {
        try context.store.read { tx in try tx.groups.all() }.sorted { $0.name < $1.name }
    }

    /// The group's day figures as its owner sees them, for every replica to agree on.
    private func figures(_ context: HabitContext) throws -> [String] {
        try SummarizeGroups(context: context)().map { result in
            switch result {
            case .success(let summary): "\(summary.group.name) \(summary.statistics)"
            case .failure(let failure): "failed: \(failure)"
            }
        }
    }

    @Test("a group made on one device reaches the other; a membership change from a day, a rename and a removal come back; replicas stay equal")
    func journey() async throws {
        let world = try World()
        try await world.shared()
        try CreateHabit(context: world.a.app)(name: "walk", startedOn: today.adding(days: -5))
        try RecordCompletion(context: world.a.app)(habitName: "read", amount: 1, on: today)
        try RecordCompletion(context: world.a.app)(habitName: "walk", amount: 1, on: today)
        world.later()
        try CreateGroup(context: world.a.app)(name: "morning", members: ["read", "walk"], rule: PolicyChoice(name: "at-least", parameters: ["count": .number(1)]))
        try await world.syncEach(world.a, world.b)
        let made = try #require(try groups(world.b.app).first)
        #expect(made.name == "morning" && made.latest.members.count == 2 && made.latest.rule.name == "at-least" && made.latest.rule.parameters["count"] == .number(1))
        #expect(try figures(world.b.app) == (try figures(world.a.app)) && !(try figures(world.b.app)).isEmpty)

        // On b: walk leaves the group from today; on a, meanwhile, a rename. Both hold.
        world.later()
        _ = try EditGroup(context: world.b.app)("morning", EditGroup.Changes(members: ["read"], from: today))
        world.later()
        _ = try EditGroup(context: world.a.app)("morning", EditGroup.Changes(name: "routine"))
        try await world.exchange()
        let snapshots = try world.snapshots()
        #expect(snapshots[0] == snapshots[1] && snapshots[1] == snapshots[2], "\(snapshots[0].difference(from: snapshots[1])) \(snapshots[1].difference(from: snapshots[2]))")
        let changed = try #require(try groups(world.a.app).first)
        #expect(changed.name == "routine" && changed.revisions.count == 2 && changed.latest.members.count == 1 && changed.latest.effectiveFrom == today)
        #expect(try figures(world.a.app) == (try figures(world.server.context)))

        // Removed on b: gone everywhere, the habits kept.
        world.later()
        _ = try DeleteGroup(context: world.b.app)("routine")
        try await world.exchange()
        for context in [world.server.context, world.a.app, world.b.app] {
            #expect(try groups(context).isEmpty)
            #expect(try ListHabits(context: context)(includeArchived: true).count == 2)
        }
        // A sync after moves nothing.
        let again = try await world.sync(world.a)
        #expect(again.pushed == 0 && again.pulled == 0, "\(again)")
    }

    @Test("a membership change made after a rename elsewhere keeps the rename: a write of one part never rewrites the others")
    func laterMembershipKeepsRename() async throws {
        let world = try World()
        try await world.shared()
        try CreateHabit(context: world.a.app)(name: "walk", startedOn: today.adding(days: -5))
        try CreateGroup(context: world.a.app)(name: "morning", members: ["read", "walk"])
        try await world.syncEach(world.a, world.b)
        world.later()
        _ = try EditGroup(context: world.a.app)("morning", EditGroup.Changes(name: "routine"))
        world.later()
        _ = try EditGroup(context: world.b.app)("morning", EditGroup.Changes(members: ["walk"], from: today))
        // b's change reaches the server first, a's rename after it.
        try await world.syncEach(world.b, world.a, world.b)
        for context in [world.server.context, world.a.app, world.b.app] {
            let group = try #require(try groups(context).first)
            #expect(group.name == "routine" && group.revisions.count == 2 && group.latest.members.count == 1)
        }
    }

    @Test("two membership changes made apart, the later-numbered from an earlier day: both kept, every replica judging them alike")
    func changesApart() async throws {
        let world = try World()
        try await world.shared()
        try CreateHabit(context: world.a.app)(name: "walk", startedOn: today.adding(days: -5))
        try CreateGroup(context: world.a.app)(name: "morning", members: ["read", "walk"], from: today.adding(days: -5))
        try await world.syncEach(world.a, world.b)
        _ = try EditGroup(context: world.a.app)("morning", EditGroup.Changes(members: ["read"], from: today.adding(days: -1)))
        world.later()
        _ = try EditGroup(context: world.b.app)("morning", EditGroup.Changes(members: ["walk"], from: today.adding(days: -3)))
        try await world.syncEach(world.a, world.b, world.a)
        let snapshots = try world.snapshots()
        #expect(snapshots[0] == snapshots[1] && snapshots[1] == snapshots[2], "\(snapshots[0].difference(from: snapshots[1])) \(snapshots[1].difference(from: snapshots[2]))")
        let group = try #require(try groups(world.server.context).first)
        // b's change, numbered after a's, judges from its own day: a's judges none of its days.
        #expect(group.revisions.count == 3 && group.latest.effectiveFrom == today.adding(days: -3))
        #expect(group.segments(through: today).map(\.days.first) == [today.adding(days: -5), today.adding(days: -3)])
        #expect(try figures(world.a.app) == (try figures(world.b.app)))
    }

    @Test("two devices each make a group of one name offline: both are kept, the later-made as 'NAME (2)', on every replica")
    func sameName() async throws {
        let world = try World()
        try await world.shared()
        try CreateGroup(context: world.a.app)(name: "morning", members: ["read"])
        world.later()
        try CreateGroup(context: world.b.app)(name: "Morning", members: ["read"], rule: PolicyChoice(name: "any"))
        try await world.exchange()
        try await world.sync(world.a)
        let snapshots = try world.snapshots()
        #expect(snapshots[0] == snapshots[1] && snapshots[1] == snapshots[2], "\(snapshots[0].difference(from: snapshots[1])) \(snapshots[1].difference(from: snapshots[2]))")
        #expect(try groups(world.a.app).map(\.name) == ["Morning (2)", "morning"])
        #expect(try groups(world.a.app).first { $0.name == "Morning (2)" }?.latest.rule.name == "any")
    }

    @Test("a group rule of the user's own goes with its script, pinned by hash")
    func ownRule() async throws {
        let world = try World()
        try await world.shared()
        let source = """
            return {
              group = function(members, params, day)
                local done = 0
                for _, member in ipairs(members) do
                  if member.status == "completed" then done = done + 1 end
                end
                return done / #members
              end,
            }
            """
        _ = try InstallPolicy(context: world.a.app)(name: "share", source: source)
        try CreateGroup(context: world.a.app)(name: "solo", members: ["read"], rule: PolicyChoice(name: "share"))
        try await world.syncEach(world.a, world.b)
        let group = try #require(try groups(world.b.app).first)
        let hash = try #require(group.latest.rule.sha256)
        #expect(try world.b.app.store.read { tx in try tx.scripts.script(sha256: hash) }?.source == source)
        #expect(try figures(world.b.app) == (try figures(world.a.app)))
    }
}
