import Foundation

/// One record of doing a habit: an amount counted for a day.
///
/// Its identity is its id: a quantity habit has several completions on one day.
/// Whether the day may be recorded (not in the future, inside the tracking period) is the use case's check.
public struct Completion: Identifiable, Hashable, Sendable {
    public let id: UUID
    public let habitID: UUID
    /// The day it counts for.
    public let completedOn: LocalDay
    /// When it was recorded.
    public let recordedAt: Date
    /// A finite amount ≥ 0.001 in the habit's unit, kept to thousandths.
    public let amount: Double

    public init(id: UUID = UUID(), habitID: UUID, completedOn: LocalDay, recordedAt: Date, amount: Double = 1)
        throws(HabitValidationError)
    {
        guard let thousandths = Quantity.thousandths(amount) else { throw .invalidAmount(amount) }
        guard completedOn.isSupported else { throw .dayOutOfRange(completedOn) }
        self.id = id
        self.habitID = habitID
        self.completedOn = completedOn
        self.recordedAt = recordedAt
        self.amount = Quantity.value(thousandths: thousandths)
    }

    /// The amount in thousandths of the unit, the exact form totals are summed in.
    public var amountThousandths: Int64 { Quantity.roundedThousandths(amount) }
}
