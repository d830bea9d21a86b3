import Foundation
import StackDay

/// Creating, changing and reading habits.
extension Application {
    /// The schedule as given read as a policy, a pasted calendar rule or a phrase (`ScheduleInput`),
    /// with its parameters; nil when no schedule is named. A read schedule's failure names the field.
    func scheduleInput(_ rules: HabitRules, naming: FieldNaming, habitStart: LocalDay?) throws -> ScheduleInput? {
        guard let text = rules.policies[.schedule] else { return nil }
        do {
            return try ScheduleInput(text, parameters: rules.parameters[.schedule], timeZone: context.boundary.timeZone, habitStart: habitStart,
                                     isPolicy: { name in ((try? context.store.read { try context.directory.find(name, in: $0) }) ?? nil) != nil })
        } catch let error as PastedRecurrenceError {
            throw PolicyParameterError.invalid(policy: "rrule", name: "rule", reason: "\(naming(HabitRules.schedule)): \(error)")
        }
    }

    /// `habit add`, `POST /v1/habits`: a habit from a name, a goal (default 1), a unit, a start
    /// (default today) and the three policies (default daily, goal, strict; parameters alone are
    /// the default policy's). A pasted event gives the habit its name (SUMMARY), start (DTSTART)
    /// and reminders (its alarms, else its start time) when none are given.
    public func createHabit(_ request: CreateHabitRequest) throws -> HabitView {
        let rules = request.rules
        func choice(_ role: PolicyRole, _ fallback: PolicyChoice) -> PolicyChoice {
            PolicyChoice(name: rules.policies[role] ?? fallback.name, parameters: rules.parameters[role] ?? [:])
        }
        let schedule = try scheduleInput(rules, naming: request.naming, habitStart: rules.start)
        guard let name = request.name ?? schedule?.summary else { throw RequestError("\(request.naming(CreateHabitRequest.name)) is required") }
        let habit = try CreateHabit(context: context)(
            name: name, startedOn: rules.start ?? schedule?.start, goal: rules.goal ?? 1, unit: rules.unit ?? "",
            schedule: schedule?.choice ?? choice(.schedule, .daily), progress: choice(.progress, .goal), streak: choice(.streak, .strict),
            reminders: rules.reminders ?? schedule?.reminders ?? [], colorTag: request.display.colorTag ?? nil, step: request.display.storedStep ?? nil,
            question: request.display.question, details: request.display.details
        )
        return HabitView(habit, schedule: schedule)
    }

    /// `habit edit` and `habit rename`, `PATCH /v1/habits/{name}`: a new name, start or unit, and
    /// new rules judging days from `rulesFrom`; in one transaction.
    public func editHabit(_ name: String, _ request: EditHabitRequest) throws -> HabitView {
        let rules = request.rules
        var changes = HabitChanges(name: request.name, startedOn: rules.start, goal: rules.goal, unit: rules.unit, rulesFrom: request.rulesFrom.start)
        changes.reminders = rules.reminders
        changes.colorTag = request.display.colorTag
        changes.step = request.display.storedStep
        changes.question = request.display.question
        changes.details = request.display.details
        changes.position = request.position
        let schedule = try scheduleInput(rules, naming: request.naming, habitStart: nil)
        changes.schedule = schedule?.choice
        changes.progress = rules.policies[.progress].map { PolicyChoice(name: $0, parameters: rules.parameters[.progress] ?? [:]) }
        changes.streak = rules.policies[.streak].map { PolicyChoice(name: $0, parameters: rules.parameters[.streak] ?? [:]) }
        for role in PolicyRole.habitRoles where rules.policies[role] == nil {
            if let parameters = rules.parameters[role] { changes.parameters[role] = parameters }
        }
        let naming = request.naming
        if !changes.changesRules && request.rulesFrom.isGiven {
            throw RequestError("\(naming(RulesFromRequest.from)) and \(naming(RulesFromRequest.retroactive)) apply to a new goal or policy")
        }
        if changes.isEmpty {
            // The command line renames with `habit rename`; the API's PATCH takes a name.
            let fields = [HabitRules.goal.declaration, HabitRules.unit.declaration, HabitRules.start.declaration, HabitRules.schedule.declaration,
                          HabitRules.progress.declaration, HabitRules.streak.declaration, HabitRules.remind.declaration]
                + HabitDisplay.fields + (naming.isHTTP ? [EditHabitRequest.name.declaration, EditHabitRequest.position.declaration] : [])
            let options = fields.map { naming.isHTTP ? "field '\($0.key)'" : $0.commandLineLabel }.joined(separator: ", ")
            throw RequestError("nothing to change: give at least one of \(options)")
        }
        let before = try FindHabit(context: context)(named: name).latest.number
        let habit = try EditHabit(context: context)(habitName: name, changes: changes)
        return HabitView(habit, revised: habit.latest.number > before, schedule: schedule)
    }

    /// `habit archive`, `POST /v1/habits/{name}/archive`: the last tracked day is `on` (default today).
    public func archiveHabit(_ name: String, _ request: ArchiveRequest) throws -> HabitView {
        HabitView(try ArchiveHabit(context: context)(habitName: name, on: request.on))
    }

    /// `habit move`: a new place in the list (the API's `PATCH` takes `position`).
    public func moveHabit(_ name: String, _ request: MoveHabitRequest) throws -> HabitView {
        HabitView(try MoveHabit(context: context)(.name(name), to: request.place))
    }

    /// `habit unarchive`, `POST /v1/habits/{name}/unarchive`.
    public func unarchiveHabit(_ name: String) throws -> HabitView {
        HabitView(try UnarchiveHabit(context: context)(habitName: name))
    }

    /// `habit delete`, `DELETE /v1/habits/{name}`: the habit as it was.
    public func deleteHabit(_ name: String) throws -> HabitView {
        HabitView(try DeleteHabit(context: context)(habitName: name))
    }

    /// `habit list`, `GET /v1/habits`: every habit, or only the active or only the archived ones.
    public func listHabits(_ request: ListHabitsRequest = ListHabitsRequest()) throws -> HabitListView {
        let habits = try ListHabits(context: context)(includeArchived: request.selection != .active)
        return HabitListView(habits: request.selection == .archived ? habits.filter { $0.archivedOn != nil } : habits)
    }

    /// `GET /v1/habits`: `limit` habits after `cursor`, in list order (position, created at, then
    /// id), and the next page's cursor (nil on the last). A habit added or deleted meanwhile moves
    /// no other across a page's edge.
    public func habitPage(_ request: ListHabitsRequest) throws -> (habits: [Habit], next: String?) {
        let all = try listHabits(request).habits
        func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        var start = all.startIndex
        if let cursor = request.cursor {
            // `POSITION.CREATED_ID`; a cursor from before positions is `CREATED_ID`, at position 0.
            let parts = cursor.split(separator: "_", maxSplits: 1)
            let head = parts.first?.split(separator: ".", maxSplits: 1) ?? []
            let position = head.count == 2 ? Int(head[0]) : 0
            guard parts.count == 2, let position, let created = Int64(head.last ?? ""), UUID(uuidString: String(parts[1])) != nil else {
                throw RequestError("invalid value for \(request.naming(ListHabitsRequest.cursor)): the cursor is not one this server gave")
            }
            // After the habit the cursor names; if it was deleted meanwhile, after where it stood.
            let id = String(parts[1])
            if let index = all.firstIndex(where: { $0.id.uuidString == id }) {
                start = index + 1
            } else {
                start = all.firstIndex { ($0.position, millis($0.createdAt), $0.id.uuidString) > (position, created, id) } ?? all.endIndex
            }
        }
        let page = Array(all[start...].prefix(request.limit))
        let more = start + page.count < all.endIndex
        return (page, more ? page.last.map { "\($0.position).\(millis($0.createdAt))_\($0.id.uuidString)" } : nil)
    }

    /// `habit show`, `GET /v1/habits/{name}`.
    public func showHabit(_ name: String) throws -> HabitDetailView {
        guard let result = try SummarizeHabits(context: context)(habitName: name).first else { throw UseCaseError.habitNotFound(name: name) }
        return HabitDetailView(result: result)
    }
}
