/// A run of consecutive days, both ends included; empty when `last` is before `first`.
public struct LocalDayRange: Sequence, Hashable, Sendable {
    public let first: LocalDay
    public let last: LocalDay

    public init(_ first: LocalDay, _ last: LocalDay) {
        self.first = first
        self.last = last
    }

    public init(_ range: ClosedRange<LocalDay>) {
        self.init(range.lowerBound, range.upperBound)
    }

    /// The number of days, 0 when empty.
    public var count: Int { Swift.max(0, first.days(to: last) + 1) }
    public var isEmpty: Bool { last < first }

    public func contains(_ day: LocalDay) -> Bool { first <= day && day <= last }

    /// The day at a zero-based offset from `first`.
    public subscript(offset: Int) -> LocalDay { first.adding(days: offset) }

    /// The overlap with another range (possibly empty).
    public func clamped(to other: LocalDayRange) -> LocalDayRange {
        LocalDayRange(Swift.max(first, other.first), Swift.min(last, other.last))
    }

    public func makeIterator() -> Iterator { Iterator(upcoming: first.ordinal, end: last.ordinal) }

    public struct Iterator: IteratorProtocol {
        var upcoming: Int
        let end: Int
        public mutating func next() -> LocalDay? {
            guard upcoming <= end else { return nil }
            defer { upcoming += 1 }
            return LocalDay(uncheckedOrdinal: upcoming)
        }
    }
}
