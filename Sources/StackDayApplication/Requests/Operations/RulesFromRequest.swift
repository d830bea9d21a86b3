import StackDay

/// The first day new rules judge: `from` (default today), or the start day with `retroactive`;
/// what `habit edit` and `policy upgrade` take.
public struct RulesFromRequest: RequestType {
    public static let from = RequestField<LocalDay>.day("from", help: "The first day the new rules judge (default: today).")
    public static let retroactive = RequestField<Bool>.flag("retroactive", help: "Judge the whole history by the new rules, from the start day.")
    public static let fields = [from.declaration, retroactive.declaration]

    public var start: RevisionStart
    /// Whether `from` or `retroactive` was given.
    public var isGiven: Bool

    public init(_ start: RevisionStart = .today) {
        self.start = start
        isGiven = start != .today
    }

    public init(_ fields: RequestFields) throws {
        let from = try fields[Self.from], retroactive = try fields[Self.retroactive] ?? false
        if from != nil && retroactive { throw RequestError("\(fields.label(Self.from)) and \(fields.label(Self.retroactive)) cannot be used together") }
        self.init(retroactive ? .retroactive : from.map(RevisionStart.day) ?? .today)
        isGiven = from != nil || retroactive
    }
}
