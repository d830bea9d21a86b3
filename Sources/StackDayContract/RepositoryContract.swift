import Foundation
import StackDay

/// The repository contract, written once: every `HabitStore` implementation runs these checks unchanged.
public enum RepositoryContract {
    public static let checks: [ContractCheck] = habitChecks + revisionChecks + completionChecks + skipChecks + storeChecks + userChecks + groupChecks

    static let start = LocalDay(uncheckedISO: "2026-10-01")
    static let instant = Date(timeIntervalSince1970: 1_790_000_000)

    static func habit(_ name: String, id: UUID = UUID(), goal: Double = 1, unit: String = "") throws -> Habit {
        try Habit(
            id: id, name: name, startedOn: start, createdAt: instant, goal: goal, unit: unit,
            schedule: PolicyChoice(name: "weekly", parameters: ["days": .array([.string("mon"), .string("fri")])]),
            progress: .goal, streak: PolicyChoice(name: "grace", parameters: ["misses": .number(1), "per": .number(7)])
        )
    }

    static func completion(_ habitID: UUID, day offset: Int, amount: Double = 1, second: TimeInterval = 0) throws -> Completion {
        try Completion(habitID: habitID, completedOn: start.adding(days: offset), recordedAt: instant + second, amount: amount)
    }

    static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ContractFailure(message()) }
    }

    static func expectError<T>(_ expected: RepositoryError, _ body: () throws -> T) throws {
        do {
            _ = try body()
        } catch let error as RepositoryError {
            try expect(error == expected, "expected \(expected), got \(error)")
            return
        } catch {
            throw ContractFailure("expected \(expected), got \(error)")
        }
        throw ContractFailure("expected \(expected), but nothing was thrown")
    }

    static let habitChecks: [ContractCheck] = [
        ContractCheck("habit insert then fetch returns every field") { tx in
            let made = try habit("Read", goal: 2.5, unit: "km")
            let habit = try made.with(position: 3, colorTag: .some(.teal), step: .some(0.25), question: .some("Did you read, 책?"),
                                      details: .some("Twenty pages,\na day"), updatedAt: made.updatedAt)
            try tx.habits.insert(habit)
            try expect(try tx.habits.habit(id: habit.id) == habit, "fetched habit differs from the inserted one")
            // Taking the colour and step away is stored too.
            let plain = try habit.with(position: 1, colorTag: .some(nil), step: .some(nil), question: .some(nil), details: .some(nil), updatedAt: habit.updatedAt)
            try tx.habits.update(plain)
            try expect(try tx.habits.habit(id: habit.id) == plain, "an update did not store position, colour, step, question and description")
        },
        ContractCheck("habit insert with an existing id fails") { tx in
            let habit = try habit("Read")
            try tx.habits.insert(habit)
            try expectError(.duplicateID(entity: "habit", id: habit.id)) { try tx.habits.insert(try Self.habit("Other", id: habit.id)) }
        },
        ContractCheck("habit update of a missing id fails") { tx in
            let habit = try habit("Read")
            try expectError(.notFound(entity: "habit", id: habit.id)) { try tx.habits.update(habit) }
            try expect(try tx.habits.all().isEmpty, "update inserted a habit")
        },
        ContractCheck("habit update replaces the stored habit") { tx in
            let habit = try habit("Read")
            try tx.habits.insert(habit)
            let archived = try habit.with(archivedOn: .some(start.adding(days: 3)), updatedAt: instant + 60)
            try tx.habits.update(archived)
            try expect(try tx.habits.habit(id: habit.id) == archived, "update did not store the new fields")
        },
        ContractCheck("habit delete removes it and fails when missing") { tx in
            let habit = try habit("Read")
            try tx.habits.insert(habit)
            try tx.habits.delete(id: habit.id)
            try expect(try tx.habits.habit(id: habit.id) == nil, "deleted habit still fetched")
            try expectError(.notFound(entity: "habit", id: habit.id)) { try tx.habits.delete(id: habit.id) }
        },
        ContractCheck("habits list by place, then creation, then id: one order on every replica") { tx in
            let names = ["Zebra", "apple", "Mango", "banana"]
            for (place, name) in names.enumerated() { try tx.habits.insert(try habit(name).with(position: place + 1, updatedAt: instant)) }
            // Two at one place made at one instant (two replicas placed them at once): by id.
            let low = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, high = UUID(uuidString: "FFFFFFFF-0000-4000-8000-000000000001")!
            try tx.habits.insert(try habit("later", id: high).with(position: 9, updatedAt: instant))
            try tx.habits.insert(try habit("earlier", id: low).with(position: 9, updatedAt: instant))
            try expect(try tx.habits.all().map(\.name) == names + ["earlier", "later"], "order is not by place, then id")
        },
        ContractCheck("habit lookup by name ignores case") { tx in
            try tx.habits.insert(try habit("Morning Run"))
            try expect(try tx.habits.habit(named: "morning run")?.name == "Morning Run", "case-insensitive lookup failed")
            try expect(try tx.habits.habit(named: "Evening Run") == nil, "found a habit that does not exist")
        },
    ]

    static let script = PolicyScript(name: "grace", source: "return { streak = function(s) return s end }", installedAt: instant)

    static let revisionChecks: [ContractCheck] = [
        ContractCheck("revisions are appended in order and come back with their pins") { tx in
            try tx.scripts.insert(script)
            let habit = try habit("Read")
            try tx.habits.insert(habit)
            let revised = try habit.appending(try habit.latest.with(goal: 2, streak: habit.streak.pinned(to: script.sha256)), from: start.adding(days: 5), at: instant + 60)
                .appending(habit.latest, from: start.adding(days: 9), at: instant + 120)
            try tx.habits.update(revised)
            let fetched = try tx.habits.habit(id: habit.id)
            try expect(fetched == revised, "revisions changed on the way through: \(String(describing: fetched?.revisions))")
            try expect(try tx.habits.all().first?.revisions == revised.revisions, "all() lost revisions")
            try expect(fetched?.revision(on: start.adding(days: 6)).streak.sha256 == script.sha256, "the pin did not come back")
        },
        ContractCheck("a stored revision is never rewritten or dropped") { tx in
            let habit = try habit("Read")
            try tx.habits.insert(habit)
            let rewritten = try Habit(id: habit.id, name: habit.name, startedOn: habit.startedOn, createdAt: habit.createdAt, goal: 3)
            try expectError(.revisionRewritten(habitID: habit.id, number: 1)) { try tx.habits.update(rewritten) }
            let two = try habit.appending(habit.latest.with(goal: 2), from: start.adding(days: 1), at: instant)
            try tx.habits.update(two)
            try expectError(.revisionRewritten(habitID: habit.id, number: 2)) { try tx.habits.update(habit) }
            try expect(try tx.habits.habit(id: habit.id) == two, "a refused update changed the habit")
        },
        ContractCheck("an unpinned choice may gain its pin, and only that") { tx in
            try tx.scripts.insert(script)
            let habit = try habit("Read")
            try tx.habits.insert(habit)
            let first = try habit.latest.with(streak: habit.streak.pinned(to: script.sha256))
            let pinned = try Habit(id: habit.id, name: habit.name, startedOn: habit.startedOn, createdAt: habit.createdAt, revisions: [first])
            try tx.habits.update(pinned)
            try expect(try tx.habits.habit(id: habit.id)?.streak.sha256 == script.sha256, "the pin was not stored")
            let other = PolicyScript(name: "grace", source: "return {}", installedAt: instant)
            try tx.scripts.insert(other)
            let repinned = try Habit(id: habit.id, name: habit.name, startedOn: habit.startedOn, createdAt: habit.createdAt,
                                     revisions: [try first.with(streak: first.streak.pinned(to: other.sha256))])
            try expectError(.revisionRewritten(habitID: habit.id, number: 1)) { try tx.habits.update(repinned) }
        },
        ContractCheck("scripts are kept by hash: a second insert keeps the first, listed oldest first") { tx in
            let later = PolicyScript(name: "strict", source: "return {}", installedAt: instant + 5)
            try tx.scripts.insert(later)
            try tx.scripts.insert(script)
            try tx.scripts.insert(PolicyScript(name: "renamed", source: script.source, installedAt: instant + 10))
            try expect(try tx.scripts.script(sha256: script.sha256) == script, "the stored script changed")
            let all = try tx.scripts.all()
            try expect(all == [script, later], "scripts listed \(all.map(\.name))")
            try expect(try tx.scripts.script(sha256: String(repeating: "0", count: 64)) == nil, "an unknown hash found a script")
        },
    ]

    static let completionChecks: [ContractCheck] = [
        ContractCheck("completion insert then fetch by id") { tx in
            let habit = try habit("Water", goal: 8, unit: "cups")
            try tx.habits.insert(habit)
            let completion = try completion(habit.id, day: 2, amount: 0.1)
            try tx.completions.insert(completion)
            try expect(try tx.completions.completion(id: completion.id) == completion, "fetched completion differs")
        },
        ContractCheck("a note comes back as written, by one insert, an update and the bulk path; none stays none") { tx in
            let habit = try habit("Run", goal: 5, unit: "km")
            try tx.habits.insert(habit)
            // The characters COPY's text format and CSV escape, a line break, and Hangul.
            let notes = ["rain, \"heavy\"\nsecond line", "tab\there \\N back\\slash\r", "비 오는 날 5 km"]
            let single = try Completion(habitID: habit.id, completedOn: start, recordedAt: instant, amount: 1, note: notes[0])
            try tx.completions.insert(single)
            try expect(try tx.completions.completion(id: single.id)?.note == notes[0], "one insert changed the note")
            let changed = try Completion(id: single.id, habitID: habit.id, completedOn: start, recordedAt: instant, amount: 1, note: notes[2])
            try tx.completions.update(changed)
            try expect(try tx.completions.completion(id: single.id)?.note == notes[2], "update did not replace the note")
            let slice = try (1...4).map { offset in
                try Completion(habitID: habit.id, completedOn: start.adding(days: offset), recordedAt: instant, amount: 1,
                               note: offset == 4 ? nil : notes[offset - 1])
            }
            _ = try tx.completions.insertIfAbsent(slice[...])
            let stored = try tx.completions.completions(habitID: habit.id).dropFirst().map(\.note)
            try expect(stored == [notes[0], notes[1], notes[2], nil], "bulk notes came back as \(stored)")
        },
        ContractCheck("completion insert with an existing id fails") { tx in
            let habit = try habit("Water")
            try tx.habits.insert(habit)
            let completion = try completion(habit.id, day: 0)
            try tx.completions.insert(completion)
            try expectError(.duplicateID(entity: "completion", id: completion.id)) { try tx.completions.insert(completion) }
        },
        ContractCheck("completion update of a missing id fails, of an existing one replaces") { tx in
            let habit = try habit("Water", goal: 8, unit: "cups")
            try tx.habits.insert(habit)
            let completion = try completion(habit.id, day: 0, amount: 3)
            try expectError(.notFound(entity: "completion", id: completion.id)) { try tx.completions.update(completion) }
            try tx.completions.insert(completion)
            let changed = try Completion(id: completion.id, habitID: habit.id, completedOn: start.adding(days: 4), recordedAt: instant, amount: 5)
            try tx.completions.update(changed)
            try expect(try tx.completions.completion(id: completion.id) == changed, "update did not replace")
            try expect(try tx.completions.completions(habitID: habit.id).count == 1, "update duplicated the row")
        },
        ContractCheck("several completions on one day are kept apart by id") { tx in
            let habit = try habit("Water", goal: 8, unit: "cups")
            try tx.habits.insert(habit)
            try tx.completions.insert(try completion(habit.id, day: 1, amount: 3, second: 0))
            try tx.completions.insert(try completion(habit.id, day: 1, amount: 5, second: 60))
            let amounts = try tx.completions.completions(habitID: habit.id).map(\.amount)
            try expect(amounts == [3, 5], "expected [3, 5] in recording order, got \(amounts)")
        },
        ContractCheck("completions list in day order and filter by range, both ends included") { tx in
            let habit = try habit("Water", goal: 8, unit: "cups")
            let other = try Self.habit("Other")
            try tx.habits.insert(habit)
            try tx.habits.insert(other)
            for offset in [5, 0, 3, 9, 1] { try tx.completions.insert(try completion(habit.id, day: offset)) }
            try tx.completions.insert(try completion(other.id, day: 3))
            let all = try tx.completions.completions(habitID: habit.id).map { start.days(to: $0.completedOn) }
            try expect(all == [0, 1, 3, 5, 9], "expected day order, got \(all)")
            let range = LocalDayRange(start.adding(days: 1), start.adding(days: 5))
            let inRange = try tx.completions.completions(habitID: habit.id, in: range).map { start.days(to: $0.completedOn) }
            try expect(inRange == [1, 3, 5], "expected [1, 3, 5] in range, got \(inRange)")
        },
        ContractCheck("completion amounts come back exactly") { tx in
            let habit = try habit("Run", goal: 5, unit: "km")
            try tx.habits.insert(habit)
            for amount in [0.1, 0.2, 2.5, 0.001, 123456.789] {
                try tx.completions.insert(try completion(habit.id, day: 0, amount: amount, second: amount))
            }
            let amounts = try tx.completions.completions(habitID: habit.id).map(\.amount).sorted()
            try expect(amounts == [0.001, 0.1, 0.2, 2.5, 123456.789], "amounts changed: \(amounts)")
        },
        ContractCheck("daily totals add up each day's amounts exactly, in day order, within the range") { tx in
            let habit = try habit("Water", goal: 8, unit: "cups")
            try tx.habits.insert(habit)
            for (offset, amount) in [(3, 0.1), (1, 2.0), (3, 0.2), (1, 3.5), (9, 1.0)] {
                try tx.completions.insert(try completion(habit.id, day: offset, amount: amount, second: amount))
            }
            let totals = try tx.completions.dailyTotals(habitID: habit.id, in: LocalDayRange(start, start.adding(days: 5)))
            try expect(totals.map(\.day) == [start.adding(days: 1), start.adding(days: 3)], "days: \(totals.map(\.day))")
            try expect(totals.map(\.thousandths) == [5500, 300], "totals: \(totals.map(\.thousandths))")
        },
        ContractCheck("what a day holds: its records counted and their amounts summed exactly; another habit's and another day's left out") { tx in
            let tea = try habit("Tea", goal: 2, unit: "cups")
            let habit = try habit("Water", goal: 8, unit: "cups")
            try tx.habits.insert(habit)
            try tx.habits.insert(tea)
            for (offset, amount) in [(3, 0.1), (1, 2.0), (3, 0.2), (3, 1.5)] {
                try tx.completions.insert(try completion(habit.id, day: offset, amount: amount, second: amount))
            }
            try tx.completions.insert(try completion(tea.id, day: 3, amount: 4))
            let held = try tx.completions.held(habitID: habit.id, on: start.adding(days: 3))
            try expect(held.records == 3 && held.thousandths == 1800, "day 3 holds \(held)")
            let empty = try tx.completions.held(habitID: habit.id, on: start.adding(days: 2))
            try expect(empty.records == 0 && empty.thousandths == 0, "an empty day holds \(empty)")
        },
        ContractCheck("insertIfAbsent inserts once and never changes a stored completion") { tx in
            let habit = try habit("Water", goal: 8, unit: "cups")
            try tx.habits.insert(habit)
            let first = try completion(habit.id, day: 0, amount: 3)
            try expect(try tx.completions.insertIfAbsent(first), "first insertIfAbsent did not insert")
            let changed = try Completion(id: first.id, habitID: habit.id, completedOn: start, recordedAt: instant, amount: 7)
            try expect(try !tx.completions.insertIfAbsent(changed), "second insertIfAbsent inserted")
            try expect(try tx.completions.completion(id: first.id)?.amount == 3, "insertIfAbsent changed a stored completion")
        },
        ContractCheck("insertIfAbsent of many: one answer each, in order; an id twice in one slice inserted once") { tx in
            let habit = try habit("Water", goal: 8, unit: "cups")
            try tx.habits.insert(habit)
            let stored = try completion(habit.id, day: 0, amount: 3)
            try tx.completions.insert(stored)
            let fresh = try completion(habit.id, day: 1, amount: 2.5)
            let again = try Completion(id: fresh.id, habitID: habit.id, completedOn: start.adding(days: 2), recordedAt: instant, amount: 9)
            let answers = try tx.completions.insertIfAbsent([stored, fresh, again][...])
            try expect(answers == [false, true, false], "answers \(answers)")
            let kept = try tx.completions.completions(habitID: habit.id)
            try expect(kept.map(\.amount) == [3, 2.5] && kept.map(\.completedOn) == [start, start.adding(days: 1)], "stored \(kept)")
            try expect(try tx.completions.insertIfAbsent([][...]).isEmpty, "an empty slice answered")
        },
        ContractCheck("insertIfAbsent of a slice of new ids inserts them all, exactly as given") { tx in
            let habit = try habit("Water", goal: 8, unit: "cups")
            try tx.habits.insert(habit)
            let slice = try (0..<50).map { try completion(habit.id, day: $0 % 7, amount: Double($0 % 5) + 0.25, second: Double($0) * 0.125) }
            try expect(try tx.completions.insertIfAbsent(slice[...]) == Array(repeating: true, count: 50), "not every new completion was inserted")
            let stored = try tx.completions.completions(habitID: habit.id)
            try expect(Set(stored.map(\.id)) == Set(slice.map(\.id)), "stored ids differ")
            let expected = Dictionary(uniqueKeysWithValues: slice.map { ($0.id, $0) })
            try expect(stored.allSatisfy { expected[$0.id] == $0 }, "a stored completion differs from the one given")
            try expect(try tx.completions.insertIfAbsent(slice[10..<20]) == Array(repeating: false, count: 10), "a stored slice was inserted again")
        },
        ContractCheck("completion delete and deleteAll") { tx in
            let habit = try habit("Water")
            try tx.habits.insert(habit)
            let first = try completion(habit.id, day: 0)
            try tx.completions.insert(first)
            try tx.completions.insert(try completion(habit.id, day: 1))
            try tx.completions.insert(try completion(habit.id, day: 2))
            try tx.completions.delete(id: first.id)
            try expectError(.notFound(entity: "completion", id: first.id)) { try tx.completions.delete(id: first.id) }
            let removed = try tx.completions.deleteAll(habitID: habit.id)
            try expect(removed == 2, "deleteAll reported \(removed), expected 2")
            try expect(try tx.completions.completions(habitID: habit.id).isEmpty, "completions left after deleteAll")
        },
    ]

    static let skipChecks: [ContractCheck] = [
        ContractCheck("skip insert, duplicate id, fetch, range and delete") { tx in
            let habit = try habit("Gym")
            try tx.habits.insert(habit)
            let skips = (0..<5).map { Skip(habitID: habit.id, day: start.adding(days: 4 - $0), recordedAt: instant) }
            for skip in skips { try tx.skips.insert(skip) }
            try expectError(.duplicateID(entity: "skip", id: skips[0].id)) { try tx.skips.insert(skips[0]) }
            try expect(try tx.skips.skip(id: skips[1].id) == skips[1], "fetched skip differs")
            let days = try tx.skips.skips(habitID: habit.id).map { start.days(to: $0.day) }
            try expect(days == [0, 1, 2, 3, 4], "skips not in day order: \(days)")
            let ranged = try tx.skips.skips(habitID: habit.id, in: LocalDayRange(start.adding(days: 1), start.adding(days: 2)))
            try expect(ranged.count == 2, "range returned \(ranged.count) skips, expected 2")
            try tx.skips.delete(id: skips[0].id)
            try expectError(.notFound(entity: "skip", id: skips[0].id)) { try tx.skips.delete(id: skips[0].id) }
            let moved = Skip(id: skips[1].id, habitID: habit.id, day: start.adding(days: 10), recordedAt: instant)
            try tx.skips.update(moved)
            try expect(try tx.skips.skip(id: moved.id)?.day == moved.day, "skip update did not move the day")
            try expect(try tx.skips.deleteAll(habitID: habit.id) == 4, "deleteAll count wrong")
        },
        ContractCheck("skip update of a missing id fails") { tx in
            let habit = try habit("Gym")
            try tx.habits.insert(habit)
            let skip = Skip(habitID: habit.id, day: start, recordedAt: instant)
            try expectError(.notFound(entity: "skip", id: skip.id)) { try tx.skips.update(skip) }
        },
    ]

    static let storeChecks: [ContractCheck] = [
        ContractCheck(store: "a write that throws leaves nothing behind") { store in
            let kept = try habit("Kept")
            try store.write { tx in try tx.habits.insert(kept) }
            struct Abort: Error {}
            do {
                try store.write { tx in
                    try tx.habits.insert(try habit("Lost"))
                    try tx.completions.insert(try completion(kept.id, day: 0))
                    try tx.habits.delete(id: kept.id)
                    throw Abort()
                }
            } catch is Abort {}
            try store.read { tx in
                let names = try tx.habits.all().map(\.name)
                try expect(names == ["Kept"], "rolled-back write left \(names)")
                try expect(try tx.completions.completions(habitID: kept.id).isEmpty, "rolled-back completion still stored")
            }
        },
        ContractCheck("a read sees what earlier writes committed") { tx in
            let habit = try habit("Seen")
            try tx.habits.insert(habit)
            try expect(try tx.habits.habit(named: "seen")?.id == habit.id, "a habit inserted in this transaction is not visible in it")
        },
        ContractCheck("policy names and parameters come back as stored") { tx in
            let habit = try habit("Policies")
            try tx.habits.insert(habit)
            let fetched = try tx.habits.habit(id: habit.id)
            try expect(fetched?.schedule == habit.schedule && fetched?.streak == habit.streak, "policies changed on the way through")
        },
    ]
}

extension RepositoryContract {
    /// A user with a name of its own (user tables are shared by every owner of a store).
    static func user(_ prefix: String, zone: String = "Asia/Seoul", minutes: Int = 0) throws -> User {
        try User(name: "\(prefix)-\(UUID().uuidString.prefix(8))", tokenSHA256: UserToken().sha256, timeZone: zone,
                 dayStart: DayStart(hour: minutes / 60, minute: minutes % 60), createdAt: instant)
    }

    static let userChecks: [ContractCheck] = [
        ContractCheck("users: insert, find by name and by token hash, a taken name refused, update, delete") { tx in
            let ana = try user("ana", minutes: 270)
            try tx.users.insert(ana)
            try expect(try tx.users.user(named: ana.name) == ana, "user by name differs")
            try expect(try tx.users.user(tokenSHA256: ana.tokenSHA256) == ana, "user by token hash differs")
            try expect(try tx.users.user(tokenSHA256: UserToken().sha256) == nil, "an unknown token found a user")
            do {
                try tx.users.insert(try User(name: ana.name, tokenSHA256: UserToken().sha256, timeZone: "UTC", dayStart: .midnight, createdAt: instant))
                throw ContractFailure("a taken user name was inserted")
            } catch UseCaseError.userExists(let name) {
                try expect(name == ana.name, "userExists names \(name)")
            }
            var changed = ana
            changed.tokenSHA256 = UserToken().sha256
            changed.timeZone = "-03:30"
            changed.weekStart = .sunday
            try tx.users.update(changed)
            try expect(try tx.users.user(named: ana.name) == changed, "update did not store every field")
            try expect(try tx.users.user(tokenSHA256: ana.tokenSHA256) == nil, "the replaced token still finds the user")
            try expect(try tx.users.all().contains(changed), "all() lacks the user")
            try expect(try tx.users.delete(named: ana.name), "delete answered false")
            try expect(try !tx.users.delete(named: ana.name), "a second delete answered true")
            try expect(try tx.users.user(named: ana.name) == nil, "a deleted user is still found")
            do {
                try tx.users.update(changed)
                throw ContractFailure("an update of a missing user succeeded")
            } catch UseCaseError.userNotFound {}
        },
        ContractCheck("users: a chosen language is stored; sessions are kept by the id's hash, ended one by one or all of a user's, and go with their user") { tx in
            var ana = try user("ana")
            ana.language = "ko"
            try tx.users.insert(ana)
            try expect(try tx.users.user(named: ana.name)?.language == "ko", "the language was not stored")
            ana.language = nil
            try tx.users.update(ana)
            try expect(try tx.users.user(named: ana.name)?.language == nil, "the language was not cleared")
            func session(_ user: String) -> UserSession {
                UserSession(idSHA256: UserToken().sha256, user: user, csrfToken: UserToken().text, createdAt: instant,
                            expiresAt: instant.addingTimeInterval(86_400))
            }
            let (first, second, third) = (session(ana.name), session(ana.name), session(ana.name))
            for one in [first, second, third] { try tx.users.insertSession(one) }
            try expect(try tx.users.session(idSHA256: first.idSHA256) == first, "the session read back differs")
            try expect(try tx.users.session(idSHA256: UserToken().sha256) == nil, "an unknown id found a session")
            try expect(try tx.users.deleteSession(idSHA256: first.idSHA256), "ending a session answered false")
            try expect(try !tx.users.deleteSession(idSHA256: first.idSHA256), "ending it again answered true")
            try expect(try tx.users.session(idSHA256: second.idSHA256) == second, "ending one session ended another")
            try expect(try tx.users.deleteSessions(of: ana.name) == 2, "ending a user's sessions did not end both")
            try expect(try tx.users.session(idSHA256: third.idSHA256) == nil, "a session outlived its user's sessions")
            do {
                try tx.users.insertSession(session("nobody-\(UUID().uuidString.prefix(8))"))
                throw ContractFailure("a session of no user was kept")
            } catch UseCaseError.userNotFound {}
            let kept = session(ana.name)
            try tx.users.insertSession(kept)
            _ = try tx.users.delete(named: ana.name)
            try expect(try tx.users.session(idSHA256: kept.idSHA256) == nil, "a removed user's session is still found")
        },
        ContractCheck("users: a calendar feed's token finds its user until it is replaced") { tx in
            var ana = try user("ana")
            let first = "fd_" + String(repeating: "a", count: 64), second = "fd_" + String(repeating: "b", count: 64)
            ana.feedToken = first
            try tx.users.insert(ana)
            try expect(try tx.users.user(feedToken: first) == ana, "the user by feed token differs")
            ana.feedToken = second
            try tx.users.update(ana)
            try expect(try tx.users.user(feedToken: first) == nil, "a replaced feed token still finds the user")
            try expect(try tx.users.user(feedToken: second)?.name == ana.name, "the new feed token finds no user")
            _ = try tx.users.delete(named: ana.name)
        },
        ContractCheck("users: a pairing code is taken once; devices are found by their token's hash, listed latest first, seen, revoked, and go with their user") { tx in
            let ana = try user("ana")
            try tx.users.insert(ana)
            let pairing = PairingCode(codeSHA256: UserToken().sha256, user: ana.name, expiresAt: instant.addingTimeInterval(600))
            let stale = PairingCode(codeSHA256: UserToken().sha256, user: ana.name, expiresAt: instant.addingTimeInterval(-1))
            try tx.users.insertPairing(pairing)
            try tx.users.insertPairing(stale)
            try tx.users.deletePairings(expiredAt: instant)
            try expect(try tx.users.takePairing(codeSHA256: stale.codeSHA256) == nil, "an expired pairing outlived deletePairings")
            try expect(try tx.users.takePairing(codeSHA256: pairing.codeSHA256) == pairing, "the pairing read back differs")
            try expect(try tx.users.takePairing(codeSHA256: pairing.codeSHA256) == nil, "a pairing was taken twice")
            do {
                try tx.users.insertPairing(PairingCode(codeSHA256: UserToken().sha256, user: "nobody-\(UUID().uuidString.prefix(8))", expiresAt: instant))
                throw ContractFailure("a pairing of no user was kept")
            } catch UseCaseError.userNotFound {}
            let older = UserDevice(id: UUID(), user: ana.name, name: "laptop", tokenSHA256: UserToken().sha256, createdAt: instant)
            let newer = UserDevice(id: UUID(), user: ana.name, name: "휴대폰", tokenSHA256: UserToken().sha256, createdAt: instant.addingTimeInterval(60),
                                   lastSeenAt: instant.addingTimeInterval(60))
            try tx.users.insertDevice(older)
            try tx.users.insertDevice(newer)
            try expect(try tx.users.devices(of: ana.name) == [newer, older], "devices are not listed latest first, as stored")
            try expect(try tx.users.device(tokenSHA256: older.tokenSHA256) == older, "a device by its token's hash differs")
            try expect(try tx.users.device(tokenSHA256: UserToken().sha256) == nil, "an unknown token found a device")
            try tx.users.touchDevice(id: older.id, at: instant.addingTimeInterval(120))
            try expect(try tx.users.device(tokenSHA256: older.tokenSHA256)?.lastSeenAt == instant.addingTimeInterval(120), "last seen was not stored")
            let opened = UserSession(idSHA256: UserToken().sha256, user: ana.name, csrfToken: UserToken().text, createdAt: instant,
                                     expiresAt: instant.addingTimeInterval(86_400), deviceID: older.id)
            let own = UserSession(idSHA256: UserToken().sha256, user: ana.name, csrfToken: UserToken().text, createdAt: instant,
                                  expiresAt: instant.addingTimeInterval(86_400))
            try tx.users.insertSession(opened)
            try tx.users.insertSession(own)
            try expect(try tx.users.session(idSHA256: opened.idSHA256)?.deviceID == older.id, "a session's device was not stored")
            try expect(try tx.users.deleteDevice(id: older.id), "revoking a device answered false")
            try expect(try tx.users.session(idSHA256: opened.idSHA256) == nil, "a revoked device's session still opens")
            try expect(try tx.users.session(idSHA256: own.idSHA256) == own, "revoking a device ended another session")
            try expect(try !tx.users.deleteDevice(id: older.id), "revoking it again answered true")
            try expect(try tx.users.device(tokenSHA256: older.tokenSHA256) == nil, "a revoked device's token still finds it")
            try tx.users.keepRevoked(older, at: instant)
            try expect(try tx.users.revokedDevice(tokenSHA256: older.tokenSHA256) == RevokedDevice(name: older.name, user: ana.name, revokedAt: instant),
                       "a revoked device was not kept by its token")
            try expect(try tx.users.revokedDevice(tokenSHA256: newer.tokenSHA256) == nil, "a device never revoked is found revoked")
            try tx.users.insertPairing(PairingCode(codeSHA256: pairing.codeSHA256, user: ana.name, expiresAt: instant.addingTimeInterval(600)))
            _ = try tx.users.delete(named: ana.name)
            try expect(try tx.users.device(tokenSHA256: newer.tokenSHA256) == nil, "a removed user's device is still found")
            try expect(try tx.users.takePairing(codeSHA256: pairing.codeSHA256) == nil, "a removed user's pairing is still found")
            try expect(try tx.users.revokedDevice(tokenSHA256: older.tokenSHA256) == nil, "a removed user's revoked device is still found")
        },
        ContractCheck(store: "the change count grows with each write transaction of its owner, not with reads or other owners' writes") { store in
            guard let start = try store.changeCount() else { return } // a store that keeps none
            let other = try store.scoped(to: "other-\(UUID().uuidString.prefix(8))")
            let otherStart = try other.changeCount()
            try store.write { try $0.habits.insert(try habit("Counted")) }
            let afterWrite = try store.changeCount() ?? 0
            try expect(afterWrite > start, "a write did not move the count (\(start) → \(afterWrite))")
            _ = try store.read { try $0.habits.all() }
            try expect(try store.changeCount() == afterWrite, "a read moved the count")
            try other.write { try $0.habits.insert(try habit("Theirs")) }
            try expect(try store.changeCount() == afterWrite, "another owner's write moved the count")
            try expect(try other.changeCount() != otherStart, "the other owner's write did not move its own count")
            struct Abort: Error {}
            do { try store.write { tx -> Void in try tx.habits.insert(try habit("Undone")); throw Abort() } } catch is Abort {}
            try expect(try store.changeCount() == afterWrite, "a rolled-back write moved the count")
        },
        ContractCheck(store: "users are the store's: every owner's scope sees the same ones; removing one removes only its data") { store in
            let context = HabitContext(store: store, clock: FixedClock(instant), boundary: DayBoundary(timeZone: TimeZone(secondsFromGMT: 0)!))
            let (added, token) = try ManageUsers(context: context).add("bob-\(UUID().uuidString.prefix(8))", timeZone: "Europe/Berlin")
            let other = try store.scoped(to: "someone-else-\(UUID().uuidString.prefix(8))")
            try expect(try other.read { try $0.users.user(named: added.name) } == added, "another owner's scope does not see the user")
            try expect(try ManageUsers(context: context).authenticate(token.text) == added, "the token does not authenticate")
            let bob = try store.scoped(to: added.name)
            let kept = try habit("Kept")
            try store.write { try $0.habits.insert(kept) }
            let gone = try habit("Gone")
            try bob.write { tx in
                try tx.habits.insert(gone)
                try tx.completions.insert(try completion(gone.id, day: 0))
                try tx.scripts.insert(PolicyScript(name: "mine", source: "return {}", installedAt: instant))
            }
            let removed = try ManageUsers(context: context).remove(added.name)
            try expect(removed.habits == 1 && removed.completions == 1, "removed \(removed)")
            try bob.read { tx in
                try expect(try tx.habits.all().isEmpty && tx.scripts.all().isEmpty, "the removed user's data is still there")
                try expect(try tx.users.user(named: added.name) == nil, "the removed user is still there")
            }
            try expect(try store.read { try $0.habits.habit(id: kept.id) } != nil, "another owner's habit went with the user")
            try expect(try ManageUsers(context: context).authenticate(token.text) == nil, "a removed user's token still authenticates")
        },
    ]
}

extension LocalDay {
    init(uncheckedISO text: String) {
        do {
            self = try LocalDay(iso: text)
        } catch {
            preconditionFailure("invalid day literal \(text)")
        }
    }

}

extension RepositoryContract {
    static let groupChecks: [ContractCheck] = [
        ContractCheck("a group comes back with its revisions, members in order, pins and a rollback's mark; by name in any case") { tx in
            let (a, b, c) = (try habit("Water"), try habit("Stretch"), try habit("Read"))
            for member in [a, b, c] { try tx.habits.insert(member) }
            let first = try GroupRevision(number: 1, effectiveFrom: start, members: [c.id, a.id, b.id], rule: .allMembers, streak: .strict, createdAt: instant)
            let second = try GroupRevision(number: 2, effectiveFrom: start.adding(days: 7), members: [a.id],
                                           rule: PolicyChoice(name: "at-least", parameters: ["count": .number(1)], sha256: String(repeating: "ab", count: 32)),
                                           streak: PolicyChoice(name: "grace", parameters: ["misses": .number(1)]), createdAt: instant + 60, takesBack: 1)
            let group = try HabitGroup(name: "Morning", createdAt: instant, revisions: [first, second])
            try tx.groups.put(group)
            try expect(try tx.groups.all() == [group], "the listed group differs from the one put")
            try expect(try tx.groups.group(named: " morning") == group, "a group is not found by its name in another case")
            try expect(try tx.groups.group(named: "evening") == nil, "found a group that does not exist")
        },
        ContractCheck("a group put again takes its new name and revisions; groups list in the order made; delete removes one") { tx in
            let member = try habit("Water")
            try tx.habits.insert(member)
            let revision = try GroupRevision(number: 1, effectiveFrom: start, members: [member.id], createdAt: instant)
            let older = try HabitGroup(name: "Morning", createdAt: instant, revisions: [revision])
            let newer = try HabitGroup(name: "Evening", createdAt: instant + 1, revisions: [revision])
            try tx.groups.put(newer)
            try tx.groups.put(older)
            let renamed = try older.renamed("Dawn").appending(try revision.with(rule: PolicyChoice(name: "any")), from: start.adding(days: 3), at: instant + 5)
            try tx.groups.put(renamed)
            try expect(try tx.groups.all().map(\.name) == ["Dawn", "Evening"], "groups are not listed in the order they were made")
            try expect(try tx.groups.group(named: "dawn")?.revisions.count == 2, "a group put again lost a revision")
            try expect(try tx.groups.group(named: "morning") == nil, "the old name still finds the group")
            try tx.groups.delete(id: renamed.id)
            try expect(try tx.groups.all().map(\.name) == ["Evening"], "a deleted group is still listed")
        },
    ]
}
