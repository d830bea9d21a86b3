/// Prints a `WeeklyReport` as text: seed 000's layout in Korean, the same facts in English.
/// Aligned, each `|`-separated column of the habit rows is padded to its widest cell by display
/// width (a Hangul syllable takes two columns); unaligned is seed 000's exact text.
public struct WeeklyReportFormatter: Sendable {
    public let language: ReportLanguage

    public init(language: ReportLanguage) {
        self.language = language
    }

    public func format(_ report: WeeklyReport, aligned: Bool = false) -> String {
        let days = report.days
        var lines: [String] = []
        // A habit's row as cells: joined by " | " once every row is known, padded when aligned.
        var rows: [(line: Int, cells: [String])] = []
        switch language {
        case .korean:
            lines.append("주간 보고서: \(koreanLabel(report.firstDay)) ~ \(koreanLabel(report.lastDay))")
            lines.append("요일: " + days.map { Self.koreanWeekdays[$0.weekday - 1] }.joined(separator: " "))
            for row in report.rows {
                guard case .success(let line) = row else { lines.append(failed(row)); continue }
                rows.append((lines.count, [
                    line.habitName, marks(line.marks), "합계 \(Quantity.describe(line.total))\(Self.koreanUnit(line.unit))",
                    "달성 \(line.metDays)/\(line.dueDays)\(line.countsIn == .days ? "일" : "회")",
                    "연속 \(CountPhrase.korean(line.streak.current, line.countsIn)) (최장 \(CountPhrase.korean(line.streak.longest, line.countsIn)))",
                ]))
                lines.append("")
            }
            if let best = report.mostConsistent {
                lines.append("가장 꾸준한 습관: \(best.habitName) (\(best.metDays)/\(best.dueDays)\(best.countsIn == .days ? "일" : "회"))")
            }
        case .english:
            lines.append("Weekly report: \(englishLabel(report.firstDay)) – \(englishLabel(report.lastDay))")
            lines.append("Days: " + days.map { Self.englishWeekdays[$0.weekday - 1] }.joined(separator: " "))
            for row in report.rows {
                guard case .success(let line) = row else { lines.append(failed(row)); continue }
                let unit = line.unit.isEmpty ? "" : " \(line.unit)"
                rows.append((lines.count, [
                    line.habitName, marks(line.marks), "total \(Quantity.describe(line.total))\(unit)",
                    "met \(line.metDays)/\(line.dueDays) \(line.countsIn == .days ? plural(line.dueDays, "day") : plural(line.dueDays, "time"))",
                    "streak \(CountPhrase.english(line.streak.current, line.countsIn)) (longest \(line.streak.longest))",
                ]))
                lines.append("")
            }
            if let best = report.mostConsistent {
                lines.append("Most consistent: \(best.habitName) (\(best.metDays)/\(best.dueDays) \(plural(best.dueDays, best.countsIn == .days ? "day" : "time")))")
            }
        }
        if !report.groups.isEmpty {
            // The groups after the habits, under a heading of their own.
            var groupRows: [(line: Int, cells: [String])] = []
            lines += ["", language == .korean ? "그룹" : "Groups"]
            for group in report.groups {
                switch group {
                case .failure(let failure):
                    lines.append("\(failure.name) | \(language == .korean ? "오류" : "error"): \(failure.message)")
                case .success(let line):
                    groupRows.append((lines.count, language == .korean ? [
                        line.name, marks(line.marks), "달성 \(line.metDays)/\(line.dueDays)일",
                        "연속 \(CountPhrase.korean(line.streak.current, .days)) (최장 \(CountPhrase.korean(line.streak.longest, .days)))",
                    ] : [
                        line.name, marks(line.marks), "met \(line.metDays)/\(line.dueDays) \(plural(line.dueDays, "day"))",
                        "streak \(CountPhrase.english(line.streak.current, .days)) (longest \(line.streak.longest))",
                    ]))
                    lines.append("")
                }
            }
            Self.join(groupRows, into: &lines, aligned: aligned)
        }
        Self.join(rows, into: &lines, aligned: aligned)
        return lines.joined(separator: "\n")
    }

    /// Writes each row's cells into its line, joined by ` | `; aligned, each column but the last
    /// padded to its widest cell by display width.
    private static func join(_ rows: [(line: Int, cells: [String])], into lines: inout [String], aligned: Bool) {
        var widths = [Int](repeating: 0, count: rows.map(\.cells.count).max() ?? 0)
        if aligned {
            for row in rows { for (index, cell) in row.cells.enumerated() { widths[index] = max(widths[index], DisplayWidth.of(cell)) } }
        }
        for row in rows {
            lines[row.line] = row.cells.enumerated().map { index, cell in
                !aligned || index == row.cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - DisplayWidth.of(cell))
            }.joined(separator: " | ")
        }
    }

    /// A unit as it follows a number in Korean: a Hangul or CJK counter is written on (`54잔`),
    /// a word in another script after a space (`14 cups`), a symbol on (`80%`).
    public static func koreanUnit(_ unit: String) -> String {
        guard let first = unit.unicodeScalars.first, first.properties.isAlphabetic else { return unit }
        let value = first.value
        let glued = (0x1100...0x11FF).contains(value) || (0x3040...0x30FF).contains(value) || (0x3130...0x318F).contains(value)
            || (0x3400...0x9FFF).contains(value) || (0xAC00...0xD7AF).contains(value)
        return glued ? unit : " " + unit
    }

    static let koreanWeekdays = ["월", "화", "수", "목", "금", "토", "일"]
    static let englishWeekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    private func marks(_ marks: [WeekMark]) -> String {
        marks.map { mark in
            switch mark {
            case .met: "●"
            case .unmet: "○"
            case .rest: "·"
            }
        }.joined(separator: " ")
    }

    /// A failed habit's row: its name, then the policy's error in place of its figures.
    private func failed(_ row: Result<WeeklyReportLine, HabitFailure>) -> String {
        guard let failure = row.failure else { return "" }
        let label = language == .korean ? "오류" : "error"
        return "\(failure.habit.name) | \(label): \(failure.message)"
    }

    private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private func koreanLabel(_ day: LocalDay) -> String {
        "\(twoDigits(day.month))/\(twoDigits(day.day))(\(Self.koreanWeekdays[day.weekday - 1]))"
    }

    private func englishLabel(_ day: LocalDay) -> String {
        "\(Self.englishWeekdays[day.weekday - 1]) \(day.iso)"
    }

    private func plural(_ count: Int, _ word: String) -> String { count == 1 ? word : word + "s" }
}
