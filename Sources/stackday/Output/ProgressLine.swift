import Foundation

/// The progress line of long work (import, export): on stderr, rewritten in place at most ten
/// times a second, with the count done, the rate and, where the total is known, a bar and the
/// time left. Nothing is written unless stderr is a terminal, nor with `--quiet`.
final class ProgressLine {
    private let io: TerminalIO
    private let label: String
    private let unit: String
    private let started: Double
    private var lastWritten: Double?
    private var wrote = false
    private let shown: Bool

    /// `shown` false keeps the line off even on a terminal.
    init(io: TerminalIO, label: String, unit: String = "records", shown: Bool = true) {
        self.io = io
        self.shown = shown
        self.label = label
        self.unit = unit
        started = Self.seconds()
    }

    /// Says what is under way before there is a count (reading a file through once).
    func status(_ text: String) {
        guard shown, io.showsProgress else { return }
        io.progress("\(label): \(text)")
        wrote = true
    }

    /// `done` of `total` (nil when not known yet).
    func update(_ done: Int, of total: Int?) {
        guard shown, io.showsProgress else { return }
        let now = Self.seconds()
        let finished = total.map { done >= $0 } ?? false
        if let lastWritten, now - lastWritten < 0.1, !finished { return }
        lastWritten = now
        io.progress(Self.text(label: label, unit: unit, done: done, total: total, elapsed: now - started))
        wrote = true
    }

    /// Clears the line, so that what is printed next starts on a clean one.
    func end() {
        if wrote { io.endProgress() }
    }

    /// `importing ▕███████▁▁▁▏  70%  700,000/1,000,000 records · 120,000/s · 3 s left`; without a
    /// total, `exporting 700,000 records · 120,000/s`.
    static func text(label: String, unit: String, done: Int, total: Int?, elapsed: Double) -> String {
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let speed = rate > 0 ? " · \(grouped(Int(rate.rounded())))/s" : ""
        guard let total, total > 0 else { return "\(label) \(grouped(done)) \(unit)\(speed)" }
        let fraction = min(1, Double(done) / Double(total))
        let percent = String(Int((fraction * 100).rounded(.down)))
        var text = "\(label) ▕\(Format.bar(fraction, width: 24))▏ \(String(repeating: " ", count: 3 - percent.count))\(percent)%  \(grouped(done))/\(grouped(total)) \(unit)\(speed)"
        if rate > 0, done < total { text += " · \(duration(Double(total - done) / rate)) left" }
        return text
    }

    /// `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }

    /// `42 s`, `3 min 5 s`, `1 h 2 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }

    private static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
