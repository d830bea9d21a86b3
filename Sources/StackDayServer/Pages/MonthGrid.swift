import StackDay

/// A month as the habit and group pages draw it: its heading with links to the months before and
/// after (`path?month=YYYY-MM`), and a table of its weeks from the user's week start, each day's
/// cell drawn by the page (a day it has nothing for is drawn plain).
struct MonthGrid {
    /// The month's first day.
    let first: LocalDay
    /// The page the month links go back to.
    let path: String
    let words: PageWords
    let weekStart: WeekStart

    var last: LocalDay { first.adding(days: first.daysInMonth - 1) }

    /// The heading and the months nav.
    func heading() -> HTML {
        let previous = first.adding(days: -1).startOfMonth, next = last.adding(days: 1)
        return "<h3>\(words["Calendar"])</h3><nav class=\"months\" aria-label=\"\(words["Calendar"])\">"
            + "<a class=\"button\" href=\"\(path)?month=\(HabitPage.monthText(previous))\" rel=\"prev\">← <span class=\"sr\">\(words["Previous month"]) </span>\(words.month(previous))</a>"
            + "<strong id=\"month\">\(words.month(first))</strong>"
            + "<a class=\"button\" href=\"\(path)?month=\(HabitPage.monthText(next))\" rel=\"next\"><span class=\"sr\">\(words["Next month"]) </span>\(words.month(next)) →</a></nav>"
    }

    /// The table of the month's days, `caption` read by screen readers, `attributes` on the table.
    func table(caption: String, attributes: HTML = "", cell: (LocalDay) -> HTML?) -> HTML {
        var html: HTML = "<table class=\"month\"\(attributes)><caption class=\"sr\">\(caption): \(words.month(first))</caption><thead><tr>"
        html += words.weekdays(weekStart).map { "<th scope=\"col\">\($0)</th>" as HTML }.joined() + "</tr></thead><tbody><tr>"
        let lead = first.startOfWeek(weekStart).days(to: first)
        let empty: HTML = "<td></td>"
        html += Array(repeating: empty, count: lead).joined()
        var column = lead
        for offset in 0..<first.daysInMonth {
            let day = first.adding(days: offset)
            if column == 7 { html += "</tr><tr>"; column = 0 }
            html += cell(day) ?? "<td><div class=\"cell hint\">\(day.day)</div></td>"
            column += 1
        }
        return html + Array(repeating: empty, count: (7 - column) % 7).joined() + "</tr></tbody></table>"
    }
}
