import Foundation
import Testing
import StackDay

/// A user's list of habits: its order, a move in it, and the colours and steps habits carry.
@Suite("habit order, colours and steps")
struct HabitOrderTests {
    /// A context with habits a, b, c, d made in that order.
    func four() throws -> HabitContext {
        let context = makeContext()
        for name in ["a", "b", "c", "d"] { try CreateHabit(context: context)(name: name, startedOn: day("2026-10-01")) }
        return context
    }

    func names(_ context: HabitContext) throws -> String {
        try ListHabits(context: context)().map(\.name).joined()
    }

    @Test("a new habit goes last; a move puts it where asked and numbers the list 1, 2, 3, …", arguments: [
        ("d", MoveHabit.Place.before(.name("a")), "dabc"), ("a", .before(.name("c")), "bacd"), ("a", .last, "bcda"),
        ("c", .before(.name("b")), "acbd"), ("b", .at(1), "bacd"), ("b", .at(99), "acdb"), ("d", .at(3), "abdc"),
        ("c", .before(.name("d")), "abcd"),
    ] as [(String, MoveHabit.Place, String)])
    func move(name: String, place: MoveHabit.Place, order: String) throws {
        let context = try four()
        #expect(try names(context) == "abcd")
        #expect(try ListHabits(context: context)().map(\.position) == [1, 2, 3, 4])
        try MoveHabit(context: context)(.name(name), to: place)
        #expect(try names(context) == order)
        #expect(try ListHabits(context: context)().map(\.position) == [1, 2, 3, 4])
        try CreateHabit(context: context)(name: "e", startedOn: day("2026-10-01"))
        #expect(try names(context) == order + "e")
    }

    @Test("a move writes only the habits whose place changed")
    func fewWrites() throws {
        let context = try four()
        let before = try ListHabits(context: context)()
        let changed = HabitOrder.place(before[3], at: 2, in: before)
        #expect(changed.map(\.habit.name) == ["d", "c"] && changed.map(\.position) == [3, 4])
        // Habits from before positions (all 0) are numbered by their first move.
        let unplaced = try before.map { try $0.with(position: 0, updatedAt: $0.updatedAt) }
        #expect(HabitOrder.place(unplaced[0], at: 0, in: unplaced).map(\.position) == [1, 2, 3, 4])
    }

    @Test("a move before itself, to place 0 or of a habit that is not there is refused, and nothing moves", arguments: [
        ("a", MoveHabit.Place.before(.name("a")), "cannot move 'a' before itself"), ("a", .at(0), "counted from 1"),
        ("x", .last, "no habit named 'x'"), ("a", .before(.name("y")), "no habit named 'y'"),
    ] as [(String, MoveHabit.Place, String)])
    func refused(name: String, place: MoveHabit.Place, message: String) throws {
        let context = try four()
        #expect { try MoveHabit(context: context)(.name(name), to: place) } throws: { "\($0)".contains(message) }
        #expect(try names(context) == "abcd")
    }

    @Test("Loop Habit Tracker's palette comes as the nearest tag", arguments: [
        ("#D32F2F", HabitColor.red), ("#E64A19", .orange), ("#F9A825", .amber), ("#AFB42B", .amber), ("#7CB342", .green),
        ("#388E3C", .green), ("#00897B", .teal), ("#00ACC1", .cyan), ("#039BE5", .blue), ("#1976D2", .blue),
        ("#303F9F", .indigo), ("#5E35B1", .purple), ("#8E24AA", .purple), ("#D81B60", .pink), ("#5D4037", .brown),
        ("#757575", .grey), ("#aaaaaa", .grey), ("00796b", .teal),
    ] as [(String, HabitColor)])
    func nearest(hex: String, tag: HabitColor) {
        #expect(HabitColor.nearest(toHex: hex) == tag)
    }

    @Test("a colour that is not #RRGGBB is none", arguments: ["", "red", "#12345", "#GGGGGG", "#1234567"])
    func notAColour(text: String) {
        #expect(HabitColor.nearest(toHex: text) == nil)
    }

    @Test("a step is an amount: at least 0.001, at most three decimals, finite", arguments: [0, -1, 0.0001, .nan, .infinity, 2e9])
    func badStep(step: Double) {
        #expect {
            try Habit(name: "x", startedOn: day("2026-10-01"), createdAt: Date(), step: step)
        } throws: { error in
            guard case .invalidStep? = error as? HabitValidationError else { return false }
            return "\(error)".hasPrefix("a step must be a finite number from 0.001")
        }
    }

    @Test("a colour and a step are no rule: setting them writes no revision")
    func lookIsNoRule() throws {
        let context = try four()
        var changes = HabitChanges()
        changes.colorTag = .some(.pink)
        changes.step = .some(0.25)
        let habit = try EditHabit(context: context)(habitName: "b", changes: changes)
        #expect(habit.revisions.count == 1 && habit.colorTag == .pink && habit.stepAmount == 0.25)
        #expect(!changes.isEmpty && HabitChanges().isEmpty)
    }
}
