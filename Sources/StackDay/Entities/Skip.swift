import Foundation

/// A day the user excuses for a habit: it neither counts nor breaks a streak.
public struct Skip: Identifiable, Hashable, Sendable {
    public let id: UUID
    public let habitID: UUID
    public let day: LocalDay
    public let recordedAt: Date

    /// Without an `id`, a time-ordered one for the moment it is made (`TimeOrderedID.next()`).
    public init(id: UUID? = nil, habitID: UUID, day: LocalDay, recordedAt: Date) {
        self.id = id ?? TimeOrderedID.next()
        self.habitID = habitID
        self.day = day
        self.recordedAt = recordedAt
    }
}
