// Prints one table of ratios, each measured side by side in this run.
//   stackday-bench [--quick] [--only START|P1|P2|MATCH|STORE|IMPORT|POSTGRES|SERVER|WEB|SYNC|S1|S3|SCALE|SCALE1] [--skip-import] [--keep]
// SCALE (1,000 and 10,000 users on PostgreSQL, 1,000 on SQLite; a quarter of an hour) runs only when asked for with --only SCALE;
// --only SCALE1 runs its first setup alone (S1, S2: about two minutes).
import Foundation

let arguments = CommandLine.arguments
let groups = ["START", "P1", "P2", "MATCH", "STORE", "IMPORT", "POSTGRES", "SERVER", "WEB", "SYNC", "S1", "S3", "SCALE", "SCALE1"]
let usage = "usage: stackday-bench [--quick] [--only \(groups.joined(separator: "|"))] [--skip-import] [--keep]\n"
// An option it does not know stops it before anything runs: the whole bench takes a quarter of an hour.
var checked = 1
while checked < arguments.count {
    switch arguments[checked] {
    case "-h", "--help":
        print(usage, terminator: "")
        exit(0)
    case "--quick", "--keep", "--skip-import":
        checked += 1
    case "--only" where checked + 1 < arguments.count && groups.contains(arguments[checked + 1]):
        checked += 2
    case "--only":
        FileHandle.standardError.write(Data("stackday-bench: --only takes one of \(groups.joined(separator: ", "))\n".utf8))
        exit(2)
    default:
        FileHandle.standardError.write(Data("stackday-bench: unknown option '\(arguments[checked])'\n\(usage)".utf8))
        exit(2)
    }
}
let quick = arguments.contains("--quick")
let keep = arguments.contains("--keep")
let only = arguments.firstIndex(of: "--only").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
func wanted(_ group: String) -> Bool { only == nil || only == group }
do {
    let context = try BenchContext(quick: quick)
    defer {
        if keep {
            FileHandle.standardError.write(Data("kept \(context.work.path)\n".utf8))
        } else {
            try? FileManager.default.removeItem(at: context.work)
        }
    }
    var figures: [Figure] = []
    if wanted("START") {
        FileHandle.standardError.write(Data("START process start…\n".utf8))
        figures += try StartBenchmark(context: context).run()
    }
    if wanted("P1") {
        FileHandle.standardError.write(Data("P1 schedules…\n".utf8))
        figures += try ScheduleBenchmark(context: context).run()
    }
    if wanted("P2") {
        FileHandle.standardError.write(Data("P2 rrule…\n".utf8))
        figures += try RRuleBenchmark(context: context).run()
    }
    if wanted("MATCH") {
        FileHandle.standardError.write(Data("MATCH patterns…\n".utf8))
        figures += try MatchBenchmark(context: context).run()
    }
    var store: (figures: [Figure], growth: [StoreBenchmark.Growth]) = ([], [])
    if wanted("STORE") {
        FileHandle.standardError.write(Data("P3–P5 store…\n".utf8))
        store = try StoreBenchmark(context: context).run(skipImport: arguments.contains("--skip-import"))
    }
    if only == "IMPORT" {
        FileHandle.standardError.write(Data("P4 imports…\n".utf8))
        let benchmark = StoreBenchmark(context: context)
        figures += [try benchmark.importFigure()] + (try benchmark.importMemoryFigures()) + [try benchmark.loopImportFigure()]
    }
    figures += store.figures
    if wanted("POSTGRES") {
        FileHandle.standardError.write(Data("P6–P7 PostgreSQL…\n".utf8))
        figures += try PostgresBenchmark(context: context).run()
    }
    var loads: [ServerBenchmark.Load] = []
    if wanted("SERVER") {
        FileHandle.standardError.write(Data("P8 server under wrk…\n".utf8))
        let server = try ServerBenchmark(context: context).run()
        figures += server.figures
        loads = server.loads
    }
    if wanted("SYNC") {
        FileHandle.standardError.write(Data("S1–S2 sync…\n".utf8))
        figures += try SyncBenchmark(context: context).run()
    }
    if only == "S1" {
        FileHandle.standardError.write(Data("S1 first sync…\n".utf8))
        figures += try SyncBenchmark(context: context).run(firstOnly: true)
    }
    if only == "S3" {
        FileHandle.standardError.write(Data("S3–S4 pushes beside another user's writes…\n".utf8))
        figures += try SyncBenchmark(context: context).contention()
    }
    if only == "SCALE" {
        FileHandle.standardError.write(Data("SCALE many users: PostgreSQL and SQLite…\n".utf8))
        figures += try ScaleBenchmark(context: context).run()
    }
    if only == "SCALE1" {
        FileHandle.standardError.write(Data("SCALE1 1,000 users on PostgreSQL…\n".utf8))
        figures += try ScaleBenchmark(context: context).run(firstOnly: true)
    }
    if wanted("WEB") {
        FileHandle.standardError.write(Data("W1–W4 web app…\n".utf8))
        figures += try WebBenchmark(context: context).run()
    }
    print(Table.render(figures))
    if !loads.isEmpty {
        print()
        print("| connections | requests/s | p50 | p99 | errors |")
        print("|---|---|---|---|---|")
        for load in loads {
            print("| \(load.connections) | \(Int(load.requestsPerSecond)) | \(Table.seconds(load.p50)) | \(Table.seconds(load.p99)) | \(load.errors) |")
        }
    }
    if !store.growth.isEmpty {
        print()
        print("| history | completions | stats, warm cache | stats --no-cache | µs per completion (--no-cache) | today, warm cache | peak memory | sqlite3 time |")
        print("|---|---|---|---|---|---|---|---|")
        for row in store.growth {
            let perRow = row.cold / Double(max(1, row.rows)) * 1e6
            print("| \(row.years) y | \(row.rows) | \(Table.seconds(row.engine.seconds)) | \(Table.seconds(row.cold)) | \(String(format: "%.2f", perRow)) | \(Table.seconds(row.today)) | \(row.peakBytes / 1_048_576) MiB | \(Table.seconds(row.baseline)) |")
        }
    }
} catch {
    FileHandle.standardError.write(Data("stackday-bench: \(error)\n".utf8))
    exit(1)
}
