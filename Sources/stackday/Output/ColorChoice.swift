import Foundation

/// `--color auto|always|never`: whether output is coloured. `auto` colours a terminal unless
/// `NO_COLOR` is set to anything (https://no-color.org); `always` and `never` decide alone.
enum ColorChoice: String, CaseIterable {
    case auto, always, never

    static let option = OptionSpec(name: "color", valueName: "auto|always|never",
                                   help: "Colour the output: auto (a terminal, unless NO_COLOR is set), always or never (default: auto).")

    /// The choice `--color` names (`auto` without it); a usage error for any other word.
    init(_ invocation: Invocation) throws {
        guard let text = invocation.option("color") else { self = .auto; return }
        guard let choice = ColorChoice(rawValue: text) else {
            throw invocation.usage("invalid value for --color: '\(text)' (use auto, always or never)")
        }
        self = choice
    }

    func colours(terminal: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: terminal && (environment["NO_COLOR"] ?? "").isEmpty
        }
    }
}
