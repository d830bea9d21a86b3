import StackDay

/// Writes an export (CSV or JSON) a part at a time, as `ExportArchive.stream` hands the parts
/// over, to `emit`: what `encode` returns, byte for byte, without holding the archive or its
/// text. JSON writes one record per line, which keeps large exports readable and diffable.
public struct ArchiveWriter {
    private enum Section { case start, completions, skips, done }
    private let format: ArchiveFormat
    private let emit: (String) throws -> Void
    private var section = Section.start
    private var scripts: [PolicyScript] = []
    /// JSON: the last item of the open list, written once it is known whether a comma follows.
    private var pending: String?

    /// `format` must be `csv` or `json`.
    public init(format: ArchiveFormat, emit: @escaping (String) throws -> Void) {
        precondition(format != .loop, "Loop's export is read, not written")
        self.format = format
        self.emit = emit
    }

    /// The whole of `archive` as one text.
    public static func text(_ archive: HabitArchive, format: ArchiveFormat) -> String {
        var text = ""
        var writer = ArchiveWriter(format: format) { text += $0 }
        // Appending to a String cannot fail.
        try? writer.write(.catalog(habits: archive.habits, scripts: archive.scripts, groups: archive.groups))
        try? writer.write(.completions(archive.completions))
        try? writer.write(.skips(archive.skips))
        try? writer.finish()
        return text
    }

    /// The next part: the catalog first, then completions, then skips (in that order).
    public mutating func write(_ part: ArchivePart) throws {
        switch part {
        case .catalog(let habits, let scripts, let groups):
            precondition(section == .start, "the catalog comes first")
            self.scripts = scripts
            if format == .csv {
                let lines = [ArchiveCSV.headerLine] + habits.map(ArchiveCSV.habitLines) + habits.flatMap(ArchiveCSV.revisionLines)
                    + groups.flatMap(ArchiveCSV.groupLines)
                try emit(lines.joined(separator: "\n") + "\n")
            } else {
                try emit("{\"format\":\"stackday\",\"version\":\(ArchiveJSON.version),\n")
                try list("habits", habits.map { ArchiveJSON.habitValue($0).jsonText }, last: false)
                if !groups.isEmpty { try list("groups", groups.map { ArchiveJSON.groupValue($0).jsonText }, last: false) }
                try emit("\"completions\":[\n")
            }
            section = .completions
        case .completions(let completions):
            precondition(section == .completions, "completions come after the catalog and before skips")
            for completion in completions {
                try item(format == .csv ? ArchiveCSV.completionLine(completion) : ArchiveJSON.completionValue(completion).jsonText)
            }
        case .skips(let skips):
            precondition(section != .start && section != .done, "skips come after the catalog")
            if section == .completions {
                try close(last: false)
                if format == .json { try emit("\"skips\":[\n") }
                section = .skips
            }
            for skip in skips { try item(format == .csv ? ArchiveCSV.skipLine(skip) : ArchiveJSON.skipValue(skip).jsonText) }
        }
    }

    /// Writes what follows the records (CSV's script rows; JSON's skips, scripts and closing brace).
    public mutating func finish() throws {
        precondition(section != .start && section != .done, "nothing was written")
        if section == .completions {
            try close(last: false)
            if format == .json { try emit("\"skips\":[\n") }
        }
        try close(last: false)
        if format == .csv {
            if !scripts.isEmpty { try emit(scripts.map(ArchiveCSV.scriptLine).joined(separator: "\n") + "\n") }
        } else {
            try list("scripts", scripts.map { ArchiveJSON.scriptValue($0).jsonText }, last: true)
            try emit("}\n")
        }
        section = .done
    }

    /// One record: a CSV row at once; a JSON line when the next one (or the list's end) is known.
    private mutating func item(_ text: String) throws {
        guard format == .json else { return try emit(text + "\n") }
        if let pending { try emit(pending + ",\n") }
        pending = text
    }

    /// Ends the open JSON list (`]`, then `,` unless `last`).
    private mutating func close(last: Bool) throws {
        guard format == .json else { return }
        if let pending { try emit(pending + "\n") }
        pending = nil
        try emit(last ? "]\n" : "],\n")
    }

    /// A whole JSON list, one item a line.
    private mutating func list(_ key: String, _ items: [String], last: Bool) throws {
        try emit("\"\(key)\":[\n")
        for item in items { try self.item(item) }
        try close(last: last)
    }
}
