import Foundation

/// START (and P2p): what a process costs before it does its work, measured as pairs run in turn (each
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
        ] + (try previewFigure(db: db, store: store))
    }

    /// P2p: a calendar rule's due days over ten years as one process, `stackday policy preview`
    /// against a python-dateutil process expanding the same rule over the same days (each printing
    /// every day), run in turn ten times, the best of each. Both must find the same days.
    func previewFigure(db: String, store: StoreBenchmark) throws -> [Figure] {
        guard BenchContext.has("python3"), (try? Measure.run("python3", ["-c", "import dateutil"]).status) == 0 else { return [] }
        let rule = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", from = "2026-01-01", to = "2035-12-31"
        let script = """
            import datetime, sys
            from dateutil.rrule import rrulestr
            start = datetime.datetime.fromisoformat(sys.argv[2])
            days = rrulestr(sys.argv[1], dtstart=start).between(start, datetime.datetime.fromisoformat(sys.argv[3]), inc=True)
            sys.stdout.write("".join(day.date().isoformat() + "\\n" for day in days))
            """
        let engineArguments = store.stackday(["--json", "policy", "preview", rule, "--from", from, "--to", to], db: db)
        var best = (engine: Double.infinity, baseline: Double.infinity)
        var found = (engine: 0, baseline: 0)
        for _ in 0..<10 {
            let mine = try Measure.run(context.stackday, engineArguments)
            let theirs = try Measure.run("python3", ["-c", script, rule, from, to])
            guard mine.status == 0, theirs.status == 0 else { throw BenchError("P2p: a run failed (\(mine.status), \(theirs.status))") }
            best = (min(best.engine, mine.seconds), min(best.baseline, theirs.seconds))
            let due = (try? JSONSerialization.jsonObject(with: Data(mine.stdout.utf8)) as? [String: Any])?["due"] as? [String]
            found = (due?.count ?? 0, theirs.stdout.split(separator: "\n").count)
        }
        guard found.engine == found.baseline, found.engine > 100 else { throw BenchError("P2p: preview found \(found.engine) days, dateutil \(found.baseline)") }
        let ratio = best.baseline / best.engine
        return [Figure(id: "P2p", compared: "a rule's \(found.engine) due days over 10 years as one process: python-dateutil ÷ stackday policy preview, paired",
                       engine: Table.seconds(best.engine), baseline: Table.seconds(best.baseline), ratio: ratio, target: "≥ 10×", met: ratio >= 10)]
    }
}
