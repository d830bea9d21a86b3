/// What one user may hold on a shared store, so that no user fills it for the others: the limits
/// set here, each `UserLimit`'s standard for the rest. A server's defaults (`serve --limit`) and
/// a user's own (`stackday user limits`, kept with the user) are both values of this type; the
/// user's are laid over the server's (`overlaid(with:)`). Going over a limit stores nothing and
/// throws `UseCaseError.quotaExceeded` (code `quota_exceeded`, HTTP 429), naming the limit.
/// docs/server.md lists them.
public struct UserLimits: Sendable, Hashable {
    /// The limits set, by what they limit; the others are their standard.
    public private(set) var set: [UserLimit: Int] = [:]

    public init(_ set: [UserLimit: Int] = [:]) {
        self.set = set
    }

    /// The standard limits.
    public static let standard = UserLimits()

    /// The largest value a limit may be given.
    public static let largest = 1 << 40

    /// The limit in force for `limit`.
    public subscript(limit: UserLimit) -> Int {
        get { set[limit] ?? limit.standard }
        set { set[limit] = newValue }
    }

    /// These limits with `other`'s set ones in place of these.
    public func overlaid(with other: UserLimits) -> UserLimits {
        UserLimits(set.merging(other.set) { _, theirs in theirs })
    }

    /// These limits without `limit` set (its standard, or what they are laid over, again).
    public func clearing(_ limit: UserLimit) -> UserLimits {
        var copy = set
        copy[limit] = nil
        return UserLimits(copy)
    }

    /// Throws `quotaExceeded` when holding `count` (after the write) passes the limit.
    public func check(_ limit: UserLimit, holding count: Int) throws {
        guard count <= self[limit] else { throw UseCaseError.quotaExceeded(limit: limit.phrase, maximum: self[limit]) }
    }

    /// The limits set, as `name=value` pairs joined by commas in `UserLimit`'s order (empty when
    /// none is set): how the store keeps a user's own, and what `text(_:)` reads.
    public var text: String {
        UserLimit.allCases.compactMap { limit in set[limit].map { "\(limit.rawValue)=\($0)" } }.joined(separator: ",")
    }

    /// The limits `parts` set, each `name=value` (`--limit`, `--set`), the last of a name winning.
    public init(parts: [String]) throws {
        try self.init(text: parts.joined(separator: ","))
    }

    /// Reads `text`'s form (and one `name=value` of `--limit`); throws
    /// `UseCaseError.invalidLimit` naming the part that is not a limit and a whole number from 0
    /// to `largest`.
    public init(text: String) throws {
        for part in text.split(separator: ",", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, let limit = UserLimit(rawValue: pair[0]) else {
                throw UseCaseError.invalidLimit(text: String(part), reason: "not NAME=N with NAME one of \(UserLimit.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let value = Int(pair[1]), (0...Self.largest).contains(value) else {
                throw UseCaseError.invalidLimit(text: String(part), reason: "\(limit.rawValue) must be a whole number from 0 to \(Self.largest)")
            }
            set[limit] = value
        }
    }
}
