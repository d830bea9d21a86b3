import Foundation
import StackDay

/// What `group add` and `group edit` both take: the members, the group rule and the streak rule
/// with their parameters, and the day they take effect. Each is nil when not given.
public struct GroupRuleFields: Sendable {
    public static let members = RequestField<[String]>.texts(
        "members", help: "The member habits in order: names joined by commas on the command line, a list in JSON.",
        valueName: "A,B", limit: GroupRevision.memberLimit)
    public static let rule = RequestField<String>.text("rule", help: "The group rule, a policy defining group(members, params, day) (default: all).",
                                                       valueName: "policy")
    public static let ruleParams = RequestField<[String: JSONValue]>.object("ruleParams", help: "Parameters for the group rule, a JSON object.")
    public static let streak = RequestField<String>.text("streak", help: "The streak policy over the group's days (default: strict).", valueName: "policy")
    public static let streakParams = RequestField<[String: JSONValue]>.object("streakParams", help: "Parameters for the streak policy, a JSON object.")
    public static let from = RequestField<LocalDay>.day(
        "from", help: "The first day the members and rules judge, YYYY-MM-DD (default: the earliest member's start for a new group, today for an edit).")

    public static let fields = [members.declaration, rule.declaration, ruleParams.declaration, streak.declaration, streakParams.declaration,
                                from.declaration]

    public var members: [String]?
    public var rule: PolicyChoice?
    public var ruleParameters: [String: JSONValue]?
    public var streak: PolicyChoice?
    public var streakParameters: [String: JSONValue]?
    public var from: LocalDay?

    public init(_ fields: RequestFields) throws {
        // The command line joins names with commas; JSON lists them, so a name there may hold one.
        members = try fields[Self.members].map { given in
            fields.naming.isHTTP ? given
                : given.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        }
        ruleParameters = try fields[Self.ruleParams]
        streakParameters = try fields[Self.streakParams]
        rule = try fields[Self.rule].map { PolicyChoice(name: $0, parameters: ruleParameters ?? [:]) }
        streak = try fields[Self.streak].map { PolicyChoice(name: $0, parameters: streakParameters ?? [:]) }
        from = try fields[Self.from]
    }

    /// Whether any rule field was given.
    public var changesRules: Bool { members != nil || rule != nil || ruleParameters != nil || streak != nil || streakParameters != nil }
}
