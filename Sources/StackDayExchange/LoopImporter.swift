import Foundation
import StackDay

/// Reads Loop Habit Tracker's CSV export folder into a `HabitArchive`.
///
/// `Habits.csv` lists the habits; each `NNN Name/Checkmarks.csv` holds `Date,Value,Notes`.
/// YES_MANUAL becomes a completion, SKIP a skip; YES_AUTO, NO and UNKNOWN nothing. Numerical
/// habits store values ×1000. Ids are derived from the habit's name and the day, so a second
/// import of the same folder finds everything already present.
public struct LoopImporter {
    public let folder: URL
    /// When the habits it creates count as created (Loop's export has no such times).
    public let now: Date

    public init(folder: URL, now: Date) {
        self.folder = folder
        self.now = now
    }

    static let habitColumns = ["Position", "Name", "Type", "Question", "Description", "FrequencyNumerator", "FrequencyDenominator",
                               "Color", "Unit", "Target Type", "Target Value", "Archived?"]

    /// Throws `ImportFormatError` naming file, line and column.
    public func read() throws -> HabitArchive {
        let habitsFile = folder.appendingPathComponent("Habits.csv")
        let text = try Self.readText(habitsFile)
        let rows = try CSVReader.rows(text, file: habitsFile.path)
        guard let header = rows.first?.fields else {
            throw ImportFormatError(file: habitsFile.path, line: 1, column: nil, message: "empty file")
        }
        var index: [String: Int] = [:]
        for (offset, name) in header.enumerated() { index[name.trimmingCharacters(in: .whitespaces)] = offset }
        for required in ["Position", "Name", "FrequencyNumerator", "FrequencyDenominator"] where index[required] == nil {
            throw ImportFormatError(file: habitsFile.path, line: 1, column: nil, message: "missing column \(required)")
        }
        var archive = HabitArchive()
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for row in rows.dropFirst() {
            func field(_ name: String) -> String {
                guard let column = index[name], column < row.fields.count else { return "" }
                return row.fields[column]
            }
            func number(_ name: String) throws -> Double {
                let text = field(name)
                guard let value = Double(text) else {
                    throw ImportFormatError(file: habitsFile.path, line: row.line, column: (index[name] ?? 0) + 1, message: "\(name) '\(text)' is not a number")
                }
                return value
            }
            let name = field("Name")
            let position = field("Position")
            func whole(_ name: String) throws -> Int {
                guard let value = Int(exactly: try number(name)), (1...366).contains(value) else {
                    throw ImportFormatError(file: habitsFile.path, line: row.line, column: (index[name] ?? 0) + 1,
                                            message: "\(name) '\(field(name))' is not a whole number from 1 to 366")
                }
                return value
            }
            let numerator = try whole("FrequencyNumerator")
            let denominator = try whole("FrequencyDenominator")
            let numerical = ["NUMERICAL", "1"].contains(field("Type").uppercased())
            let atMost = field("Target Type").uppercased() == "AT_MOST" || field("Target Type") == "1"
            let target = numerical ? max(try number("Target Value"), 0.001) : 1
            let schedule: PolicyChoice
            switch (numerator, denominator) {
            case (1, 1): schedule = .daily
            case (let n, 7): schedule = PolicyChoice(name: "times-per-week", parameters: ["times": .number(Double(n))])
            case (let n, 30), (let n, 31): schedule = PolicyChoice(name: "times-per-month", parameters: ["times": .number(Double(n))])
            case (let n, let d): schedule = PolicyChoice(name: "times-in-days", parameters: ["times": .number(Double(n)), "days": .number(Double(d))])
            }
            let progress = numerical && atMost ? PolicyChoice(name: "at-most", parameters: ["limit": .number(target)]) : PolicyChoice.goal

            let checkmarksFolder = folders.first { $0.hasSuffix(" " + name) && $0.hasPrefix(position.count < 3 ? String(repeating: "0", count: 3 - position.count) + position : position) }
                ?? folders.first { $0.hasSuffix(" " + name) }
            var marks: [(LocalDay, String, Int)] = []
            if let checkmarksFolder {
                let file = folder.appendingPathComponent(checkmarksFolder).appendingPathComponent("Checkmarks.csv")
                let rows = try CSVReader.rows(try Self.readText(file), file: file.path)
                for mark in rows.dropFirst() where mark.fields.count >= 2 {
                    let day: LocalDay
                    do { day = try LocalDay(iso: mark.fields[0]) } catch {
                        throw ImportFormatError(file: file.path, line: mark.line, column: 1, message: "\(error)")
                    }
                    marks.append((day, mark.fields[1].trimmingCharacters(in: .whitespaces), mark.line))
                }
            }
            let start = marks.map(\.0).min() ?? LocalDay(date: now, timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt)
            let habitID = StableID.make("loop-habit", name)
            let habit = try Habit(
                id: habitID, name: name, startedOn: start, createdAt: now,
                goal: numerical && !atMost ? target : 1, unit: numerical ? field("Unit") : "",
                schedule: schedule, progress: progress, streak: .strict
            )
            archive.habits.append(habit)
            for (day, value, _) in marks.sorted(by: { $0.0 < $1.0 }) {
                let recordedAt = day.firstInstant(in: TimeZone(secondsFromGMT: 0) ?? .gmt)
                switch value.uppercased() {
                case "SKIP", "3":
                    archive.skips.append(Skip(id: StableID.make("loop-skip", name, day.iso), habitID: habitID, day: day, recordedAt: recordedAt))
                case "YES_MANUAL" where !numerical, "2" where !numerical:
                    archive.completions.append(try Completion(id: StableID.make("loop-completion", name, day.iso), habitID: habitID,
                                                              completedOn: day, recordedAt: recordedAt, amount: 1))
                default:
                    if numerical, let raw = Double(value), raw > 0 {
                        archive.completions.append(try Completion(id: StableID.make("loop-completion", name, day.iso), habitID: habitID,
                                                                  completedOn: day, recordedAt: recordedAt, amount: raw / 1000))
                    }
                }
            }
        }
        return archive
    }

    /// A file's text; throws `ImportFormatError` naming the file when it cannot be read as UTF-8.
    static func readText(_ file: URL) throws -> String {
        do {
            return try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw ImportFormatError(file: file.path, line: nil, column: nil, message: "cannot read the file: \(error.localizedDescription)")
        }
    }
}
