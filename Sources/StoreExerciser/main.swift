// Drives a StackDay store from a separate process, for the stores' multi-process tests. DB is a
// SQLite path or a postgres:// URL (then $STACKDAY_USER names the user, default "default").
//
//   StoreExerciser setup DB            creates the habit "water" (goal 8 cups) from 2020-01-01
//   StoreExerciser record DB COUNT     records COUNT completions, one transaction each
//   StoreExerciser import DB COUNT     imports COUNT completions with ids 0..<COUNT in batches
import Foundation
import StackDay
import StackDayPostgres
import StackDaySQLite

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: StoreExerciser setup|record|import DB [COUNT]\n".utf8))
    exit(64)
}
let count = arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0
let now = Date(timeIntervalSince1970: 1_790_000_000)
let start = LocalDay(year: 2020, month: 1, day: 1, orFallback: ())

do {
    let target = arguments[2]
    let user = ProcessInfo.processInfo.environment["STACKDAY_USER"] ?? "default"
    let store: any HabitStore = target.hasPrefix("postgres://") || target.hasPrefix("postgresql://")
        ? try PostgresHabitStore(url: target, owner: user) : try SQLiteHabitStore(path: target, owner: user)
    let context = HabitContext(store: store, clock: FixedClock(now), boundary: DayBoundary(timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt))
    switch arguments[1] {
    case "setup":
        try CreateHabit(context: context)(name: "water", startedOn: start, goal: 8, unit: "cups",
                                          id: UUID(uuidString: "00000000-0000-4000-8000-000000000001") ?? UUID())
    case "record":
        let record = RecordCompletion(context: context)
        for index in 0..<count {
            try record(habitName: "water", amount: 1, on: start.adding(days: index % 2000))
        }
    case "import":
        let habitID = UUID(uuidString: "00000000-0000-4000-8000-000000000001") ?? UUID()
        let completions = (0..<count).lazy.compactMap { index -> Completion? in
            let suffix = String(index)
            let id = UUID(uuidString: "10000000-0000-4000-8000-" + String(repeating: "0", count: 12 - suffix.count) + suffix)
            return try? Completion(id: id ?? UUID(), habitID: habitID, completedOn: start.adding(days: index % 2000), recordedAt: now, amount: 1)
        }
        let summary = try ImportCompletions(context: context, batchSize: 2_000)(completions)
        print("inserted \(summary.inserted), already present \(summary.alreadyPresent)")
    default:
        FileHandle.standardError.write(Data("unknown action \(arguments[1])\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}

extension LocalDay {
    init(year: Int, month: Int, day: Int, orFallback: Void) {
        self = (try? LocalDay(year: year, month: month, day: day)) ?? LocalDay.earliest
    }
}
