import Foundation
import StackDay
import StackDaySQLite

/// The `stackday` command line.
enum StackdayCommand {
    static func main(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            FileHandle.standardError.write(Data("Error: missing command\nUsage: stackday demo\n".utf8))
            return 64
        }
        switch command {
        case "demo":
            do {
                let path = URL(fileURLWithPath: StoreLocation.defaultPath()).deletingLastPathComponent().appendingPathComponent("demo.sqlite").path
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                let store = try SQLiteHabitStore(path: path)
                let context = HabitContext(
                    store: store, clock: FixedClock(SampleData.now), boundary: DayBoundary(timeZone: SampleData.timeZone)
                )
                try SampleData.load(into: context)
                let report = try BuildWeeklyReport(context: context)()
                let habitCount = try store.habits.all().count
                var completionCount = 0
                for habit in try store.habits.all() { completionCount += try store.completions.completions(habitID: habit.id).count }
                print("습관 \(habitCount)개, 기록 \(completionCount)건")
                print("")
                print(WeeklyReportFormatter(language: .korean).format(report))
                return 0
            } catch {
                FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
                return 1
            }
        default:
            FileHandle.standardError.write(Data("Error: unknown command '\(command)'\nUsage: stackday demo\n".utf8))
            return 64
        }
    }
}
