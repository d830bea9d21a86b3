/// The days of a cached evaluation one set of rules answered, and what those rules were.
public struct CachedSpan: Hashable, Sendable {
    public let days: LocalDayRange
    /// `CachedSpan.rulesKey(of:unit:)` of the revision that judged them.
    public let rulesKey: String
    /// The quota its schedule asked for; nil for a day-by-day schedule.
    public let quota: PeriodQuota?

    public init(days: LocalDayRange, rulesKey: String, quota: PeriodQuota?) {
        self.days = days
        self.rulesKey = rulesKey
        self.quota = quota
    }

    /// What a revision's answers depend on besides the day, its total and the start day: the
    /// goal, the unit, and each policy's pinned script and parameters, hashed (`FNV1a.key`; the
    /// scripts themselves are named by SHA-256). Nil while a policy is unpinned: its file may
    /// change at any time, so its answers are never kept.
    public static func rulesKey(of revision: HabitRevision, unit: String) -> String? {
        var text = "goal=\(Quantity.describe(revision.goal));unit=\(unit)"
        for role in PolicyRole.habitRoles {
            let choice = revision.choice(for: role)
            guard let sha256 = choice.sha256 else { return nil }
            text += ";\(role.rawValue)=\(choice.name)@\(sha256)\(choice.parametersJSON)"
        }
        return FNV1a.key(text)
    }
}
