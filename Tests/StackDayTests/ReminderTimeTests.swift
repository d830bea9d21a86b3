import Testing
import StackDay

/// Reminder times as people type them, and the ones refused.
@Suite("reminder times")
struct ReminderTimeTests {
    @Test("read, sorted and each kept once", arguments: [
        (["21:00"], "21:00"), (["21:00", "08:30"], "08:30,21:00"), (["08:00, 21:00"], "08:00,21:00"), (["08:00 21:00 08:00"], "08:00,21:00"),
        (["none"], ""), (["NONE"], ""), ([], ""), (["00:00", "23:59"], "00:00,23:59"),
    ] as [([String], String)])
    func read(texts: [String], stored: String) throws {
        #expect(ReminderTime.stored(try ReminderTime.list(texts)) == stored)
    }

    @Test("refused with the text that is not a time", arguments: [
        (["24:00"], "'24:00'"), (["9:00"], "'9:00'"), (["21:00", "noon"], "'noon'"), (["none", "21:00"], "'none'"), (["21:60"], "'21:60'"),
    ] as [([String], String)])
    func refused(texts: [String], named: String) {
        #expect(throws: ReminderTimeError.self) { try ReminderTime.list(texts) }
        do { _ = try ReminderTime.list(texts) } catch { #expect("\(error)".contains(named)) }
    }

    @Test("at most eight")
    func limit() throws {
        let nine = (0..<9).map { "0\($0):00" }
        #expect(throws: ReminderTimeError.tooMany(9)) { try ReminderTime.list(nine) }
        #expect(try ReminderTime.list(Array(nine.prefix(8))).count == 8)
    }
}
