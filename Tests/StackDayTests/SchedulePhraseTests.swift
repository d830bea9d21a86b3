import Testing
@testable import StackDay

/// Every phrase docs/policies.md § Schedules in words lists, English and Korean, with the policy
/// and parameters it stands for.
@Suite struct SchedulePhraseTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let phrase: String
        let shown: String
        var testDescription: String { phrase }
    }

    static let documented: [Case] = [
        Case(phrase: "every day", shown: "daily"),
        Case(phrase: "weekdays", shown: "weekdays"),
        Case(phrase: "weekends", shown: #"weekly {"days":["sat","sun"]}"#),
        Case(phrase: "mon wed fri", shown: #"weekly {"days":["mon","wed","fri"]}"#),
        Case(phrase: "every monday and thursday", shown: #"weekly {"days":["mon","thu"]}"#),
        Case(phrase: "3 times a week", shown: #"times-per-week {"times":3}"#),
        Case(phrase: "twice a month", shown: #"times-per-month {"times":2}"#),
        Case(phrase: "every 2 days", shown: #"every-n-days {"every":2}"#),
        Case(phrase: "every other week on tuesday", shown: #"rrule {"rule":"FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"}"#),
        Case(phrase: "on the 1st and 15th", shown: #"rrule {"rule":"FREQ=MONTHLY;BYMONTHDAY=1,15"}"#),
        Case(phrase: "last day of the month", shown: "monthly-last-day"),
        Case(phrase: "last friday of the month", shown: #"monthly-nth-weekday {"nth":-1,"weekday":"fri"}"#),
        Case(phrase: "the 2nd tuesday", shown: #"monthly-nth-weekday {"nth":2,"weekday":"tue"}"#),
        Case(phrase: "every year on 3/14", shown: #"rrule {"rule":"FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=14"}"#),
        Case(phrase: "매일", shown: "daily"),
        Case(phrase: "평일", shown: "weekdays"),
        Case(phrase: "주말", shown: #"weekly {"days":["sat","sun"]}"#),
        Case(phrase: "월 수 금", shown: #"weekly {"days":["mon","wed","fri"]}"#),
        Case(phrase: "매주 월요일", shown: #"weekly {"days":["mon"]}"#),
        Case(phrase: "주 3회", shown: #"times-per-week {"times":3}"#),
        Case(phrase: "한 달에 2번", shown: #"times-per-month {"times":2}"#),
        Case(phrase: "이틀마다", shown: #"every-n-days {"every":2}"#),
        Case(phrase: "격주 화요일", shown: #"rrule {"rule":"FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"}"#),
        Case(phrase: "매월 1일과 15일", shown: #"rrule {"rule":"FREQ=MONTHLY;BYMONTHDAY=1,15"}"#),
        Case(phrase: "매월 말일", shown: "monthly-last-day"),
        Case(phrase: "매월 마지막 금요일", shown: #"monthly-nth-weekday {"nth":-1,"weekday":"fri"}"#),
        Case(phrase: "매년 3월 14일", shown: #"rrule {"rule":"FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=14"}"#),
    ]

    /// Other ways people say the same schedules.
    static let variants: [Case] = [
        Case(phrase: "  Every Day. ", shown: "daily"),
        Case(phrase: "Mon, Wed & Fri", shown: #"weekly {"days":["mon","wed","fri"]}"#),
        Case(phrase: "on tuesdays and thursdays", shown: #"weekly {"days":["tue","thu"]}"#),
        Case(phrase: "once a week", shown: #"times-per-week {"times":1}"#),
        Case(phrase: "3x per week", shown: #"times-per-week {"times":3}"#),
        Case(phrase: "every other day", shown: #"every-n-days {"every":2}"#),
        Case(phrase: "every other tuesday", shown: #"rrule {"rule":"FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"}"#),
        Case(phrase: "on the 15th", shown: #"monthly-day {"day":15}"#),
        Case(phrase: "the first monday of every month", shown: #"monthly-nth-weekday {"nth":1,"weekday":"mon"}"#),
        Case(phrase: "every march 14", shown: #"rrule {"rule":"FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=14"}"#),
        Case(phrase: "월수금", shown: #"weekly {"days":["mon","wed","fri"]}"#),
        Case(phrase: "매주 월요일과 목요일", shown: #"weekly {"days":["mon","thu"]}"#),
        Case(phrase: "일주일에 3번", shown: #"times-per-week {"times":3}"#),
        Case(phrase: "3일마다", shown: #"every-n-days {"every":3}"#),
        Case(phrase: "매월 둘째 화요일", shown: #"monthly-nth-weekday {"nth":2,"weekday":"tue"}"#),
        Case(phrase: "매달 15일", shown: #"monthly-day {"day":15}"#),
        Case(phrase: "월화수목금토일", shown: "daily"),
    ]

    @Test(arguments: documented + variants)
    func readsAs(_ test: Case) throws {
        #expect(try SchedulePhrase(test.phrase).shown == test.shown)
    }

    /// Every documented phrase is in `examples` (the suggestions' source), and the other way round.
    @Test func theExamplesAreTheDocumentedPhrases() {
        #expect(SchedulePhrase.examples == Self.documented.map(\.phrase))
    }

    @Test(arguments: [
        ("3 time a wek", "3 times a week"), ("every dya", "every day"), ("last fryday of the month", "last friday of the month"),
        ("매월 말", "매월 말일"),
    ])
    func aMisspelledPhraseGetsSuggestions(_ phrase: String, _ suggestion: String) {
        #expect(throws: SchedulePhraseError.self) { try SchedulePhrase(phrase) }
        do {
            _ = try SchedulePhrase(phrase)
        } catch {
            #expect(error.suggestions.first == suggestion)
            #expect(error.description.contains("did you mean '\(suggestion)'"))
            #expect(error.description.contains("policy list"))
        }
    }

    @Test(arguments: [("every year on 2/30", "February has no day 30"), ("8 times a week", "1 to 7"), ("매월 6번째 화요일", "at most 5")])
    func anImpossiblePhraseSaysWhy(_ phrase: String, _ reason: String) {
        do {
            _ = try SchedulePhrase(phrase)
            Issue.record("'\(phrase)' was read")
        } catch {
            #expect(error.reason?.contains(reason) == true, "\(error)")
        }
    }
}
