import StackDay
import StackDayApplication

/// How the terminal calendar draws a day: each state its own character, so days tell apart
/// without colour (`--color never`, `NO_COLOR`, a pipe), and its own colour where colour is on.
enum CalendarMark: CaseIterable {
    case met, partly, missed, skipped, notDue, pending

    init(_ entry: HabitEntry) {
        switch entry.state {
        case .completed: self = .met
        case .skipped: self = .skipped
        case .notDue: self = .notDue
        case .missed: self = entry.progress > 0 ? .partly : .missed
        case .pending, .upcoming: self = entry.progress > 0 ? .partly : .pending
        }
    }

    var character: String {
        switch self {
        case .met: "█"
        case .partly: "▒"
        case .missed: "x"
        case .skipped: "-"
        case .notDue: "·"
        case .pending: "?"
        }
    }

    /// An xterm-256 colour.
    var colour: Int {
        switch self {
        case .met: 40
        case .partly: 178
        case .missed: 160
        case .skipped: 33
        case .notDue: 238
        case .pending: 250
        }
    }

    var label: String {
        switch self {
        case .met: "met"
        case .partly: "partly done"
        case .missed: "missed"
        case .skipped: "skipped"
        case .notDue: "not due"
        case .pending: "pending"
        }
    }

    func drawn(colour: Bool) -> String {
        colour ? "\u{1B}[38;5;\(self.colour)m\(character)\u{1B}[0m" : character
    }

    /// `█ met  ▒ partly done  x missed  - skipped  · not due  ? pending`, in `words`' language; a
    /// limit's (`limited`) says `within the limit` and `over the limit` for met and missed.
    static func legend(colour: Bool, words: Words = Words(.english), limited: Bool = false) -> String {
        allCases.map { mark in
            let label = limited && mark == .met ? "within the limit" : limited && mark == .missed ? "over the limit" : mark.label
            return "\(mark.drawn(colour: colour)) \(words[label])"
        }.joined(separator: "  ")
    }
}
