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
    /// What the person wrote about it ("ran in the rain"), as written; nil when nothing was.
    public let note: String?

    /// The most characters a note holds.
    public static let noteLimit = 1000

    /// Without an `id`, a time-ordered one for the moment it is made (`TimeOrderedID.next()`). An empty note is no note. A note keeps its text as given (line breaks included, so that an
    /// export round-trips it) but may not hold NUL or more than `noteLimit` characters.
    public init(id: UUID? = nil, habitID: UUID, completedOn: LocalDay, recordedAt: Date, amount: Double = 1, note: String? = nil)
        throws(HabitValidationError)
    {
        guard let thousandths = Quantity.thousandths(amount) else { throw .invalidAmount(amount) }
        guard completedOn.isSupported else { throw .dayOutOfRange(completedOn) }
        let note = note.flatMap { $0.isEmpty ? nil : $0 }
        if let note {
            guard note.count <= Self.noteLimit else { throw .noteTooLong(length: note.count, limit: Self.noteLimit) }
            guard !note.utf8.contains(0) else { throw .nulInNote }
        }
        self.id = id ?? TimeOrderedID.next()
        self.habitID = habitID
        self.completedOn = completedOn
        self.recordedAt = recordedAt
        self.amount = Quantity.value(thousandths: thousandths)
        self.note = note
    }

    /// The amount in thousandths of the unit, the exact form totals are summed in.
    public var amountThousandths: Int64 { Quantity.roundedThousandths(amount) }
}
