import StackDay

/// Month calendars with chosen days shown by number and the rest as dots.
struct MonthGrid {
    let range: LocalDayRange
    let marked: Set<LocalDay>
    /// Korean: `2026년 10월` over ` 월 화 수 …` (each weekday two columns wide, as the numbers are).
    var korean = false

    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    func lines() -> [String] {
        var lines: [String] = []
        var monthStart = range.first.startOfMonth
        while monthStart <= range.last {
            if !lines.isEmpty { lines.append("") }
            lines.append(korean ? "\(monthStart.year)년 \(monthStart.month)월" : "\(Self.months[monthStart.month - 1]) \(monthStart.year)")
            lines.append(korean ? " 월 화 수 목 금 토 일" : " Mo Tu We Th Fr Sa Su")
            var row = String(repeating: "   ", count: monthStart.weekday - 1)
            for offset in 0..<monthStart.daysInMonth {
                let day = monthStart.adding(days: offset)
                let cell: String
                if !range.contains(day) {
                    cell = "   "
                } else if marked.contains(day) {
                    cell = day.day < 10 ? "  \(day.day)" : " \(day.day)"
                } else {
                    cell = "  ·"
                }
                row += cell
                if day.weekday == 7 {
                    lines.append(row)
                    row = ""
                }
            }
            if !row.isEmpty { lines.append(row) }
            monthStart = monthStart.adding(days: monthStart.daysInMonth)
        }
        return lines.map { line in
            var trimmed = line
            while trimmed.hasSuffix(" ") { trimmed.removeLast() }
            return trimmed
        }
    }
}
