import Foundation

/// A schedule said in words, English or Korean (`mon wed fri`, `3 times a week`, `매월 마지막 금요일`),
/// read into the built-in policy and parameters it means.
///
/// What is stored is the choice, exactly as if it had been written out (`weekly
/// {"days":["mon","wed","fri"]}`); the words are not kept. The grammar is in docs/policies.md
/// § Schedules in words, each of its examples a test.
public struct SchedulePhrase: Sendable, Equatable {
    /// The policy and parameters the phrase means.
    public let choice: PolicyChoice

    /// Reads `text`; throws `SchedulePhraseError` with the closest documented phrases when no
    /// phrase matches, or with a reason when one matches but names an impossible day.
    public init(_ text: String) throws(SchedulePhraseError) {
        let normalized = Self.normalized(text)
        do {
            guard let choice = try Self.english(normalized) ?? Self.korean(normalized.replacingOccurrences(of: " ", with: "")) else {
                throw SchedulePhraseError(phrase: text, suggestions: Self.closest(to: normalized), reason: nil)
            }
            self.choice = choice
        } catch let error as Impossible {
            throw SchedulePhraseError(phrase: text, suggestions: [], reason: error.reason)
        } catch let error as SchedulePhraseError {
            throw error
        } catch {
            throw SchedulePhraseError(phrase: text, suggestions: [], reason: "\(error)")
        }
    }

    /// `weekly {"days":["mon","wed","fri"]}`, or the policy's name alone when it takes nothing:
    /// what a phrase is shown back as.
    public var shown: String { choice.described() }

    /// The documented phrases, English then Korean; the suggestions are chosen among them.
    public static let examples: [String] = [
        "every day", "weekdays", "weekends", "mon wed fri", "every monday and thursday", "3 times a week", "twice a month",
        "every 2 days", "every other week on tuesday", "on the 1st and 15th", "last day of the month",
        "last friday of the month", "the 2nd tuesday", "every year on 3/14",
        "매일", "평일", "주말", "월 수 금", "매주 월요일", "주 3회", "한 달에 2번", "이틀마다", "격주 화요일", "매월 1일과 15일",
        "매월 말일", "매월 마지막 금요일", "매년 3월 14일",
    ]

    /// A phrase that reads but names no day (`every year on 2/30`).
    private struct Impossible: Error { let reason: String }

    static let weekdayOrder = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    static let englishWeekdays: [String: String] = {
        var table: [String: String] = [:]
        let long = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        let extra = [["mo", "mon"], ["tu", "tue", "tues"], ["we", "wed", "weds"], ["th", "thu", "thur", "thurs"], ["fr", "fri"], ["sa", "sat"], ["su", "sun"]]
        for (index, name) in long.enumerated() {
            for word in [name, name + "s"] + extra[index] { table[word] = weekdayOrder[index] }
        }
        return table
    }()
    static let koreanWeekdays: [Character: String] = ["월": "mon", "화": "tue", "수": "wed", "목": "thu", "금": "fri", "토": "sat", "일": "sun"]
    static let englishCounts: [String: Int] = [
        "once": 1, "one": 1, "twice": 2, "two": 2, "thrice": 3, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
        "eight": 8, "nine": 9, "ten": 10, "other": 2,
    ]
    static let englishOrdinals: [String: Int] = [
        "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5, "last": -1,
    ]
    static let koreanCounts: [String: Int] = ["한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10]
    static let koreanOrdinals: [String: Int] = [
        "첫째": 1, "첫번째": 1, "둘째": 2, "두번째": 2, "셋째": 3, "세번째": 3, "넷째": 4, "네번째": 4, "다섯째": 5, "다섯번째": 5, "마지막": -1,
    ]
    static let koreanDaySpans: [String: Int] = ["격일": 2, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "엿새": 6, "이레": 7]
    static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]

    /// Lowercased, trimmed, one space between words, no final full stop.
    static func normalized(_ text: String) -> String {
        var words = text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        while let last = words.last, last == "." || last == "!" { words.removeLast() }
        return words.precomposedStringWithCanonicalMapping
    }

    // MARK: English

    static func english(_ s: String) throws -> PolicyChoice? {
        if ["every day", "daily", "each day", "everyday"].contains(s) { return .daily }
        if ["weekdays", "every weekday", "on weekdays", "weekday", "every weekday of the week"].contains(s) { return PolicyChoice(name: "weekdays") }
        if ["weekends", "every weekend", "on weekends", "weekend", "at weekends", "on the weekend", "every saturday and sunday"].contains(s) {
            return weekly(["sat", "sun"])
        }
        if let days = englishWeekdayList(s, dropping: ["every", "on", "each", "weekly"]) { return weekly(days) }
        if let match = s.wholeMatch(of: #/(?:(\d+)|(once|twice|thrice|one|two|three|four|five|six|seven))(?: ?(?:times?|x|days?))? ?(?:a|per|each|every|in a|/) ?(week|month)/#) {
            let times = match.1.flatMap { Int($0) } ?? match.2.flatMap { englishCounts[String($0)] } ?? 0
            return try quota(times: times, per: String(match.3))
        }
        if let match = s.wholeMatch(of: #/every (\d+|other|two|three|four|five|six|seven|eight|nine|ten) days?/#) {
            let every = Int(match.1) ?? englishCounts[String(match.1)] ?? 0
            guard every >= 1 else { throw Impossible(reason: "every 0 days is no day") }
            return every == 1 ? .daily : PolicyChoice(name: "every-n-days", parameters: ["every": .number(Double(every))])
        }
        if let match = s.wholeMatch(of: #/(?:every (\d+|other|two|three|four) weeks?|biweekly|fortnightly) on (.+)/#),
           let days = englishWeekdayList(String(match.2), dropping: []) {
            let interval = match.1.map { Int($0) ?? englishCounts[String($0)] ?? 0 } ?? 2
            return try weeklyRule(interval: interval, days: days)
        }
        if let match = s.wholeMatch(of: #/every other (.+)/#), let days = englishWeekdayList(String(match.1), dropping: []) {
            return try weeklyRule(interval: 2, days: days)
        }
        if s.wholeMatch(of: #/(?:on |every )?(?:the )?(?:last day|end) of (?:the |every |each )?month|month end|monthly on the last day/#) != nil {
            return PolicyChoice(name: "monthly-last-day")
        }
        if let match = s.wholeMatch(of: #/(?:on |every )?(?:the )?(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last) ([a-z]+)(?: of (?:the |every |each )?month| every month| each month)?/#),
           let weekday = englishWeekdays[String(match.2)], let nth = englishOrdinals[String(match.1)] {
            return PolicyChoice(name: "monthly-nth-weekday", parameters: ["nth": .number(Double(nth)), "weekday": .string(weekday)])
        }
        if let days = englishMonthDays(s) { return try monthDays(days) }
        if let match = s.wholeMatch(of: #/(?:every year|yearly|annually|each year) on (\d{1,2})/(\d{1,2})|(?:on )?(\d{1,2})/(\d{1,2}) (?:every|each) year/#) {
            let month = Int(match.1 ?? match.3 ?? "") ?? 0
            let day = Int(match.2 ?? match.4 ?? "") ?? 0
            return try yearly(month: month, day: day)
        }
        if let match = s.wholeMatch(of: #/(?:every year on |yearly on |annually on |every |each )?([a-z]+) (\d{1,2})(?:st|nd|rd|th)?(?: every year| each year)?/#),
           let month = monthNames.firstIndex(of: String(match.1)), s.contains("year") || s.hasPrefix("every ") || s.hasPrefix("each ") {
            return try yearly(month: month + 1, day: Int(match.2) ?? 0)
        }
        return nil
    }

    /// The weekdays a list of English day names gives (`mon, wed and fri`), in week order; nil
    /// unless every word (besides `and`, `&` and the words in `dropping`) is a day's name.
    static func englishWeekdayList(_ s: String, dropping: Set<String>) -> [String]? {
        let words = s.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" || $0 == "&" }).map(String.init)
            .filter { $0 != "and" && !dropping.contains($0) }
        return inWeekOrder(words) { englishWeekdays[$0] }
    }

    /// The weekdays `items` name, in week order, each once; nil when one names no weekday (or none is given).
    static func inWeekOrder<Items: Sequence>(_ items: Items, _ weekday: (Items.Element) -> String?) -> [String]? {
        var days: Set<String> = []
        for item in items {
            guard let day = weekday(item) else { return nil }
            days.insert(day)
        }
        return days.isEmpty ? nil : weekdayOrder.filter(days.contains)
    }

    /// The days of the month an English list names (`on the 1st and 15th`), or nil.
    static func englishMonthDays(_ s: String) -> [Int]? {
        var text = s
        for suffix in [" of the month", " of every month", " of each month", " every month", " each month"] where text.hasSuffix(suffix) {
            text.removeLast(suffix.count)
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "&" }).map(String.init)
            .filter { !["and", "on", "the", "every", "each", "monthly", "month", "day"].contains($0) }
        guard !words.isEmpty, text.contains(where: \.isNumber) else { return nil }
        var days: [Int] = []
        for word in words {
            guard let match = word.wholeMatch(of: #/(\d{1,2})(?:st|nd|rd|th)?/#), let day = Int(match.1) else { return nil }
            days.append(day)
        }
        // A bare number list is a month-day list only when the phrase says so.
        guard s.contains("month") || s.contains("the ") || words.contains(where: { $0.last?.isLetter == true }) else { return nil }
        return days
    }

    // MARK: Korean (spaces removed)

    static func korean(_ s: String) throws -> PolicyChoice? {
        if ["매일", "날마다", "매일매일", "하루도빠짐없이"].contains(s) { return .daily }
        if ["평일", "주중", "평일마다", "매주평일", "주중매일", "평일매일"].contains(s) { return PolicyChoice(name: "weekdays") }
        if ["주말", "주말마다", "매주주말", "주말매일"].contains(s) { return weekly(["sat", "sun"]) }
        if let match = s.wholeMatch(of: #/(?:주|일주일에|한주에|주에|매주|1주일에)(\d+|한|두|세|네|다섯|여섯|일곱)(?:회|번|일)/#) {
            return try quota(times: koreanNumber(String(match.1)), per: "week")
        }
        if let match = s.wholeMatch(of: #/(?:한달에|월|매달|매월|달에|1달에)(\d+|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)(?:회|번)/#) {
            return try quota(times: koreanNumber(String(match.1)), per: "month")
        }
        if let match = s.wholeMatch(of: #/(\d+)일(?:마다|에한번|에한번씩)/#) {
            let every = Int(match.1) ?? 0
            guard every >= 1 else { throw Impossible(reason: "0일마다 is no day") }
            return every == 1 ? .daily : PolicyChoice(name: "every-n-days", parameters: ["every": .number(Double(every))])
        }
        if let match = s.wholeMatch(of: #/(격일|이틀|사흘|나흘|닷새|엿새|이레)(?:마다|로|에한번)?/#), let every = koreanDaySpans[String(match.1)] {
            return PolicyChoice(name: "every-n-days", parameters: ["every": .number(Double(every))])
        }
        if let match = s.wholeMatch(of: #/(격주|(\d+)주마다|(\d+)주에한번)(?:로|에)?(.+?)(?:마다)?/#), let days = koreanWeekdayList(String(match.4)) {
            let interval = match.2.flatMap { Int($0) } ?? match.3.flatMap { Int($0) } ?? 2
            return try weeklyRule(interval: interval, days: days)
        }
        if s.wholeMatch(of: #/(?:매월|매달|달마다)?(?:말일|마지막날|월말)(?:마다)?/#) != nil { return PolicyChoice(name: "monthly-last-day") }
        if let match = s.wholeMatch(of: #/(?:매월|매달)?(마지막|첫째|첫번째|둘째|두번째|셋째|세번째|넷째|네번째|다섯째|다섯번째|(\d)번째)주?([월화수목금토일])(?:요일)?(?:마다)?/#) {
            let nth = match.2.flatMap { Int($0) } ?? koreanOrdinals[String(match.1)] ?? 0
            guard let weekday = koreanWeekdays[Character(String(match.3))], (1...5).contains(nth) || nth == -1 else {
                throw Impossible(reason: "a month has at most 5 of a weekday")
            }
            return PolicyChoice(name: "monthly-nth-weekday", parameters: ["nth": .number(Double(nth)), "weekday": .string(weekday)])
        }
        if let match = s.wholeMatch(of: #/(?:매월|매달|달마다)((?:\d{1,2}일(?:과|와|및|,|·)?)+)(?:마다)?/#) {
            let days = String(match.1).matches(of: #/(\d{1,2})일/#).compactMap { Int($0.1) }
            return try monthDays(days)
        }
        if let match = s.wholeMatch(of: #/(?:매년|해마다|매해)(\d{1,2})월(\d{1,2})일(?:마다)?/#) {
            return try yearly(month: Int(match.1) ?? 0, day: Int(match.2) ?? 0)
        }
        if let days = koreanWeekdayList(s) { return weekly(days) }
        return nil
    }

    /// The weekdays a Korean list names (`월수금`, `매주 월요일과 목요일`, `월,수,금요일마다`), or nil.
    static func koreanWeekdayList(_ s: String) -> [String]? {
        var text = s
        if text.hasPrefix("매주") { text.removeFirst(2) }
        if text.hasSuffix("마다") { text.removeLast(2) }
        text = text.replacingOccurrences(of: "요일", with: "")
        text.removeAll { ",·/과와및".contains($0) }
        return inWeekOrder(text) { koreanWeekdays[$0] }
    }

    static func koreanNumber(_ text: String) -> Int { Int(text) ?? koreanCounts[text] ?? 0 }

    // MARK: What the phrases become

    static func weekly(_ days: [String]) -> PolicyChoice {
        days.count == 7 ? .daily : PolicyChoice(name: "weekly", parameters: ["days": .array(days.map(JSONValue.string))])
    }

    static func quota(times: Int, per period: String) throws -> PolicyChoice {
        let most = period == "week" ? 7 : 31
        guard (1...most).contains(times) else { throw Impossible(reason: "a \(period) has room for 1 to \(most) days, not \(times)") }
        return PolicyChoice(name: period == "week" ? "times-per-week" : "times-per-month", parameters: ["times": .number(Double(times))])
    }

    static func weeklyRule(interval: Int, days: [String]) throws -> PolicyChoice {
        guard interval >= 1 else { throw Impossible(reason: "every 0 weeks is no week") }
        if interval == 1 { return weekly(days) }
        let byday = days.map { String($0.prefix(2)).uppercased() }.joined(separator: ",")
        return PolicyChoice(name: "rrule", parameters: ["rule": .string("FREQ=WEEKLY;INTERVAL=\(interval);BYDAY=\(byday)")])
    }

    static func monthDays(_ days: [Int]) throws -> PolicyChoice {
        let sorted = Array(Set(days)).sorted()
        guard let first = sorted.first, let last = sorted.last, first >= 1, last <= 31 else {
            throw Impossible(reason: "a day of the month is 1 to 31")
        }
        if sorted.count == 1 { return PolicyChoice(name: "monthly-day", parameters: ["day": .number(Double(first))]) }
        return PolicyChoice(name: "rrule", parameters: ["rule": .string("FREQ=MONTHLY;BYMONTHDAY=" + sorted.map(String.init).joined(separator: ","))])
    }

    static func yearly(month: Int, day: Int) throws -> PolicyChoice {
        guard (1...12).contains(month) else { throw Impossible(reason: "a month is 1 to 12, not \(month)") }
        let longest = month == 2 ? 29 : (try? LocalDay(year: 2001, month: month, day: 1))?.daysInMonth ?? 31
        guard (1...longest).contains(day) else { throw Impossible(reason: "\(monthNames[month - 1].capitalized) has no day \(day)") }
        return PolicyChoice(name: "rrule", parameters: ["rule": .string("FREQ=YEARLY;BYMONTH=\(month);BYMONTHDAY=\(day)")])
    }

    /// The documented phrases nearest `text` by edit distance, within about a third of its length.
    static func closest(to text: String) -> [String] {
        let scored = examples.map { (phrase: $0, distance: EditDistance.between($0, text)) }
        let limit = max(2, text.count / 3)
        return scored.filter { $0.distance <= limit }.sorted { $0.distance < $1.distance }.prefix(3).map(\.phrase)
    }
}
