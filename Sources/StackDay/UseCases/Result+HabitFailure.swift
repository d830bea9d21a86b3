extension Result where Failure == HabitFailure {
    /// The failure, or nil for a success.
    public var failure: HabitFailure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}

extension Sequence {
    /// The failures among per-habit results, in order.
    public func failures<Value>() -> [HabitFailure] where Element == Result<Value, HabitFailure> {
        compactMap(\.failure)
    }
}
