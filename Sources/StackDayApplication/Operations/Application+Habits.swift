import Foundation
import StackDay

/// Creating, changing and reading habits.
extension Application {
    /// The fields that name a goal, a unit, a start day and the three policies.
    static let ruleFields: Set<String> = [
        "goal", "unit", "start", "schedule", "scheduleParams", "progress", "progressParams", "streak", "streakParams", "remind",
    ]

    /// `remind`: times as text (`21:00`, `08:00, 21:00`, `none`) or a JSON array of them; nil when not given.
    static func reminders(_ fields: RequestFields) throws -> [ReminderTime]? {
        guard let texts = try fields.strings("remind") else { return nil }
        do { return try ReminderTime.list(texts) } catch { throw fields.invalid("remind", "\(error)") }
    }

    /// A policy named by `role` and its parameters `roleParams`, each only when given. Parameters
    /// without a name are for the policy the habit runs (`HabitChanges.parameters`).
    static func choice(_ fields: RequestFields, _ role: PolicyRole) throws -> (choice: PolicyChoice?, parameters: [String: JSONValue]?) {
        let parameters = try fields.object("\(role.rawValue)Params")
        guard let name = try fields.string(role.rawValue) else { return (nil, parameters) }
        return (PolicyChoice(name: name, parameters: parameters ?? [:]), nil)
    }

    /// The `schedule` field read as a policy, a pasted calendar rule or a phrase (`ScheduleInput`),
    /// with `scheduleParams`; nil when no schedule is named. A read schedule's failure names the field.
    func scheduleInput(_ fields: RequestFields, habitStart: LocalDay?) throws -> ScheduleInput? {
        guard let text = try fields.string(PolicyRole.schedule.rawValue) else { return nil }
        let parameters = try fields.object("scheduleParams")
        do {
            return try ScheduleInput(text, parameters: parameters, timeZone: context.boundary.timeZone, habitStart: habitStart,
                                     isPolicy: { name in ((try? context.policies.roles(ofPolicyNamed: name)) ?? []).isEmpty == false })
        } catch let error as PastedRecurrenceError {
            throw PolicyParameterError.invalid(policy: "rrule", name: "rule", reason: "\(fields.label("schedule")): \(error)")
        }
    }

    /// The first day new rules judge: `from`, or the start day with `retroactive` (not both), else today.
    public static func revisionStart(_ fields: RequestFields) throws -> RevisionStart {
        let from = try fields.day("from")
        guard try fields.bool("retroactive") else { return from.map(RevisionStart.day) ?? .today }
        if from != nil { throw RequestError("\(fields.label("from")) and \(fields.label("retroactive")) cannot be used together") }
        return .retroactive
    }

    /// `habit add`, `POST /v1/habits`: a habit from `name`, `goal` (default 1), `unit`, `start`
    /// (default today) and the three policies (default daily, goal, strict; parameters alone are
    /// the default policy's).
    public func createHabit(_ fields: RequestFields) throws -> HabitView {
        try fields.check(allowed: Self.ruleFields.union(["name"]))
        func choice(_ role: PolicyRole, _ fallback: PolicyChoice) throws -> PolicyChoice {
            let (named, parameters) = try Self.choice(fields, role)
            return named ?? PolicyChoice(name: fallback.name, parameters: parameters ?? [:])
        }
        let start = try fields.day("start")
        let schedule = try scheduleInput(fields, habitStart: start)
        // A pasted event gives the habit its name (SUMMARY) and start (DTSTART) when none is given.
        guard let name = try fields.string("name") ?? schedule?.summary else { throw RequestError("\(fields.label("name")) is required") }
        let habit = try CreateHabit(context: context)(
            name: name, startedOn: start ?? schedule?.start, goal: try fields.number("goal") ?? 1,
            unit: try fields.string("unit") ?? "", schedule: try schedule?.choice ?? choice(.schedule, .daily), progress: try choice(.progress, .goal),
            streak: try choice(.streak, .strict), reminders: try Self.reminders(fields) ?? []
        )
        return HabitView(habit, schedule: schedule)
    }

    /// `habit edit` and `habit rename`, `PATCH /v1/habits/{name}`: a new `name`, `start` or `unit`,
    /// and new rules (`goal`, policies) judging days from `from` (default today), or from the start
    /// with `retroactive`; in one transaction.
    public func editHabit(_ name: String, _ fields: RequestFields) throws -> HabitView {
        try fields.check(allowed: Self.ruleFields.union(["name", "from", "retroactive"]))
        var changes = HabitChanges(
            name: try fields.string("name"), startedOn: try fields.day("start"), goal: try fields.number("goal"), unit: try fields.string("unit"),
            rulesFrom: try Self.revisionStart(fields)
        )
        changes.reminders = try Self.reminders(fields)
        let schedule = try scheduleInput(fields, habitStart: nil)
        for role in PolicyRole.allCases {
            let (choice, parameters) = try Self.choice(fields, role)
            switch role {
            case .schedule: changes.schedule = schedule?.choice
            case .progress: changes.progress = choice
            case .streak: changes.streak = choice
            }
            if let parameters { changes.parameters[role] = parameters }
        }
        if try !changes.changesRules && (fields.has("from") || fields.bool("retroactive")) {
            throw RequestError("\(fields.label("from")) and \(fields.label("retroactive")) apply to a new goal or policy")
        }
        if changes.isEmpty {
            // The command line renames with `habit rename`; the API's PATCH takes a name.
            let keys = ["goal", "unit", "start", "schedule", "progress", "streak", "remind"] + (fields.surface == .http ? ["name"] : [])
            let options = keys.map(fields.label).joined(separator: ", ")
            throw RequestError("nothing to change: give at least one of \(options)")
        }
        let before = try FindHabit(context: context)(named: name).latest.number
        let habit = try EditHabit(context: context)(habitName: name, changes: changes)
        return HabitView(habit, revised: habit.latest.number > before, schedule: schedule)
    }

    /// `habit archive`, `POST /v1/habits/{name}/archive`: the last tracked day is `on` (default today).
    public func archiveHabit(_ name: String, _ fields: RequestFields) throws -> HabitView {
        try fields.check(allowed: ["on"])
        return HabitView(try ArchiveHabit(context: context)(habitName: name, on: try fields.day("on")))
    }

    /// `habit unarchive`, `POST /v1/habits/{name}/unarchive`.
    public func unarchiveHabit(_ name: String) throws -> HabitView {
        HabitView(try UnarchiveHabit(context: context)(habitName: name))
    }

    /// `habit delete`, `DELETE /v1/habits/{name}`: the habit as it was.
    public func deleteHabit(_ name: String) throws -> HabitView {
        HabitView(try DeleteHabit(context: context)(habitName: name))
    }

    /// `habit list`, `GET /v1/habits`: every habit, only the active ones with `active`, or only
    /// the archived ones with `archived` (not both).
    public func listHabits(_ fields: RequestFields) throws -> HabitListView {
        try fields.check(allowed: ["active", "archived"])
        let (active, archived) = (try fields.bool("active"), try fields.bool("archived"))
        if active && archived { throw RequestError("\(fields.label("active")) and \(fields.label("archived")) cannot be used together") }
        let habits = try ListHabits(context: context)(includeArchived: !active)
        return HabitListView(habits: archived ? habits.filter { $0.archivedOn != nil } : habits)
    }

    /// `GET /v1/habits`: `limit` habits (default 100, at most 1000) after `cursor`, in creation
    /// order (created at, then id), with `active` or `archived` as `listHabits` takes them, and
    /// the next page's cursor (nil on the last). A habit added or deleted meanwhile moves no other
    /// across a page's edge.
    public func habitPage(_ fields: RequestFields) throws -> (habits: [Habit], next: String?, limit: Int) {
        let limit = try fields.integer("limit", in: 1...1000, what: "a page size from 1 to 1000") ?? 100
        let all = try listHabits(fields.removing("limit").removing("cursor")).habits
        func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        var start = all.startIndex
        if let cursor = try fields.string("cursor") {
            let parts = cursor.split(separator: "_", maxSplits: 1)
            guard parts.count == 2, let created = Int64(parts[0]), UUID(uuidString: String(parts[1])) != nil else {
                throw RequestError("invalid value for \(fields.label("cursor")): the cursor is not one this server gave")
            }
            // After the habit the cursor names; if it was deleted meanwhile, after where it stood.
            let id = String(parts[1])
            if let index = all.firstIndex(where: { $0.id.uuidString == id }) {
                start = index + 1
            } else {
                start = all.firstIndex { (millis($0.createdAt), $0.id.uuidString) > (created, id) } ?? all.endIndex
            }
        }
        let page = Array(all[start...].prefix(limit))
        let more = start + page.count < all.endIndex
        return (page, more ? page.last.map { "\(millis($0.createdAt))_\($0.id.uuidString)" } : nil, limit)
    }

    /// `habit show`, `GET /v1/habits/{name}`.
    public func showHabit(_ name: String) throws -> HabitDetailView {
        guard let result = try SummarizeHabits(context: context)(habitName: name).first else { throw UseCaseError.habitNotFound(name: name) }
        return HabitDetailView(result: result)
    }
}
