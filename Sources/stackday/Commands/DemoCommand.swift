import Foundation
import StackDay
import StackDayApplication
import StackDaySQLite

/// `stackday demo`: seed 000's sample in a fresh database, then its weekly report.
enum DemoCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "demo", abstract: "Load the sample habits into a fresh database and print their weekly report.",
            discussion: """
            The sample is three habits tracked from 2026-10-01 to 2026-10-11 in Seoul time. It is written to the store --db \
            or --database names, when given (which must hold no habits yet), else to a fresh demo.sqlite beside the default database. \
            The report is in Korean unless --lang en is given.
            """,
            run: run
        )
    }

    static func run(_ invocation: Invocation) throws {
        let store: any HabitStore
        if invocation.globals.db != nil || invocation.globals.database != nil {
            // The store named, as every command opens it (`--database` may be PostgreSQL; `--user` applies).
            store = try CLIEnvironment(invocation).store()
        } else {
            let path = URL(fileURLWithPath: StoreLocation.defaultPath(environment: invocation.io.environment)).deletingLastPathComponent().appendingPathComponent("demo.sqlite").path
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            store = try SQLiteHabitStore(path: path)
        }
        let path = (store as? SQLiteHabitStore)?.path ?? "PostgreSQL, user \(store.owner)"
        let context = HabitContext(store: store, clock: FixedClock(SampleData.now), boundary: DayBoundary(timeZone: SampleData.timeZone))
        guard try ListHabits(context: context)().isEmpty else {
            throw CommandFailure("\(path) already holds habits; the demo needs an empty database")
        }
        try SampleData.load(into: context)
        let english = invocation.globals.lang == "en"
        let view = try Application(context: context).weekReport(language: english ? .english : .korean)
        let archive = try ExportArchive(context: context)()
        let (habits, completions) = (archive.habits, archive.completions.count)
        if invocation.globals.json { return invocation.io.print(view.json.jsonText) }
        invocation.io.print(english ? "\(habits.count) habits, \(completions) completions (\(path))" : "습관 \(habits.count)개, 기록 \(completions)건 (\(path))")
        invocation.io.print()
        invocation.io.print(view.text)
    }
}
