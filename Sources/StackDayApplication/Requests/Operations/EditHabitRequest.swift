import Foundation
import StackDay

/// `habit edit`, `habit rename`, `PATCH /v1/habits/{name}`: a new name, start or unit, and new
/// rules judging days from `from` (default today), or from the start with `retroactive`.
public struct EditHabitRequest: RequestType {
    public static let name = RequestField<String>.text("name", help: "The new name.").httpOnly

    /// What is not given stays as it is.
    public static let fields = HabitRules.fields.map {
        $0.helping($0.help.replacingOccurrences(of: #" \(default: [^)]*\)"#, with: " (default: unchanged)", options: .regularExpression))
    } + RulesFromRequest.fields + [name.declaration]

    public var name: String?
    public var rules: HabitRules
    /// The first day new rules judge.
    public var rulesFrom: RulesFromRequest
    public var naming: FieldNaming

    public init(name: String? = nil, rules: HabitRules = HabitRules(), rulesFrom: RulesFromRequest = RulesFromRequest(), naming: FieldNaming = FieldNaming(http: true)) {
        self.name = name
        self.rules = rules
        self.rulesFrom = rulesFrom
        self.naming = naming
    }

    public init(_ fields: RequestFields) throws {
        self.init(name: try fields[Self.name], rules: try HabitRules(fields), rulesFrom: try RulesFromRequest(fields), naming: fields.naming)
    }
}
