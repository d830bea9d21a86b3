import StackDay
import StackDayApplication

extension Invocation {
    /// The options, flags and arguments as the application's `RequestFields`: `--schedule-params`
    /// under `scheduleParams`, an argument `<amount>` under `amount`; `habit` names the argument
    /// that is the habit itself, left out. Messages name each as it was typed.
    func fields(habit: String? = "name") -> RequestFields {
        var values: [String: RequestFields.Value] = [:]
        var labels: [String: String] = [:]
        for (name, value) in options where !Self.terminalOnly.contains(name) {
            // A repeatable option given several times (`--remind 08:00 --remind 21:00`): every value, in order.
            let all = repeatable.contains(name) ? optionLists[name] ?? [value] : [value]
            values[Self.key(name)] = all.count > 1 ? .json(.array(all.map(JSONValue.string))) : .text(value)
            labels[Self.key(name)] = "--\(name)"
        }
        for name in flags where !Self.terminalOnly.contains(name) {
            values[Self.key(name)] = .json(.bool(true))
            labels[Self.key(name)] = "--\(name)"
        }
        for (name, value) in arguments where name != habit {
            values[Self.key(name)] = .text(value)
            labels[Self.key(name)] = "<\(name)>"
        }
        return RequestFields(values: values, labels: labels)
    }

    /// Options about how the command line prints or asks, never part of the request.
    static let terminalOnly: Set<String> = ["color", "yes"]

    /// `schedule-params` → `scheduleParams`.
    static func key(_ option: String) -> String {
        let parts = option.split(separator: "-")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }
}
