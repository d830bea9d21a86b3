import Foundation
import StackDayApplication

/// `--color auto|always|never`: whether output is coloured. `auto` colours a terminal unless
/// `NO_COLOR` is set to anything (https://no-color.org); `always` and `never` decide alone.
enum ColorChoice: String, CaseIterable {
    case auto, always, never

    static let option = RequestField<String>.choice(
        "color", among: allCases.map(\.rawValue), help: "Colour the output: auto (a terminal, unless NO_COLOR is set), always or never (default: auto).",
        valueName: "auto|always|never"
    ).commandLineOnly.map { ColorChoice(rawValue: $0)! }

    /// The choice `--color` names (`auto` without it); a usage error for any other word.
    init(_ invocation: Invocation) throws {
        self = try invocation[Self.option] ?? .auto
    }

    func colours(terminal: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: terminal && (environment["NO_COLOR"] ?? "").isEmpty
        }
    }
}
