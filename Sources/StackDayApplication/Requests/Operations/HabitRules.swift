import Foundation
import StackDay

/// What `habit add` and `habit edit` both take: a goal, a unit, a start day, the three policies
/// with their parameters, and reminder times. Each is nil when not given.
public struct HabitRules: Sendable {
    public static let goal = RequestField<Double>.number("goal", help: "How much makes a day done (default: 1).")
    public static let unit = RequestField<String>.text("unit", help: "The unit of amounts, e.g. cups or km.", valueName: "unit")
    public static let start = RequestField<LocalDay>.day("start", help: "The first tracked day, YYYY-MM-DD (default: today).")
    public static let schedule = RequestField<String>.text(
        "schedule", help: "The schedule: a policy, words such as \"mon wed fri\", or a calendar rule (default: daily).", valueName: "policy")
    public static let scheduleParams = RequestField<[String: JSONValue]>.object("scheduleParams", help: "Parameters for the schedule policy, a JSON object.")
    public static let progress = RequestField<String>.text("progress", help: "The progress policy (default: goal).", valueName: "policy")
    public static let progressParams = RequestField<[String: JSONValue]>.object("progressParams", help: "Parameters for the progress policy, a JSON object.")
    public static let streak = RequestField<String>.text("streak", help: "The streak policy (default: strict).", valueName: "policy")
    public static let streakParams = RequestField<[String: JSONValue]>.object("streakParams", help: "Parameters for the streak policy, a JSON object.")
    public static let remind = RequestField<[String]>.texts(
        "remind", help: "A time to be reminded on due days, while the day is still open: push to subscribed browsers, webhooks, the calendar feed (repeatable; none for none; default: none).",
        valueName: "HH:MM", limit: ReminderTime.limit
    ).map { try ReminderTime.list($0) }

    public static let fields = [
        goal.declaration, unit.declaration, start.declaration, schedule.declaration, scheduleParams.declaration, progress.declaration,
        progressParams.declaration, streak.declaration, streakParams.declaration, remind.declaration,
    ]

    /// The policy field of `role` and its parameters' field.
    public static func fields(of role: PolicyRole) -> (name: RequestField<String>, parameters: RequestField<[String: JSONValue]>) {
        switch role {
        case .schedule: (schedule, scheduleParams)
        case .progress: (progress, progressParams)
        case .streak: (streak, streakParams)
        case .group: preconditionFailure("a habit's rules name no group policy")
        }
    }

    public var goal: Double?
    public var unit: String?
    public var start: LocalDay?
    /// The policy named for each role (the schedule as given: a name, words or a calendar rule).
    public var policies: [PolicyRole: String] = [:]
    /// The parameters given for each role.
    public var parameters: [PolicyRole: [String: JSONValue]] = [:]
    public var reminders: [ReminderTime]?

    public init(goal: Double? = nil, unit: String? = nil, start: LocalDay? = nil, policies: [PolicyRole: String] = [:],
                parameters: [PolicyRole: [String: JSONValue]] = [:], reminders: [ReminderTime]? = nil) {
        self.goal = goal
        self.unit = unit
        self.start = start
        self.policies = policies
        self.parameters = parameters
        self.reminders = reminders
    }

    init(_ fields: RequestFields) throws {
        goal = try fields[Self.goal]
        unit = try fields[Self.unit]
        start = try fields[Self.start]
        for role in PolicyRole.habitRoles {
            let (name, parameters) = Self.fields(of: role)
            policies[role] = try fields[name]
            self.parameters[role] = try fields[parameters]
        }
        reminders = try fields[Self.remind]
    }

    /// Whether anything is given that makes a new rule revision.
    var changesRules: Bool { goal != nil || !policies.isEmpty || !parameters.isEmpty || reminders != nil }
}
