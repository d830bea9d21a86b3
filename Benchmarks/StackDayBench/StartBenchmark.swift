import Foundation

/// START: what a process costs before it does its work, measured as pairs run in turn (each
/// command, then its baseline, twenty times; the best of each) so that a machine that moves
/// moves both: `stackday --version` ÷ `sqlite3 --version`, a cold `today` on one habit ÷ a
/// `sqlite3` count on the same file, and the peak memory of that `today`.
struct StartBenchmark {
    let context: BenchContext

    func run() throws -> [Figure] {
        let store = StoreBenchmark(context: context)
        let db = try store.makeDatabase("start.sqlite", habits: 1, days: 30)
        try store.warm(db)
        func paired(_ engine: [String], _ baseline: [String]) throws -> (engine: Double, baseline: Double) {
            var best = (engine: Double.infinity, baseline: Double.infinity)
            for _ in 0..<20 {
                let mine = try Measure.run(context.stackday, engine)
                let theirs = try Measure.run("sqlite3", baseline)
                guard mine.status == 0, theirs.status == 0 else { throw BenchError("START: a run failed (\(mine.status), \(theirs.status))") }
                best = (min(best.engine, mine.seconds), min(best.baseline, theirs.seconds))
            }
            return best
        }
        let version = try paired(["--version"], ["--version"])
        let today = try paired(store.stackday(["today"], db: db), [db, "SELECT count(*) FROM completions"])
        let peak = try Measure.peakMemory(context.stackday, store.stackday(["today"], db: db))
        let mebibytes = Double(peak) / 1_048_576
        return [
            Figure(id: "START", compared: "stackday --version ÷ sqlite3 --version, paired", engine: Table.seconds(version.engine),
                   baseline: Table.seconds(version.baseline), ratio: version.engine / version.baseline, target: "≤ 1.5×",
                   met: version.engine / version.baseline <= 1.5),
            Figure(id: "STARTt", compared: "stackday today, cold, 1 habit ÷ sqlite3 \"select count(*)\" on the same file, paired",
                   engine: Table.seconds(today.engine), baseline: Table.seconds(today.baseline), ratio: today.engine / today.baseline,
                   target: "≤ 1.5×", met: today.engine / today.baseline <= 1.5),
            Figure(id: "STARTm", compared: "peak memory of that today ÷ 20 MiB", engine: String(format: "%.1f MiB", mebibytes), baseline: "20 MiB",
                   ratio: mebibytes / 20, target: "≤ 1×", met: mebibytes <= 20),
        ]
    }
}
