import Foundation
import StackDay
import StackDayApplication
import StackDayExchange
import StackDayServer

/// `stackday user …`: the users `stackday serve` answers for, each with a bearer token.
enum UserCommand {
    static let name = RequestField<String>.text("name", help: "The user's name (also --user for the command line).").argument("name", optional: false)
        .commandLineOnly.map { name in
            guard User.isValidName(name) else { throw RequestError("\(UseCaseError.invalidUserName(name: name))") }
            return name
        }
    static let rotate = RequestField<Bool>.flag("rotate", help: "A new address; the old one answers 404 from now on.").commandLineOnly
    static let setLimits = limitParts("set", help: "Give the user a limit of their own, as NAME=N (repeatable).")
    static let clearLimits = RequestField<[String]>.texts("clear", help: "Take the user's own limit of NAME away: the server's holds again (repeatable).",
                                                          valueName: "name", limit: 16).commandLineOnly.map { names in
        try names.map { name in
            guard let limit = UserLimit(rawValue: name) else {
                throw RequestError("\(name.debugDescription) is not a limit; the limits are \(UserLimit.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return limit
        }
    }

    /// A repeatable option of `NAME=N` limits (`--limit` of serve, `--set` here).
    static func limitParts(_ key: String, help: String) -> RequestField<UserLimits> {
        RequestField<[String]>.texts(key, help: help, valueName: "name=n", limit: 16).commandLineOnly.map { parts in
            do { return try UserLimits(parts: parts) } catch UseCaseError.invalidLimit(let text, let reason) {
                throw RequestError("\(text.debugDescription): \(reason)")
            }
        }
    }

    static var spec: CommandSpec {
        CommandSpec(name: "user", abstract: "Manage the users a server answers for and their tokens.", subcommands: [
            CommandSpec(name: "add", abstract: "Add a user; prints its new token, which is shown only this once.",
                        discussion: "The user's days follow --tz and --day-starts-at (default: this system's zone, midnight).",
                        run: add).taking([name.declaration]),
            CommandSpec(name: "token", abstract: "Give a user a new token (the old one stops working); prints it.", run: token).taking([name.declaration]),
            CommandSpec(name: "passwd", abstract: "Set a user's password, for signing in on the web by name and password.",
                        discussion: """
                        On a terminal the password is asked twice, not shown; otherwise the first line of standard input is it. \
                        8 to 1024 characters. Stored as an Argon2id hash; the token keeps working.
                        """,
                        run: passwd).taking([name.declaration]),
            CommandSpec(name: "feed", abstract: "Print the path of a user's calendar feed (/v1/feeds/TOKEN.ics), made on first asking.",
                        discussion: """
                        A calendar app subscribes to the server's address followed by this path: the user's habits, each on its \
                        due days a year ahead, fetched again every hour. --rotate gives the feed a new address; the old one stops working.
                        """,
                        run: feed).taking([name.declaration, rotate.declaration]),
            CommandSpec(name: "set", abstract: "Change a user's week start or language.",
                        discussion: """
                        --week-starts sun (the global option, given with this command) makes the user's weeks run Sunday to Saturday: \
                        calendars, the weekly report, and each habit counted by the week, which gets new rules from the first Sunday \
                        on (weeks already judged keep their figures).
                        """,
                        run: set).taking([name.declaration, SettingsRequest.language.declaration]),
            CommandSpec(name: "limits", abstract: "Show a user's limits, or give the user limits of their own.",
                        discussion: """
                        Each limit is what the user may hold: scripts, script-bytes (installed scripts and their bytes), habits, \
                        webhooks, devices, pairing-codes (open ones), records-per-day (records of one habit on one day), \
                        sync-page (changes in one sync answer). A limit \
                        of the user's own holds over the server's (serve --limit), which holds over the standard one. Going over \
                        one stores nothing and answers quota_exceeded.
                        """,
                        run: limits).taking([name.declaration, setLimits.declaration, clearLimits.declaration]),
            CommandSpec(name: "list", abstract: "List users: name, time zone, day start, created.", run: list),
            CommandSpec(name: "remove", abstract: "Remove a user with all of its habits, records, skips and scripts (asks first; --yes for scripts).",
                        run: remove).taking([name.declaration, Confirmation.option.declaration]),
        ])
    }

    static func set(_ invocation: Invocation) throws {
        let name = try validName(invocation)
        let language = try invocation[SettingsRequest.language]
        guard invocation.globals.weekStarts != nil || language != nil else { throw invocation.usage("nothing to change: give --week-starts or --language") }
        // `--week-starts` is the global option, checked there.
        let environment = try CLIEnvironment(invocation)
        let weekStart = invocation.globals.weekStarts.flatMap(WeekStart.init(rawValue:))
        let users = try users(environment)
        let user = try users.user(named: name)
        let changed = try users.configure(name, timeZone: user.timeZone, dayStart: user.dayStart, language: language, weekStart: weekStart)
        if environment.printedJSON(UserView(changed)) { return }
        environment.io.print(environment.words.say("Updated '{name}': weeks start on {first}.", ("name", changed.name),
                                                   ("first", environment.words[changed.weekStart == .sunday ? "Sunday" : "Monday"])))
    }

    static func limits(_ invocation: Invocation) throws {
        let name = try validName(invocation)
        let environment = try CLIEnvironment(invocation)
        let set = try invocation[setLimits]
        let cleared = try invocation[clearLimits] ?? []
        let users = try users(environment)
        let user = set == nil && cleared.isEmpty ? try users.user(named: name) : try users.setLimits(of: name, set: set ?? UserLimits(), cleared: cleared)
        let rows = UserLimit.allCases.map { limit in (limit, user.limits[limit], user.limits.set[limit] != nil) }
        if environment.json {
            return environment.printJSON(.object([
                "user": .string(user.name),
                "limits": .array(rows.map { limit, value, own in
                    .object(["name": .string(limit.rawValue), "limit": .number(Double(value)), "own": .bool(own)])
                }),
            ]))
        }
        let words = environment.words
        let table = [[words["LIMIT"], words["VALUE"], words["FROM"]]] + rows.map { limit, value, own in
            [limit.rawValue, "\(value)", words[own ? "user" : "standard (serve --limit may change it)"]]
        }
        Format.table(table).forEach(environment.io.print)
    }

    static func users(_ environment: CLIEnvironment) throws -> ManageUsers {
        ManageUsers(context: try environment.context())
    }

    static func validName(_ invocation: Invocation) throws -> String {
        try invocation.required(name)
    }

    static func add(_ invocation: Invocation) throws {
        let name = try validName(invocation)
        let environment = try CLIEnvironment(invocation)
        // --tz as typed, else the zone every command defaults to (CLIEnvironment's).
        let zone = invocation.globals.timeZone ?? environment.boundary.timeZone.identifier
        let (user, token) = try users(environment).add(name, timeZone: zone, dayStart: environment.boundary.dayStart)
        if environment.json {
            return environment.printJSON(.object(["user": UserView(user).json, "token": .string(token.text)]))
        }
        environment.io.error("Added user '\(user.name)' (\(user.timeZone), days start at \(user.dayStart)); its token, shown only now:")
        environment.io.print(token.text)
    }

    static func token(_ invocation: Invocation) throws {
        let name = try validName(invocation)
        let environment = try CLIEnvironment(invocation)
        let token = try users(environment).replaceToken(of: name)
        if environment.json { return environment.printJSON(.object(["user": .string(name), "token": .string(token.text)])) }
        environment.io.error("New token for '\(name)'; the old one no longer works:")
        environment.io.print(token.text)
    }

    static func feed(_ invocation: Invocation) throws {
        let name = try validName(invocation)
        let environment = try CLIEnvironment(invocation)
        let path = "/v1/feeds/\(try users(environment).feedToken(of: name, rotate: try invocation[rotate] ?? false)).ics"
        if environment.json { return environment.printJSON(.object(["user": .string(name), "path": .string(path)])) }
        environment.io.print(path)
    }

    static func passwd(_ invocation: Invocation) throws {
        let name = try validName(invocation)
        let environment = try CLIEnvironment(invocation)
        let manage = try users(environment)
        _ = try manage.user(named: name)
        guard let password = try SecretInput.read(io: environment.io, prompt: "New password for '\(name)': ", confirm: "The same again: ") else {
            throw CommandFailure("no password was given (standard input was empty); nothing was changed")
        }
        do {
            try manage.setPassword(of: name, to: password, old: nil, verifyOld: false, hasher: try Argon2idHasher())
        } catch UseCaseError.invalidPassword(let reason) {
            throw invocation.usage("invalid password: \(reason)")
        }
        if environment.json { return environment.printJSON(.object(["user": .string(name), "password": .bool(true)])) }
        environment.io.print("Set the password of '\(name)'.")
    }

    static func list(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let all = try users(environment).list()
        if environment.json { return environment.printJSON(.object(["users": .array(all.map { UserView($0).json })])) }
        let words = environment.words
        if all.isEmpty {
            return environment.io.print(words.say("No users yet. Add one with: stackday user add NAME"))
        }
        let rows = [["NAME", "TIME ZONE", "DAY STARTS", "CREATED"].map { words[$0] }] + all.map {
            [$0.name, $0.timeZone, $0.dayStart.description, InstantText.format($0.createdAt)]
        }
        Format.table(rows).forEach(environment.io.print)
    }

    static func remove(_ invocation: Invocation) throws {
        let name = try validName(invocation)
        let environment = try CLIEnvironment(invocation)
        _ = try users(environment).user(named: name)
        try Confirmation.require(invocation, io: environment.io, question: "Remove user '\(name)' with all of its habits, records and scripts?",
                                 refusal: "user remove deletes '\(name)' with all of its data")
        let removed = try users(environment).remove(name)
        environment.io.print(environment.words.say("Removed user '{name}' with {habits} and {records}.", ("name", name),
                                                   ("habits", "\(removed.habits) habit\(removed.habits == 1 ? "" : "s")"),
                                                   ("records", "\(removed.completions) record\(removed.completions == 1 ? "" : "s")"),
                                                   ("habitCount", "\(removed.habits)"), ("recordCount", "\(removed.completions)")))
    }
}
