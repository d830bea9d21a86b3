/// Computes every habit's figures once and leaves them in the store's evaluation cache (a read
/// stages them; the store writes them after it), so that the next read is a cache read: what an
/// import and a device's first push run before they answer, instead of leaving a first evaluation
/// of the whole history to the user's first page. Nothing for a context that keeps no cache; a
/// habit whose policy fails is left to its first read, which reports it. A habit whose figures
/// the cache cannot keep (a rule not pinned to its scripts) is left to its reads too: evaluated
/// here, it would be evaluated after every push again for nothing.
public struct PrepareFigures {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    public func callAsFunction() {
        guard context.usesEvaluationCache else { return }
        let today = context.today
        _ = try? context.store.read { tx in
            guard tx.evaluations != nil else { return [] }
            return try SummarizeHabits(context: context).summaries(of: try tx.habits.all().filter { TimelineLoader.keepsFigures(of: $0, today: today) }, in: tx)
        }
    }
}
