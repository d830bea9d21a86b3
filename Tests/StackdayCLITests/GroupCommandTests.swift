import Foundation
import Testing
import StackDayTestSupport

/// Groups from the command line, walked as a person would: habits and their history, a routine
/// made of them, its figures in today, stats and show, a change of members from a day that keeps
/// the days before, a rule of one's own, a rollback and a removal; and refusals that write nothing.
@Suite("groups from the command line")
struct GroupCommandTests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func group(_ name: String, in output: String) throws -> [String: Any] {
        let groups = try #require(try json(output)["groups"] as? [[String: Any]])
        return try #require(groups.first { $0["name"] as? String == name })
    }

    /// Three habits: water and stretch since 10-01, read since 10-04; the week of 10-05 kept,
    /// read skipped on 10-05 and half done on 10-09.
    static func habits(_ cli: CLIFixture) throws {
        #expect(try cli.run(["habit", "add", "water", "--goal", "8", "--unit", "glasses", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["habit", "add", "stretch", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["habit", "add", "read", "--goal", "20", "--unit", "pages", "--start", "2026-10-04"]).status == 0)
        for day in 5...10 {
            #expect(try cli.run(["record", "water", "8", "--on", "2026-10-\(String(format: "%02d", day))"]).status == 0)
            #expect(try cli.run(["record", "stretch", "--on", "2026-10-\(String(format: "%02d", day))"]).status == 0)
        }
        for day in ["2026-10-06", "2026-10-07", "2026-10-08", "2026-10-10"] { #expect(try cli.run(["record", "read", "20", "--on", day]).status == 0) }
        #expect(try cli.run(["record", "read", "10", "--on", "2026-10-09"]).status == 0)
        #expect(try cli.run(["skip", "read", "--on", "2026-10-05"]).status == 0)
    }

    @Test("a morning routine judged by all, then by a weighted rule of one's own: today, stats, show, an edit from a day, a rollback, a removal")
    func journey() throws {
        let cli = try CLIFixture()
        try Self.habits(cli)
        let made = try cli.run(["group", "add", "morning", "--members", "water, stretch,read"])
        #expect(made.stdout == "Made group 'morning' of water, stretch, read, judged by all from 2026-10-01.\n", "\(made.stdout)\(made.stderr)")
        #expect(try cli.run(["group", "add", "cardio", "--members", "stretch,read", "--rule", "at-least", "--rule-params", #"{"count":2}"#]).status == 0)

        // 10-01…10-04 missed (nothing done), 10-05 done (read skipped), 10-06…10-08 done, 10-09
        // missed (read half done), 10-10 done; today (10-11) nothing yet.
        var morning = try Self.group("morning", in: cli.run(["--json", "today"]).stdout)
        #expect(morning["state"] as? String == "pending" && morning["done"] as? Int == 0 && morning["rule"] as? String == "all")
        #expect(morning["current"] as? Int == 1 && morning["longest"] as? Int == 4, "\(morning)")
        #expect(abs((morning["rate"] as? Double ?? 0) - 5.0 / 10) < 1e-6, "\(morning)")
        let members = try #require(morning["members"] as? [[String: Any]])
        #expect(members.map { $0["name"] as? String } == ["water", "stretch", "read"])
        #expect(try cli.run(["record", "water", "8"]).status == 0)
        #expect(try cli.run(["record", "stretch"]).status == 0)
        morning = try Self.group("morning", in: cli.run(["--json", "today"]).stdout)
        #expect(morning["done"] as? Int == 2 && abs((morning["progress"] as? Double ?? 0) - 2.0 / 3) < 1e-6, "\(morning)")
        let today = try cli.run(["today"]).stdout
        #expect(today.contains("Groups") && today.contains("2 of 3  pending"), "\(today)")
        #expect(try cli.run(["today", "--pending"]).stdout.contains("morning"))
        #expect(try cli.run(["record", "read", "20"]).status == 0)
        morning = try Self.group("morning", in: cli.run(["--json", "today"]).stdout)
        #expect(morning["state"] as? String == "completed" && morning["current"] as? Int == 2, "\(morning)")
        #expect(!(try cli.run(["today", "--pending"]).stdout.contains("morning")))

        // cardio: at least 2 of stretch and read: 10-05 (read skipped) and 10-09 (half a read) fall short.
        let cardio = try Self.group("cardio", in: cli.run(["--json", "stats"]).stdout)
        #expect(cardio["current"] as? Int == 2 && cardio["longest"] as? Int == 3, "\(cardio)")
        let stats = try cli.run(["stats"]).stdout
        #expect(stats.contains("GROUP") && stats.contains("morning"), "\(stats)")

        // From 10-09 the routine is water and read, judged by a weighted rule of the user's own:
        // 10-09 was half a read (0.5 · 0.5 + 0.5 = 0.75), so still missed; days before keep their figures.
        try cli.writePolicy("weighted", """
        return {
          description = "Done when the weights of the members done add up to 1.",
          params = { weights = {} },
          examples = {
            { members = {{ name = "water", status = "completed" }, { name = "read", status = "missed" }}, params = { weights = { water = 0.5, read = 0.5 } }, group = 0.5 },
          },
          group = function(members, params, day)
            local sum = 0
            for _, m in ipairs(members) do sum = sum + (params.weights[m.name] or 0) * m.progress end
            return sum
          end,
        }
        """)
        let before = try Self.group("morning", in: cli.run(["--json", "stats"]).stdout)
        let edited = try cli.run(["group", "edit", "morning", "--members", "water,read", "--rule", "weighted",
                                  "--rule-params", #"{"weights":{"water":0.5,"read":0.5}}"#, "--from", "2026-10-09"])
        #expect(edited.stdout == "Updated group 'morning': revision 2 judges days from 2026-10-09.\n", "\(edited.stdout)\(edited.stderr)")
        let after = try Self.group("morning", in: cli.run(["--json", "stats"]).stdout)
        #expect(after["longest"] as? Int == before["longest"] as? Int && after["current"] as? Int == 2, "\(before) \(after)")
        #expect((after["members"] as? [[String: Any]])?.map { $0["name"] as? String } == ["water", "read"])
        let shown = try Self.json(cli.run(["--json", "group", "show", "morning"]).stdout)
        let revisions = try #require(shown["revisions"] as? [[String: Any]])
        #expect(revisions.map { $0["from"] as? String } == ["2026-10-01", "2026-10-09"])
        #expect(((revisions[1]["rule"] as? [String: Any])?["sha256"] as? String)?.count == 64)
        #expect(try cli.run(["group", "show", "morning"]).stdout.contains("rules        revision 2 of 2, from 2026-10-09"))

        // Taken back: the three members and `all` judge from 10-09 again, as revision 3, and every
        // figure is what it was before the edit.
        let rolled = try cli.run(["group", "rollback", "morning"])
        #expect(rolled.stdout == "Took back the latest change of group 'morning': revision 3 judges days from 2026-10-09.\n", "\(rolled.stdout)\(rolled.stderr)")
        let back = try Self.group("morning", in: cli.run(["--json", "stats"]).stdout)
        for key in ["current", "longest", "rate", "score", "state"] { #expect("\(back[key] ?? "")" == "\(before[key] ?? "")", "\(key): \(before) \(back)") }
        let history = try #require(try Self.json(cli.run(["--json", "group", "show", "morning"]).stdout)["revisions"] as? [[String: Any]])
        #expect(history.count == 3 && history[2]["takesBack"] as? Int == 2, "\(history)")
        let list = try Self.json(cli.run(["--json", "group", "list"]).stdout)
        let listed = try #require((list["groups"] as? [[String: Any]])?.first { $0["name"] as? String == "morning" })
        #expect(listed["members"] as? [String] == ["water", "stretch", "read"] && (listed["rule"] as? [String: Any])?["name"] as? String == "all")

        #expect(try cli.run(["group", "rename", "morning", "dawn"]).stdout == "Renamed to 'dawn'.\n")
        #expect(try cli.run(["group", "remove", "dawn"]).stdout == "Removed group 'dawn'; its habits stay.\n")
        #expect(try cli.run(["group", "list"]).stdout.contains("cardio"))
        #expect(try cli.run(["habit", "list"]).stdout.contains("stretch"))
    }

    @Test("refusals name what is wrong, exit non-zero and write nothing", arguments: [
        (["group", "add", "x", "--members", "watr"], "no habit named 'watr' to be a member; did you mean 'water'?", Int32(1)),
        (["group", "add", "x"], "--members is required", 64),
        (["group", "add", "x", "--members", "water,water"], "a group lists each member once", 1),
        (["group", "add", "x", "--members", "water", "--rule", "goal"], "cannot serve as a group policy", 1),
        (["group", "add", "x", "--members", "water", "--rule", "at-least", "--rule-params", #"{"count":0}"#], "'count' must be at least 1", 1),
        (["group", "add", "x", "--members", "water", "--rule", "sum"], "sum needs parameter 'goal'", 1),
        (["group", "add", "x", "--members", "water", "--from", "2030-01-01"], "is in the future", 1),
        (["group", "add", "same", "--members", "water"], "a group named 'same' exists already", 1),
        (["group", "edit", "same"], "nothing to change", 64),
        (["group", "edit", "same", "--members", "water", "--from", "2026-09-01"], "cannot come before the one from", 1),
        (["group", "show", "nope"], "no group named 'nope'", 1),
        (["group", "rollback", "same"], "has one revision; there is nothing to roll back", 1),
        (["policy", "simulate", "any", "--group", "nope"], "no group named 'nope'", 1),
        (["policy", "simulate", "goal", "--group", "same"], "policy goal serves none of group, streak (it serves progress)", 64),
        (["policy", "simulate", "any", "--group", "same", "--role", "schedule"], "--role must be one of group, streak here, not schedule", 64),
        (["policy", "simulate", "any", "--group", "same", "--habit", "water"], "--habit and --group cannot be used together", 64),
        (["policy", "simulate", "at-least", "--group", "same", "--params", #"{"count":0}"#], "'count' must be at least 1", 1),
    ])
    func refusals(arguments: [String], message: String, status: Int32) throws {
        let cli = try CLIFixture()
        try Self.habits(cli)
        #expect(try cli.run(["group", "add", "same", "--members", "water,stretch"]).status == 0)
        let before = try cli.run(["--json", "group", "list"]).stdout
        let refused = try cli.run(arguments)
        #expect(refused.status == status, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains(message) && refused.stderr.split(separator: "\n").first?.hasPrefix("Error: ") == true, "\(refused.stderr)")
        #expect(try cli.run(["--json", "group", "list"]).stdout == before)
        let coded = try Self.json(cli.run(["--json"] + arguments).stderr)
        #expect(coded["error"] != nil)
    }

    @Test("a user's groups limit holds: the group past it is refused as over the limit, nothing is written, and one removed makes room")
    func groupsLimit() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["user", "add", "ana"]).status == 0)
        #expect(try cli.run(["user", "limits", "ana", "--set", "groups=1"]).status == 0)
        #expect(try cli.run(["--user", "ana", "habit", "add", "tea", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["--user", "ana", "group", "add", "one", "--members", "tea"]).status == 0)
        let over = try cli.run(["--user", "ana", "group", "add", "two", "--members", "tea"])
        #expect(over.status == 1 && over.stderr == "Error: over the limit of groups: a user may have at most 1; remove some first\n", "\(over.stderr)")
        let coded = try Self.json(cli.run(["--user", "ana", "--json", "group", "add", "two", "--members", "tea"]).stderr)
        #expect((coded["error"] as? [String: Any])?["code"] as? String == "quota_exceeded", "\(coded)")
        #expect(SQLiteShell.run(cli.db, "SELECT count(*) FROM habit_groups") == ["1"])
        #expect(try cli.run(["--user", "ana", "group", "remove", "one"]).status == 0)
        #expect(try cli.run(["--user", "ana", "group", "add", "two", "--members", "tea"]).status == 0)
    }

    @Test("group explain walks the group's streak fold a day at a line, marking where the streak began and what broke it; its JSON has each day's members")
    func explain() throws {
        let cli = try CLIFixture()
        try Self.habits(cli)
        #expect(try cli.run(["group", "add", "morning", "--members", "water,stretch,read"]).status == 0)
        let explained = try cli.run(["group", "explain", "morning", "--from", "2026-10-04", "--to", "2026-10-11"])
        #expect(explained.stdout == """
        morning: 2026-10-04 … 2026-10-11, current 1 day, longest 4 days
        2026-10-04  missed     streak 0 (longest 0)  missed: 0 of 3
        2026-10-05  completed  streak 1 (longest 1)  met: 2 of 3
        2026-10-06  completed  streak 2 (longest 2)  met: 3 of 3
        2026-10-07  completed  streak 3 (longest 3)  met: 3 of 3
        2026-10-08  completed  streak 4 (longest 4)  met: 3 of 3
        2026-10-09  missed     streak 0 (longest 4)  missed: 2 of 3; the streak of 4 ended  ✕ what broke the streak before
        2026-10-10  completed  streak 1 (longest 4)  met: 3 of 3  ← the current streak began
        2026-10-11  pending    streak 1 (longest 4)  pending: 0 of 3 so far; today does not break the streak

        """, "\(explained.stdout)\(explained.stderr)")
        let json = try Self.json(cli.run(["--json", "group", "explain", "morning", "--from", "2026-10-09", "--to", "2026-10-09"]).stdout)
        let step = try #require((json["steps"] as? [[String: Any]])?.first)
        let members = try #require(step["members"] as? [[String: Any]])
        #expect(members.map { $0["name"] as? String } == ["water", "stretch", "read"] && abs((members[2]["progress"] as? Double ?? 0) - 0.5) < 1e-9, "\(step)")
        #expect((step["before"] as? [String: Any])?["current"] as? Int == 4 && step["state"] as? String == "missed", "\(step)")
        let stats = try Self.group("morning", in: cli.run(["--json", "stats"]).stdout)
        #expect(json["current"] as? Int == stats["current"] as? Int && json["longest"] as? Int == stats["longest"] as? Int)
        // Its calendar: the same days, drawn; a partly done day (10-09's half a read) as such.
        let calendar = try cli.run(["group", "calendar", "morning", "--color", "never"])
        #expect(calendar.stdout.contains("Fri x ▒ ") && calendar.stdout.contains("morning: 2026-10-01 … 2026-10-11"), "\(calendar.stdout)\(calendar.stderr)")
        let days = try #require(try Self.json(cli.run(["--json", "group", "calendar", "morning", "--from", "2026-10-08", "--to", "2026-10-09"]).stdout)["days"] as? [[String: Any]])
        #expect(days.map { $0["state"] as? String } == ["completed", "missed"], "\(days)")
        // The weekly report lists the group after the habits, its days as the rule judged them.
        let report = try cli.run(["report", "week"]).stdout
        #expect(report.hasSuffix("\n\nGroups\nmorning | ● ● ● ● ○ ● ○ | met 5/7 days | streak 1 day (longest 4)\n"), "\(report)")
        #expect(try cli.run(["report", "week", "--lang", "ko"]).stdout.contains("그룹\nmorning | ● ● ● ● ○ ● ○ | 달성 5/7일 | 연속 1일 (최장 4일)"))
        // The HTML report: the group's row of today beside the habits', and the week's text with its line.
        let page = cli.folder.path("report.html")
        #expect(try cli.run(["report", "html", "--out", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#"<tr class="group" data-group="morning"><td class="name">morning</td>"#) && html.contains(#"<td class="done">0 of 3</td>"#), "\(html)")
        #expect(html.contains("Groups\nmorning | ● ● ● ● ○ ● ○"), "\(html)")
        let week = try #require(try Self.json(cli.run(["--json", "report", "week"]).stdout)["groups"] as? [[String: Any]])
        #expect(week.first?["metDays"] as? Int == 5 && week.first?["dueDays"] as? Int == 7 && week.first?["longest"] as? Int == 4, "\(week)")
        let backwards = try cli.run(["group", "explain", "morning", "--from", "2026-10-09", "--to", "2026-10-01"])
        #expect(backwards.status != 0 && backwards.stderr.hasPrefix("Error: "), "\(backwards.stderr)")
    }

    @Test("under a streak rule that keeps state (grace), a change taken back leaves every figure as it was")
    func exactUndo() throws {
        let cli = try CLIFixture()
        try Self.habits(cli)
        // Water missed on 10-07 (forgiven: one miss in 7 days) and 10-09 (a second: the streak breaks),
        // a change from 10-08 between them: taken back, the rule must still remember 10-07.
        for missed in ["2026-10-07", "2026-10-09"] { #expect(try cli.run(["undo", "water", "--on", missed]).status == 0) }
        #expect(try cli.run(["group", "add", "pair", "--members", "water,stretch", "--streak", "grace", "--streak-params", #"{"misses":1,"per":7}"#]).status == 0)
        let before = try cli.run(["--json", "stats"]).stdout
        #expect(try cli.run(["group", "edit", "pair", "--rule", "any", "--from", "2026-10-08"]).status == 0)
        #expect(try cli.run(["--json", "stats"]).stdout != before)
        #expect(try cli.run(["group", "rollback", "pair"]).status == 0)
        #expect(try cli.run(["--json", "stats"]).stdout == before)
    }

    @Test("group done records each open member up to its goal, none of a skipped, done or limited one, in one go; again it records nothing")
    func doneAll() throws {
        let cli = try CLIFixture()
        try Self.habits(cli)
        #expect(try cli.run(["habit", "add", "coffee", "--unit", "cups", "--progress", "at-most", "--progress-params", #"{"limit":2}"#, "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["record", "water", "3"]).status == 0)
        #expect(try cli.run(["skip", "read"]).status == 0)
        #expect(try cli.run(["group", "add", "morning", "--members", "water,stretch,read,coffee"]).status == 0)
        let done = try cli.run(["group", "done", "morning"])
        #expect(done.status == 0 && done.stdout == "morning  3 of 4  done\n", "\(done.stdout)\(done.stderr)")
        let log = try cli.run(["--json", "log", "water", "--from", "2026-10-11"]).stdout
        #expect(log.contains(#""amount":5"#) && log.contains(#""amount":3"#), "\(log)")
        #expect(try cli.run(["--json", "log", "coffee"]).stdout.contains(#""records":[]"#))
        #expect(try cli.run(["--json", "log", "read", "--from", "2026-10-11"]).stdout.contains(#""records":[]"#))
        let morning = try Self.group("morning", in: cli.run(["--json", "today"]).stdout)
        #expect(morning["state"] as? String == "completed", "\(morning)")
        let records = SQLiteShell.run(cli.db, "SELECT count(*) FROM completions")
        #expect(try cli.run(["group", "done", "morning"]).status == 0)
        #expect(SQLiteShell.run(cli.db, "SELECT count(*) FROM completions") == records)
    }

    @Test("export and import carry groups with every revision and pin: the same groups and figures in the new store; again, nothing new", arguments: ["json", "csv"])
    func exchange(format: String) throws {
        let cli = try CLIFixture()
        try Self.habits(cli)
        try cli.writePolicy("half", "return { group = function(members) return members[1].progress >= 0.5 and 1 or 0 end }\n")
        #expect(try cli.run(["group", "add", "morning", "--members", "water,stretch,read"]).status == 0)
        #expect(try cli.run(["group", "edit", "morning", "--members", "read,water", "--rule", "half", "--from", "2026-10-08"]).status == 0)
        #expect(try cli.run(["group", "add", "either", "--members", "stretch,read", "--rule", "any", "--streak", "grace"]).status == 0)
        let file = cli.folder.path("export.\(format)")
        #expect(try cli.run(["export", "--format", format, "--out", file]).status == 0)
        let other = try CLIFixture()
        let imported = try other.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        for arguments in [["--json", "group", "list"], ["--json", "stats"]] {
            #expect(try other.run(arguments).stdout == cli.run(arguments).stdout, "\(arguments)")
        }
        let again = try other.run(["--json", "import", file])
        #expect(again.status == 0 && again.stdout.contains(#""inserted":0"#), "\(again.stdout)\(again.stderr)")
        #expect(SQLiteShell.run(other.db, "SELECT count(*) FROM habit_groups") == ["2"])
    }

    @Test("in runner processes (--isolate-policies) and without the cache (--no-cache) groups are judged as in process: the same today, stats and show")
    func isolated() throws {
        let cli = try CLIFixture()
        try Self.habits(cli)
        try cli.writePolicy("half", """
        return {
          group = function(members)
            local done = 0
            for _, m in ipairs(members) do if m.status == "completed" or m.progress >= 0.5 then done = done + 1 end end
            return done / #members
          end,
        }
        """)
        #expect(try cli.run(["group", "add", "morning", "--members", "water,stretch,read"]).status == 0)
        #expect(try cli.run(["group", "add", "halves", "--members", "read,stretch", "--rule", "half", "--streak", "grace"]).status == 0)
        #expect(try cli.run(["group", "add", "either", "--members", "water,read", "--rule", "any", "--streak", "freeze"]).status == 0)
        for arguments in [["--json", "today"], ["--json", "stats"], ["--json", "group", "show", "halves"]] {
            let local = try cli.run(arguments), isolated = try cli.run(["--isolate-policies"] + arguments)
            let uncached = try cli.run(["--no-cache"] + arguments)
            #expect(local.status == 0 && isolated.status == 0, "\(local.stderr)\(isolated.stderr)")
            #expect(isolated.stdout == local.stdout && uncached.stdout == local.stdout, "\(arguments)")
        }
        let halves = try Self.group("halves", in: cli.run(["--isolate-policies", "--json", "stats"]).stdout)
        // 10-06…10-10 each have both members done or half done (10-09's read); 10-05's skipped read is not.
        #expect(halves["longest"] as? Int == 5 && halves["current"] as? Int == 5, "\(halves)")
        // Each group keeps its figures, and a record, a change of rule and the next day make the
        // kept figures stale: read through them, they stay those of a read without them.
        #expect(SQLiteShell.run(cli.db, "SELECT count(*) FROM group_cache") == ["3"])
        #expect(try cli.run(["record", "read", "5"]).status == 0)
        #expect(try cli.run(["group", "edit", "either", "--rule", "all", "--from", "2026-10-08"]).status == 0)
        for now in [cli.now, "2026-10-12T21:00:00+09:00"] {
            cli.now = now
            for arguments in [["--json", "today"], ["--json", "stats"], ["--json", "group", "show", "either"]] {
                let cached = try cli.run(arguments), again = try cli.run(arguments), uncached = try cli.run(["--no-cache"] + arguments)
                #expect(cached.status == 0 && cached.stdout == uncached.stdout && again.stdout == uncached.stdout, "\(now) \(arguments)")
            }
        }
        try cli.writePolicy("crash", "return { group = function() error('no group today') end }\n")
        #expect(try cli.run(["group", "add", "crashy", "--members", "water", "--rule", "crash"]).status == 0)
        let failed = try cli.run(["--isolate-policies", "today"])
        #expect(failed.status == 1 && failed.stdout.contains("no group today"), "\(failed.stdout)\(failed.stderr)")
    }

    @Test("a group rule that fails shows on its line and the command exits 1; the habits are shown as usual")
    func failingRule() throws {
        let cli = try CLIFixture()
        try Self.habits(cli)
        try cli.writePolicy("broken", "return { group = function(members) return members[1].progress end }\n")
        #expect(try cli.run(["group", "add", "odd", "--members", "water", "--rule", "broken"]).status == 0)
        try cli.writePolicy("other", "return { group = function() return 0 end }\n")
        #expect(try cli.run(["group", "add", "shaky", "--members", "stretch", "--rule", "other"]).status == 0)
        // The pinned script of `odd` is fine; a rule that errors on a day fails its group.
        try cli.writePolicy("crash", "return { group = function(members, params, day) if day.day == 9 then error('no ninth') end return 1 end }\n")
        #expect(try cli.run(["group", "add", "crashy", "--members", "water", "--rule", "crash"]).status == 0)
        let today = try cli.run(["today"])
        #expect(today.status == 1 && today.stdout.contains("water") && today.stdout.contains("crashy") && today.stdout.contains("no ninth"), "\(today.stdout)\(today.stderr)")
        #expect(today.stderr.contains("'crashy'"), "\(today.stderr)")
    }
}
