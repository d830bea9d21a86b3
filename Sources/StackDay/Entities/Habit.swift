import Foundation

/// A habit: what to do, from which day, how much a day, and which policies judge it.
///
/// The initializer enforces the habit's own rules (a trimmed, non-empty name of at most
/// 100 characters; a finite goal ≥ 0.001; an archive day not before the start day) and throws
/// `HabitValidationError` otherwise. Rules that need other habits or the clock (unique names,
/// no future days) belong to the use cases.
public struct Habit: Identifiable, Hashable, Sendable {
    public static let nameLimit = 100

    /// What names are compared by: trimmed and lowercased, so `Water` and ` water` are one name.
    public static func nameKey(for name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
    public static let unitLimit = 30

    public let id: UUID
    public let name: String
    /// The first tracked day.
    public let startedOn: LocalDay
    /// The last tracked day, inclusive; nil while the habit is active.
    public let archivedOn: LocalDay?
    public let createdAt: Date
    public let updatedAt: Date
    /// How much makes a day done, in `unit`; 1 for a plain done/not-done habit.
    public let goal: Double
    /// The unit of amounts and the goal (`cups`, `km`); empty for a plain habit.
    public let unit: String
    public let schedule: PolicyChoice
    public let progress: PolicyChoice
    public let streak: PolicyChoice

    public init(
        id: UUID = UUID(),
        name: String,
        startedOn: LocalDay,
        archivedOn: LocalDay? = nil,
        createdAt: Date,
        updatedAt: Date? = nil,
        goal: Double = 1,
        unit: String = "",
        schedule: PolicyChoice = .daily,
        progress: PolicyChoice = .goal,
        streak: PolicyChoice = .strict
    ) throws(HabitValidationError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyName }
        guard trimmed.count <= Habit.nameLimit else { throw .nameTooLong(length: trimmed.count, limit: Habit.nameLimit) }
        let trimmedUnit = unit.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmedUnit.count <= Habit.unitLimit else {
            throw .unitTooLong(length: trimmedUnit.count, limit: Habit.unitLimit)
        }
        guard Quantity.thousandths(goal) != nil else { throw .invalidGoal(goal) }
        guard startedOn.isSupported else { throw .dayOutOfRange(startedOn) }
        if let archivedOn, !archivedOn.isSupported { throw .dayOutOfRange(archivedOn) }
        if let archivedOn, archivedOn < startedOn {
            throw .archivedBeforeStart(archivedOn: archivedOn, startedOn: startedOn)
        }
        self.id = id
        self.name = trimmed
        self.startedOn = startedOn
        self.archivedOn = archivedOn
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.goal = goal
        self.unit = trimmedUnit
        self.schedule = schedule
        self.progress = progress
        self.streak = streak
    }

    /// A done/not-done habit (goal 1, no unit): one completion a day is all it takes.
    public var isPlain: Bool { goal == 1 && unit.isEmpty }

    /// Whether the habit tracks `day` (between `startedOn` and `archivedOn`, both included).
    public func tracks(_ day: LocalDay) -> Bool {
        day >= startedOn && (archivedOn.map { day <= $0 } ?? true)
    }

    /// A copy with some fields changed, validated like a new habit, stamped `updatedAt`.
    public func with(
        name: String? = nil,
        startedOn: LocalDay? = nil,
        archivedOn: LocalDay?? = .none,
        goal: Double? = nil,
        unit: String? = nil,
        schedule: PolicyChoice? = nil,
        progress: PolicyChoice? = nil,
        streak: PolicyChoice? = nil,
        updatedAt: Date
    ) throws(HabitValidationError) -> Habit {
        try Habit(
            id: id,
            name: name ?? self.name,
            startedOn: startedOn ?? self.startedOn,
            archivedOn: archivedOn ?? self.archivedOn,
            createdAt: createdAt,
            updatedAt: updatedAt,
            goal: goal ?? self.goal,
            unit: unit ?? self.unit,
            schedule: schedule ?? self.schedule,
            progress: progress ?? self.progress,
            streak: streak ?? self.streak
        )
    }
}
