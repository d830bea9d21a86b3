import Foundation
import StackDay

/// `habit edit`, `habit rename`, `PATCH /v1/habits/{name}`: a new name, start, unit, colour, step
/// or place, and new rules judging days from `from` (default today), or from the start with
/// `retroactive`.
public struct EditHabitRequest: RequestType {
    public static let name = RequestField<String>.text("name", help: "The new name.").httpOnly
    /// The command line moves a habit with `habit move`.
    public static let position = RequestField<Int>.integer("position", in: 1...Habit.positionLimit, what: "a place in the list counted from 1",
                                                           help: "A new place in the list, counted from 1 (past the end: last).").httpOnly

    /// What is not given stays as it is.
    public static let fields = (HabitRules.fields + HabitDisplay.fields).map { $0.helping(unchangedDefaults($0.help)) }
        + RulesFromRequest.fields + [name.declaration, position.declaration]

    /// A field's help with each "(default: …)" said as "(default: unchanged)": an edit leaves
    /// what it does not name as it is. Plain string search: every command builds these at start,
    /// and a regular expression would load ICU's pattern engine into each of them.
    static func unchangedDefaults(_ help: String) -> String {
        let bytes = Array(help.utf8), marker = Array(" (default: ".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: marker), let end = bytes[(index + marker.count)...].firstIndex(of: UInt8(ascii: ")")) {
                out += Array(" (default: unchanged)".utf8)
                index = end + 1
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var name: String?
    public var rules: HabitRules
    public var display: HabitDisplay
    public var position: Int?
    /// The first day new rules judge.
    public var rulesFrom: RulesFromRequest
    public var naming: FieldNaming

    public init(name: String? = nil, rules: HabitRules = HabitRules(), display: HabitDisplay = HabitDisplay(), position: Int? = nil,
                rulesFrom: RulesFromRequest = RulesFromRequest(), naming: FieldNaming = FieldNaming(http: true)) {
        self.name = name
        self.rules = rules
        self.display = display
        self.position = position
        self.rulesFrom = rulesFrom
        self.naming = naming
    }

    public init(_ fields: RequestFields) throws {
        self.init(name: try fields[Self.name], rules: try HabitRules(fields), display: try HabitDisplay(fields), position: try fields[Self.position],
                  rulesFrom: try RulesFromRequest(fields), naming: fields.naming)
    }
}
