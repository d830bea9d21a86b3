import Foundation
import StackDay

/// Reads Loop Habit Tracker's CSV export folder into a `HabitArchive`.
///
/// `Habits.csv` lists the habits (each generation's columns: `NumRepetitions,Interval` before
/// 2.0, `FrequencyNumerator,FrequencyDenominator` since; a habit's Question and Description are
/// kept); each `NNN Name/Checkmarks.csv` holds `Date,Value,Notes`, with a header naming them in
/// any order or, before 2.0, without one.
/// YES_MANUAL becomes a completion (with the row's note), SKIP a skip; YES_AUTO, NO and UNKNOWN
/// nothing, and a note on such a day is counted in `HabitArchive.unplacedNotes`. Numerical
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

    /// Throws `ImportFormatError` naming file, line and column: for a checkmark after today in
    /// every time zone, and for a numerical value that is no amount.
    public func read() throws -> HabitArchive {
        let latestToday = LocalDay(date: now, timeZone: TimeZone(secondsFromGMT: 14 * 3600) ?? .gmt)
        let habitsFile = folder.appendingPathComponent("Habits.csv")
        let text = try Self.readText(habitsFile)
        let rows = try CSVReader.rows(text, file: habitsFile.path)
        guard let header = rows.first?.fields else {
            throw ImportFormatError(file: habitsFile.path, line: 1, column: nil, message: "empty file")
        }
        var index: [String: Int] = [:]
        for (offset, name) in header.enumerated() { index[name.trimmingCharacters(in: .whitespaces)] = offset }
        // Loop's generations name the frequency differently: NumRepetitions and Interval before
        // 2.0's FrequencyNumerator and FrequencyDenominator; read either.
        for (current, older) in [("FrequencyNumerator", "NumRepetitions"), ("FrequencyDenominator", "Interval")] where index[current] == nil {
            index[current] = index[older]
        }
        for required in ["Name", "FrequencyNumerator", "FrequencyDenominator"] where index[required] == nil {
            let older = required == "FrequencyNumerator" ? " (or NumRepetitions)" : required == "FrequencyDenominator" ? " (or Interval)" : ""
            throw ImportFormatError(file: habitsFile.path, line: 1, column: nil, message: "missing column \(required)\(older)")
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
            var marks: [Mark] = []
            if let checkmarksFolder {
                let file = folder.appendingPathComponent(checkmarksFolder).appendingPathComponent("Checkmarks.csv")
                // Checkmark files run to thousands of rows each: read as bytes, no String per field.
                // A header names the columns in any order; without one (Loop before 2.0) they are
                // Date, Value and Notes.
                var columns = (date: 0, value: 1, notes: 2)
                var first = true
                try CSVReader.forEachRow(try Self.readText(file), file: file.path) { row in
                    if first {
                        first = false
                        if LocalDay(isoBytes: row[0]) == nil {
                            let names = (0..<row.count).map { row.string($0).trimmingCharacters(in: .whitespaces).lowercased() }
                            guard let date = names.firstIndex(of: "date"), let value = names.firstIndex(of: "value") else {
                                throw ImportFormatError(file: file.path, line: row.line, column: nil,
                                                        message: "the first row is neither a checkmark nor a header naming Date and Value")
                            }
                            columns = (date, value, names.firstIndex(of: "notes") ?? -1)
                            return
                        }
                    }
                    guard row.count > max(columns.date, columns.value) else { return }
                    let day: LocalDay
                    if let parsed = LocalDay(isoBytes: row[columns.date]) {
                        day = parsed
                    } else {
                        do { day = try LocalDay(iso: row.string(columns.date)) } catch {
                            throw ImportFormatError(file: file.path, line: row.line, column: columns.date + 1, message: "\(error)")
                        }
                    }
                    // No time zone is behind today yet in UTC+14: a later day is in the future everywhere.
                    if day > latestToday {
                        throw ImportFormatError(file: file.path, line: row.line, column: columns.date + 1,
                                                message: "\(day) is after today; StackDay records no future day (fix the row or the clock)")
                    }
                    let value = Mark.Value(row[columns.value], numerical: numerical)
                    if case .invalid(let text) = value {
                        throw ImportFormatError(file: file.path, line: row.line, column: columns.value + 1,
                                                message: "Value '\(text)' is not an amount (a finite number above 0; 0 and -1 mean no entry)")
                    }
                    marks.append(Mark(day: day, value: value, note: columns.notes >= 0 && row.count > columns.notes ? Self.note(row[columns.notes]) : ""))
                }
            }
            let start = marks.lazy.map(\.day).min() ?? LocalDay(date: now, timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt)
            // Loop keeps no archive day: an archived habit stops after its last mark.
            let archived = ["TRUE", "1", "YES"].contains(field("Archived?").trimmingCharacters(in: .whitespaces).uppercased())
            let habitID = StableID.make("loop-habit", name)
            let habit = try Habit(
                id: habitID, name: name, startedOn: start, archivedOn: archived ? marks.lazy.map(\.day).max() ?? start : nil, createdAt: now,
                goal: numerical && !atMost ? target : 1, unit: numerical ? field("Unit") : "",
                schedule: schedule, progress: progress, streak: .strict,
                position: Int(position.trimmingCharacters(in: .whitespaces)).map { min(max($0 + 1, 1), Habit.positionLimit) } ?? 0,
                colorTag: HabitColor.nearest(toHex: field("Color").trimmingCharacters(in: .whitespaces)),
                question: field("Question"), details: field("Description")
            )
            archive.habits.append(habit)
            let skipIDs = StableID.Prefix("loop-skip", name), completionIDs = StableID.Prefix("loop-completion", name)
            for mark in marks.sorted(by: { $0.day < $1.day }) {
                // Loop's days are UTC midnights.
                let recordedAt = mark.day.midnightUTC
                let note = mark.note.isEmpty ? nil : mark.note
                switch mark.value {
                case .skip:
                    archive.skips.append(Skip(id: skipIDs.make(mark.day), habitID: habitID, day: mark.day, recordedAt: recordedAt))
                    if note != nil { archive.unplacedNotes += 1 }
                case .done:
                    archive.completions.append(try Completion(id: completionIDs.make(mark.day), habitID: habitID,
                                                              completedOn: mark.day, recordedAt: recordedAt, amount: 1, note: note))
                case .amount(let raw):
                    archive.completions.append(try Completion(id: completionIDs.make(mark.day), habitID: habitID,
                                                              completedOn: mark.day, recordedAt: recordedAt, amount: raw / 1000, note: note))
                case .nothing, .invalid:
                    if note != nil { archive.unplacedNotes += 1 }
                }
            }
        }
        return archive
    }

    /// A Notes field, trimmed; most are empty, and those build no String (a checkmark file runs
    /// to thousands of rows).
    static func note(_ field: UnsafeBufferPointer<UInt8>) -> String {
        guard field.contains(where: { $0 > 0x20 }) else { return "" }
        return String(decoding: field, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One row of a `Checkmarks.csv`.
    struct Mark {
        enum Value: Equatable {
            case done, skip, amount(Double), nothing
            /// A numerical habit's value that is no amount: NaN, an infinity, a negative other than -1.
            case invalid(String)

            /// YES_MANUAL (2) is a completion of a yes/no habit; SKIP (3) a skip; a numerical habit's
            /// positive value an amount ×1000; YES_AUTO, NO and UNKNOWN (0 and -1 for a numerical
            /// habit) nothing. Case and surrounding blanks do not matter.
            init(_ field: UnsafeBufferPointer<UInt8>, numerical: Bool) {
                var bytes = field[...]
                while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
                while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0D { bytes = bytes.dropLast() }
                func equals(_ word: String) -> Bool {
                    bytes.count == word.utf8.count && zip(bytes, word.utf8).allSatisfy { ($0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0) == $1 }
                }
                if equals("SKIP") || equals("3") {
                    self = .skip
                } else if !numerical && (equals("YES_MANUAL") || equals("2")) {
                    self = .done
                } else if numerical, let raw = Double(String(decoding: bytes, as: UTF8.self)) {
                    if raw > 0, raw.isFinite {
                        self = .amount(raw)
                    } else if raw == 0 || raw == -1 {
                        self = .nothing
                    } else {
                        self = .invalid(String(decoding: bytes, as: UTF8.self))
                    }
                } else {
                    self = .nothing
                }
            }
        }

        let day: LocalDay
        let value: Value
        /// The Notes column, trimmed; empty when none.
        let note: String
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
