import StackDay
import StackDayApplication

/// Every word the pages print, in English and Korean (the table is `Words`', shared with the
/// command line).
struct PageWords: Sendable {
    let language: PageLanguage


    /// A refused change's message in the page's language: Korean where the error has a Korean
    /// text (`ErrorText`), else the English one the API answers.
    func message(of error: any Error) -> String {
        (language == .ko ? ErrorText.korean(error) : nil) ?? ErrorView(error, requestCode: .badRequest).message
    }

    /// `text` in the page's language (English is the key).
    subscript(_ text: String) -> String {
        Words(language == .ko ? .korean : .english)[text]
    }

    /// What a person calls a policy, in the page's language (`Words.policy`).
    func policy(_ name: String) -> String {
        Words(language == .ko ? .korean : .english).policy(name)
    }

    /// A description in the page's language, its `code` spans (the scripts write parameter
    /// names so) as code rather than as literal backticks.
    func prose(_ text: String) -> HTML {
        self[text].split(separator: "`", omittingEmptySubsequences: false).enumerated().map { index, part -> HTML in
            index % 2 == 1 ? "<code>\(String(part))</code>" : "\(String(part))"
        }.joined()
    }

    /// A day's state in words.
    func state(_ state: EntryState) -> String {
        switch state {
        case .completed: self["done"]
        case .pending: self["to do"]
        case .missed: self["missed"]
        case .skipped: self["skipped"]
        case .notDue: self["not due"]
        case .upcoming: self["later"]
        }
    }

    /// A calendar day's mark in words (the legend, a cell's label).
    func mark(_ mark: DayMark) -> String {
        switch mark {
        case .met: self["met"]
        case .partial: self["partly done"]
        case .missed: self["missed"]
        case .skipped: self["skipped"]
        case .notDue: self["not due"]
        case .pending: self["to do"]
        case .future: self["later"]
        }
    }

    /// A limit's figure: "1 of at most 2", "최대 2 중 1".
    func atMost(_ total: Double, limit: Double) -> String {
        Words(report).amount(total, of: .limit(limit), unit: "")
    }

    /// "3 days", "3일".
    func count(_ value: Int, _ unit: CountUnit) -> String {
        language == .ko ? CountPhrase.korean(value, unit) : CountPhrase.english(value, unit)
    }

    var report: ReportLanguage { language == .ko ? .korean : .english }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// "October 2026", "2026년 10월".
    func month(_ day: LocalDay) -> String {
        language == .ko ? "\(day.year)년 \(day.month)월" : "\(Self.monthNames[day.month - 1]) \(day.year)"
    }

    /// The weekdays short, from `start`: `Mon`, `월`.
    func weekdays(_ start: WeekStart) -> [String] { Words(report).weekdays(start) }
}
