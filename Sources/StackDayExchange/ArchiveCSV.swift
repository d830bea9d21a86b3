import Foundation
import StackDay

/// The CSV export format: one header, then one row per habit, completion and skip (`kind` says which).
public enum ArchiveCSV {
    static let header = ["kind", "id", "habit", "name", "day", "archived_on", "recorded_at", "updated_at", "amount", "unit",
                         "schedule", "schedule_params", "progress", "progress_params", "streak", "streak_params"]

    public static func encode(_ archive: HabitArchive) -> String {
        var lines = [header.joined(separator: ",")]
        for habit in archive.habits {
            lines.append(row([
                "habit", UUIDText.format(habit.id), "", habit.name, habit.startedOn.iso, habit.archivedOn?.iso ?? "",
                InstantText.format(habit.createdAt), InstantText.format(habit.updatedAt), Quantity.describe(habit.goal), habit.unit,
                habit.schedule.name, habit.schedule.parametersJSON, habit.progress.name, habit.progress.parametersJSON,
                habit.streak.name, habit.streak.parametersJSON,
            ]))
        }
        for completion in archive.completions {
            lines.append(row(["completion", UUIDText.format(completion.id), UUIDText.format(completion.habitID), "", completion.completedOn.iso, "",
                              InstantText.format(completion.recordedAt), "", Quantity.describe(completion.amount), "", "", "", "", "", "", ""]))
        }
        for skip in archive.skips {
            lines.append(row(["skip", UUIDText.format(skip.id), UUIDText.format(skip.habitID), "", skip.day.iso, "",
                              InstantText.format(skip.recordedAt), "", "", "", "", "", "", "", "", ""]))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ fields: [String]) -> String {
        fields.map(CSVReader.quote).joined(separator: ",")
    }

    /// Throws `ImportFormatError` naming `file`, the line and the column.
    public static func decode(_ text: String, file: String) throws -> HabitArchive {
        var archive = HabitArchive()
        var sawHeader = false
        try CSVReader.forEachRow(text, file: file) { row in
            guard sawHeader else {
                guard row.strings == header else {
                    throw ImportFormatError(file: file, line: row.line, column: nil, message: "expected the header \(header.joined(separator: ","))")
                }
                sawHeader = true
                return
            }
            let cells = Cells(row: row, file: file)
            guard row.count == header.count else {
                throw ImportFormatError(file: file, line: row.line, column: min(row.count, header.count) + 1,
                                        message: "expected \(header.count) fields, found \(row.count)")
            }
            do {
                switch row.string(0) {
                case "completion":
                    archive.completions.append(try Completion(
                        id: try cells.uuid(1), habitID: try cells.uuid(2), completedOn: try cells.day(4),
                        recordedAt: try cells.instant(6), amount: try cells.number(8)
                    ))
                case "habit":
                    archive.habits.append(try Habit(
                        id: try cells.uuid(1), name: row.string(3), startedOn: try cells.day(4),
                        archivedOn: row[5].isEmpty ? nil : try cells.day(5),
                        createdAt: try cells.instant(6), updatedAt: try cells.instant(7), goal: try cells.number(8), unit: row.string(9),
                        schedule: try cells.policy(10), progress: try cells.policy(12), streak: try cells.policy(14)
                    ))
                case "skip":
                    archive.skips.append(Skip(id: try cells.uuid(1), habitID: try cells.uuid(2), day: try cells.day(4), recordedAt: try cells.instant(6)))
                default:
                    throw cells.failure(0, "kind must be habit, completion or skip, not '\(row.string(0))'")
                }
            } catch let error as HabitValidationError {
                throw ImportFormatError(file: file, line: row.line, column: nil, message: "\(error)")
            }
        }
        guard sawHeader else { throw ImportFormatError(file: file, line: 1, column: nil, message: "expected the header \(header.joined(separator: ","))") }
        return archive
    }

    /// Typed access to a row's fields, naming line and column on failure.
    struct Cells {
        let row: CSVReader.RowView
        let file: String

        func failure(_ index: Int, _ message: String) -> ImportFormatError {
            ImportFormatError(file: file, line: row.line, column: index + 1, message: message)
        }

        func uuid(_ index: Int) throws -> UUID {
            guard let id = UUIDText.parse(row[index]) else { throw failure(index, "\(header[index]) '\(row.string(index))' is not a UUID") }
            return id
        }

        func day(_ index: Int) throws -> LocalDay {
            if let day = LocalDay(isoBytes: row[index]) { return day }
            do { return try LocalDay(iso: row.string(index)) } catch { throw failure(index, "\(header[index]): \(error)") }
        }

        func instant(_ index: Int) throws -> Date {
            guard let date = InstantText.parse(bytes: row[index]) else {
                throw failure(index, "\(header[index]) '\(row.string(index))' is not an ISO 8601 instant")
            }
            return date
        }

        func number(_ index: Int) throws -> Double {
            guard let value = Double(row.string(index)) else { throw failure(index, "\(header[index]) '\(row.string(index))' is not a number") }
            return value
        }

        func policy(_ index: Int) throws -> PolicyChoice {
            let parameters = row.string(index + 1)
            do {
                return try PolicyChoice(name: row.string(index), parametersJSON: parameters.isEmpty ? "{}" : parameters)
            } catch {
                throw failure(index + 1, "\(error)")
            }
        }
    }
}
