import Foundation
import StackDay
import StackDayApplication

/// `stackday group …`: make, list, show, change, take back and remove groups of habits.
enum GroupCommand {
    /// The group a command acts on: the first argument.
    static let name = RequestField<String>.text("name", help: "The group's name (case-insensitive).").argument("name", optional: false).commandLineOnly
    /// `group rename`'s second argument.
    static let newName = RequestField<String>.text("newName", help: "The new name.").argument("new-name", optional: false).commandLineOnly

    static var spec: CommandSpec {
        CommandSpec(name: "group", abstract: "Group habits into routines judged by a group rule of your own.", subcommands: [
            CommandSpec(name: "add", abstract: "Make a group of habits.",
                        discussion: """
                        A group's day is done when its rule says so: all (the default: every member due that day), any, \
                        at-least (--rule-params '{"count": 2}'), sum (--rule-params '{"goal": 3}': the members' totals in one unit), \
                        or a policy of your own defining group(members, params, day). Its streak is a streak policy over the group's days.
                        """,
                        run: add).taking(CreateGroupRequest.fields),
            CommandSpec(name: "list", abstract: "List groups with their members and rules.", run: list),
            CommandSpec(name: "show", abstract: "Show a group's members, rules and figures today.", run: show).taking([name.declaration]),
            CommandSpec(name: "edit", abstract: "Change a group's members or rules from a day.",
                        discussion: "Days before --from keep the members and rules that judged them.",
                        run: edit).taking([name.declaration] + GroupRuleFields.fields),
            CommandSpec(name: "rename", abstract: "Rename a group.", run: rename).taking([name.declaration, newName.declaration]),
            CommandSpec(name: "rollback", abstract: "Take back a group's latest change of members or rules.", run: rollback)
                .taking([name.declaration] + RollBackGroupRequest.fields),
            CommandSpec(name: "calendar", abstract: "A calendar of a group's days as its rule judged them: weeks as columns, a mark for each day.",
                        run: calendar).taking([name.declaration] + CalendarRequest.fields + [ColorChoice.option.declaration]),
            CommandSpec(name: "explain", abstract: "Why a group's streak is what it is: every step of its streak rule's fold, one line a day.",
                        discussion: "The fold starts at the group's start and ends today; the lines shown are the days from --from to --to.",
                        run: explain).taking([name.declaration] + ExplainRequest.fields),
            CommandSpec(name: "done", abstract: "Record every member still open today up to its goal.", run: done).taking([name.declaration]),
            CommandSpec(name: "remove", abstract: "Remove a group (its habits stay).", run: remove).taking([name.declaration]),
        ])
    }

    static func add(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().createGroup(invocation.request())
        if environment.printedJSON(view) { return }
        let latest = view.group.latest
        environment.io.print(environment.words.say("Made group '{name}' of {members}, judged by {rule} from {day}.",
                                                   ("name", view.group.name), ("members", view.members(of: latest).joined(separator: ", ")),
                                                   ("rule", latest.rule.described()), ("day", view.group.startedOn.iso)))
    }

    static func list(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().listGroups()
        if environment.printedJSON(view) { return }
        let words = environment.words
        if view.groups.isEmpty { return environment.io.print(words.say("No groups yet. Make one with: stackday group add NAME --members A,B")) }
        let rows = [["GROUP", "MEMBERS", "RULE", "STREAK RULE", "STARTED"].map { words[$0] }] + view.groups.map { group in
            [group.group.name, group.members(of: group.group.latest).joined(separator: ", "), group.group.latest.rule.described(),
             group.group.latest.streak.described(), group.group.startedOn.iso]
        }
        Format.table(rows).forEach(environment.io.print)
    }

    static func show(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().showGroup(invocation.required(name))
        if environment.printedJSON(view) { return try GroupsFailed.check([view.day.result]) }
        let words = environment.words, group = view.group.group, latest = group.latest
        var rows = [
            [words["name"], group.name],
            [words["members"], view.group.members(of: latest).joined(separator: ", ")],
            [words["rule"], latest.rule.described(pinned: true)],
            [words["streak rule"], latest.streak.described(pinned: true)],
            [words["rules"], words.say("revision {number} of {count}, from {day}", ("number", String(latest.number)),
                                       ("count", String(group.revisions.count)), ("day", latest.effectiveFrom.iso))],
        ]
        switch view.day.result {
        case .success(let summary):
            let stats = summary.statistics
            rows += [
                [words["today"], line(summary, words: words)],
                [words["streak"], "\(words.count(stats.streak.current, .days)) (\(words["longest"]) \(words.count(stats.streak.longest, .days)))"],
                [words["completed"], words.say("{completed} of {due} ({rate})", ("completed", String(stats.completedDays)),
                                               ("counted", words.count(stats.completedDays, .days)),
                                               ("due", words.say("{due} due days", ("due", String(stats.eligibleDays)))),
                                               ("rate", Format.percent(stats.completionRate)))],
                [words["score"], Format.percent(stats.score)],
            ]
        case .failure(let failure):
            rows.append([words["error"], failure.message])
        }
        Format.table(rows).forEach(environment.io.print)
        try GroupsFailed.check([view.day.result])
    }

    /// A group's day in words: `2 of 3  pending`.
    static func line(_ summary: GroupSummary, words: Words) -> String {
        let state = summary.today.map { words.state($0.state) } ?? words.state(.notDue)
        return "\(words.say("{done} of {members}", ("done", String(summary.doneToday)), ("members", String(summary.todayMembers.count))))  \(state)"
    }

    static func edit(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().editGroup(invocation.required(name), invocation.request())
        if environment.printedJSON(view) { return }
        let latest = view.group.latest
        environment.io.print(environment.words.say("Updated group '{name}': revision {number} judges days from {day}.", ("name", view.group.name),
                                                   ("number", String(latest.number)), ("day", latest.effectiveFrom.iso)))
    }

    static func rename(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().editGroup(invocation.required(name),
                                                           try EditGroupRequest(name: try invocation.required(newName), RequestFields()))
        if environment.printedJSON(view) { return }
        environment.io.print(environment.words.say("Renamed to '{name}'.", ("name", view.group.name)))
    }

    static func rollback(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().rollBackGroup(invocation.required(name), invocation.request())
        if environment.printedJSON(view) { return }
        let latest = view.group.latest
        environment.io.print(environment.words.say("Took back the latest change of group '{name}': revision {number} judges days from {day}.",
                                                   ("name", view.group.name), ("number", String(latest.number)), ("day", latest.effectiveFrom.iso)))
    }

    static func calendar(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let colour = try ColorChoice(invocation).colours(terminal: environment.io.isTerminal, environment: environment.io.environment)
        let application = try environment.application()
        let view = try application.groupCalendar(invocation.required(name), invocation.request())
        if environment.printedJSON(view) { return try GroupsFailed.check([view.result]) }
        switch view.result {
        case .success(let summary):
            CalendarCommand.heatmap(summary.group.name, startedOn: summary.group.startedOn, range: view.range, colour: colour, words: environment.words,
                                    weekStart: application.context.boundary.weekStart, limited: false, entry: view.entry(on:)).forEach(environment.io.print)
        case .failure(let failure):
            environment.io.print("\(failure.group.name): \(environment.words["error"]): \(failure.message)")
        }
        try GroupsFailed.check([view.result])
    }

    static func explain(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().explainGroup(invocation.required(name), invocation.request())
        if environment.printedJSON(view) { return }
        view.lines(environment.language).forEach(environment.io.print)
        for line in view.trace ?? [] { environment.io.print("trace \(line)") }
    }

    static func done(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().completeGroup(invocation.required(name))
        if environment.printedJSON(view) { return try GroupsFailed.check([view.day.result]) }
        guard case .success(let summary) = view.day.result else { return try GroupsFailed.check([view.day.result]) }
        environment.io.print("\(view.group.group.name)  \(line(summary, words: environment.words))")
    }

    static func remove(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().removeGroup(invocation.required(name))
        if environment.printedJSON(view) { return }
        environment.io.print(environment.words.say("Removed group '{name}'; its habits stay.", ("name", view.group.name)))
    }
}
