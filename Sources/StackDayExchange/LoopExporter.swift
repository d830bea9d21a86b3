import Foundation
import StackDay

/// Writes an archive as Loop Habit Tracker's current CSV export folder, which `LoopImporter`
/// (and Loop itself) reads: `Habits.csv` (`Position,Name,Type,Question,Description,
/// FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?`) and a
/// folder `NNN Name` per habit with `Checkmarks.csv` (`Date,Value,Notes`, newest first).
///
/// Loop keeps one rule per habit and knows frequencies ("3 in 7 days"), not weekdays: a habit's
/// latest rules are written, a schedule Loop cannot say is written as the frequency nearest it,
/// and each such loss is answered in `notes` for the command to say. A day with records is one
/// checkmark (YES_MANUAL, or a numerical habit's total ×1000, its notes joined); a skipped day
/// SKIP; the habit's first day and its archive day a NO row when nothing else marks them, since
/// Loop's export has no start or archive day and a reader takes them from the marks.
public struct LoopExporter {
    public let archive: HabitArchive

    public init(_ archive: HabitArchive) {
        self.archive = archive
    }

    /// What the folder holds: file paths relative to it, with their text.
    public struct Folder: Sendable {
        public var files: [(path: String, text: String)] = []
        /// What Loop's layout could not hold, one line per habit.
        public var notes: [String] = []
    }

    public func folder() -> Folder {
        var folder = Folder()
        var habitsCSV = [LoopImporter.habitColumns.joined(separator: ",")]
        let records = Dictionary(grouping: archive.completions, by: \.habitID)
        let skips = Dictionary(grouping: archive.skips, by: \.habitID)
        let ordered = archive.habits.sorted { ($0.position, $0.createdAt, $0.id.uuidString) < ($1.position, $1.createdAt, $1.id.uuidString) }
        for (index, habit) in ordered.enumerated() {
            let rules = habit.latest
            let limit = rules.progress.atMostLimit
            let numerical = limit != nil || rules.goal != 1 || !habit.unit.isEmpty
            let (numerator, denominator, exact) = Self.frequency(rules.schedule)
            if !exact {
                folder.notes.append("\(habit.name): \(rules.schedule.described()) is written as \(numerator) in \(denominator) days (Loop has frequencies, not weekdays or dates)")
            }
            if habit.revisions.count > 1 {
                folder.notes.append("\(habit.name): only its latest rules are written (revision \(rules.number) of \(habit.revisions.count); Loop keeps one)")
            }
            if rules.progress.name != "goal" && limit == nil || rules.streak.name != "strict" {
                folder.notes.append("\(habit.name): its policies \(rules.progress.name), \(rules.streak.name) have no place in Loop's layout")
            }
            let number = String(format: "%03d", index + 1)
            habitsCSV.append([
                number, habit.name, numerical ? "NUMERICAL" : "YES_NO", habit.question ?? "", habit.details ?? "", String(numerator), String(denominator),
                habit.colorTag?.light.uppercased() ?? "", numerical ? habit.unit : "", limit == nil ? "AT_LEAST" : "AT_MOST",
                Quantity.describe(limit ?? (numerical ? rules.goal : 0)), habit.archivedOn == nil ? "false" : "true",
            ].map(CSVReader.quote).joined(separator: ","))
            folder.files.append((path: "\(number) \(habit.name)/Checkmarks.csv",
                                 text: Self.checkmarks(habit, records: records[habit.id] ?? [], skips: skips[habit.id] ?? [], numerical: numerical)))
        }
        folder.files.insert((path: "Habits.csv", text: habitsCSV.joined(separator: "\n") + "\n"), at: 0)
        return folder
    }

    /// Loop's frequency for a schedule, and whether it is the same rule (else the nearest).
    static func frequency(_ schedule: PolicyChoice) -> (Int, Int, Bool) {
        func number(_ name: String) -> Int? { schedule.parameters[name]?.numberValue.map { Int($0) } }
        switch schedule.name {
        case "daily": return (1, 1, true)
        case "times-per-week": return (number("times") ?? 1, 7, true)
        case "times-per-month": return (number("times") ?? 1, 30, true)
        case "times-in-days": return (number("times") ?? 1, number("days") ?? 1, true)
        case "weekdays": return (5, 7, false)
        case "weekly": return (max(1, schedule.parameters["days"]?.arrayValue?.count ?? 1), 7, false)
        case "every-n-days": return (1, max(1, number("every") ?? 1), false)
        default: return (1, 30, false)
        }
    }

    static func checkmarks(_ habit: Habit, records: [Completion], skips: [Skip], numerical: Bool) -> String {
        var rows: [LocalDay: (value: String, notes: [String])] = [:]
        for (day, held) in Dictionary(grouping: records, by: \.completedOn) {
            let total = held.reduce(0) { $0 + $1.amount }
            let value = numerical ? String(Int64((total * 1000).rounded())) : "YES_MANUAL"
            rows[day] = (value, held.sorted { $0.recordedAt < $1.recordedAt }.compactMap(\.note))
        }
        for skip in skips where rows[skip.day] == nil { rows[skip.day] = ("SKIP", []) }
        for day in [habit.startedOn, habit.archivedOn].compactMap({ $0 }) where rows[day] == nil {
            rows[day] = (numerical ? "0" : "NO", [])
        }
        let lines = rows.sorted { $0.key > $1.key }.map { day, row in
            [day.iso, row.value, row.notes.joined(separator: "; ")].map(CSVReader.quote).joined(separator: ",")
        }
        return (["Date,Value,Notes"] + lines).joined(separator: "\n") + "\n"
    }
}
