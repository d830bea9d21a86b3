import Foundation

/// Loads what a habit's timeline needs from the store and builds it: the one place
/// completions and skips become per-day entries, and the one place cached answers are reused.
struct TimelineLoader {
    let context: HabitContext

    /// How many habits `evaluateEach` hands a resolver's queue ahead of the one it builds.
    static let lookahead = 8

    /// Reads the habit's history, then runs `body` on its evaluation.
    ///
    /// With the evaluation cache on, the answers still valid in the store's cache are reused, only
    /// the days after them are read and asked of the policies, and the extended answers are staged
    /// for the store to keep. Store errors are thrown; anything thrown while resolving or running
    /// the habit's policies (including inside `body`) becomes this habit's `HabitFailure`, so other
    /// habits carry on, and caches nothing. Pinned scripts are read from `scripts` (default: the
    /// transaction's; a simulation's overlay is never cached).
    func evaluate<T>(
        _ habit: Habit, today: LocalDay, through: LocalDay? = nil, in tx: any HabitTransaction,
        scripts: (any PolicyScriptRepository)? = nil,
        _ body: (EvaluatedHabit) throws -> T
    ) throws -> Result<T, HabitFailure> {
        let pending = try prepare(habit, today: today, through: through, in: tx, scripts: scripts)
        let batch = pending.request.map { request in Result { try context.policies.evaluate(request, scripts: pending.scripts) } }
        return finish(pending, batch: batch ?? .success(nil), in: tx, body)
    }

    /// `evaluate` for each of `habits`, in order. A resolver with an evaluation queue (policies
    /// run in another process) is handed the next habits' work while this thread builds the
    /// earlier ones', a few habits ahead: the two overlap instead of waiting on each other.
    func evaluateEach<T>(
        _ habits: [Habit], today: LocalDay, through: LocalDay? = nil, in tx: any HabitTransaction,
        _ body: (Habit, EvaluatedHabit) throws -> T
    ) throws -> [Result<T, HabitFailure>] {
        guard habits.count > 1, let queue = context.policies.evaluationQueue() else {
            return try habits.map { habit in try evaluate(habit, today: today, through: through, in: tx) { try body(habit, $0) } }
        }
        defer { queue.close() }
        // Each habit read and not yet built, with whether its evaluation went to the queue.
        var waiting: [(pending: Pending, submitted: Result<Bool, any Error>)] = []
        var results: [Result<T, HabitFailure>] = []
        results.reserveCapacity(habits.count)
        func buildFirst() {
            let (pending, submitted) = waiting.removeFirst()
            let batch = submitted.flatMap { sent in Result { sent ? try queue.next() : nil } }
            results.append(finish(pending, batch: batch, in: tx) { try body(pending.habit, $0) })
        }
        for habit in habits {
            let pending = try prepare(habit, today: today, through: through, in: tx, scripts: nil)
            let submitted = Result { () throws -> Bool in
                guard let request = pending.request else { return false }
                try queue.submit(request, scripts: pending.scripts)
                return true
            }
            waiting.append((pending, submitted))
            if waiting.count > Self.lookahead { buildFirst() }
        }
        while !waiting.isEmpty { buildFirst() }
        return results
    }

    /// A habit between reading its history and building its timeline.
    private struct Pending {
        let habit: Habit
        let today: LocalDay
        let period: LocalDayRange
        let cache: (any EvaluationCacheRepository)?
        let cached: CachedEvaluation?
        let known: TimelineAnswers?
        let totals: [(day: LocalDay, thousandths: Int64)]
        let skips: [Skip]
        /// The streak kept for today, when no day after the kept answers has elapsed.
        let streak: HabitStreak?
        let scripts: any PolicyScriptRepository

        /// What to ask a resolver that evaluates a period in one piece of work; nil when every
        /// answer and the streak are known.
        var request: EvaluationRequest? {
            guard (known?.count ?? 0) < period.count || streak == nil else { return nil }
            return EvaluationRequest(habit: habit, dailyTotals: totals, skips: skips, today: today, period: period, known: known,
                                     needsStreak: streak == nil)
        }
    }

    /// Reads what `habit`'s evaluation needs: the answers kept for it, and the totals and skips of
    /// the days after them. Throws store errors.
    private func prepare(
        _ habit: Habit, today: LocalDay, through: LocalDay?, in tx: any HabitTransaction, scripts: (any PolicyScriptRepository)?
    ) throws -> Pending {
        let period = HabitTimelineBuilder.period(of: habit, today: today, through: through)
        let cache = scripts == nil && !period.isEmpty ? cache(in: tx) : nil
        let cached = try cache?.evaluation(habitID: habit.id)
        let known = cached.flatMap { Self.validAnswers($0, habit: habit, period: period, evaluator: context.policies.evaluationKey) }
        let knownCount = known?.count ?? 0
        var totals: [(day: LocalDay, thousandths: Int64)] = []
        var skips: [Skip] = []
        if knownCount < period.count {
            let rest = LocalDayRange(period[knownCount], period.last)
            totals = try tx.completions.dailyTotals(habitID: habit.id, in: rest)
            skips = try tx.skips.skips(habitID: habit.id, in: rest)
        }
        let elapsedKnown = period.first.adding(days: knownCount - 1) >= min(today, period.last)
        let streak = elapsedKnown && cached?.summary?.asOf == today ? cached?.summary?.streak : nil
        return Pending(habit: habit, today: today, period: period, cache: cache, cached: cached, known: known, totals: totals, skips: skips,
                       streak: streak, scripts: scripts ?? tx.scripts)
    }

    /// Builds `pending`'s timeline (from `batch` when a resolver evaluated it in one piece of
    /// work, else by asking its policies day by day), runs `body` on it and stages what the cache
    /// should keep.
    private func finish<T>(
        _ pending: Pending, batch: Result<BatchEvaluation?, any Error>, in tx: any HabitTransaction, _ body: (EvaluatedHabit) throws -> T
    ) -> Result<T, HabitFailure> {
        let habit = pending.habit, today = pending.today, cached = pending.cached
        do {
            let policies = RevisionPolicies(habit: habit, resolver: context.policies, scripts: pending.scripts)
            var start = (known: pending.known, totals: pending.totals, skips: pending.skips)
            var streak = pending.streak
            // A resolver that runs policies elsewhere answered the whole period in one piece of
            // work; the builder then asks no policy (every day is known).
            if let evaluated = try batch.get() {
                start = (evaluated.answers, [], [])
                streak = streak ?? evaluated.streak
            }
            let (timeline, answers) = try HabitTimelineBuilder(policies: policies).build(
                habit: habit, dailyTotals: start.totals, skips: start.skips, today: today, through: pending.period.last, known: start.known
            )
            let evaluated = EvaluatedHabit(timeline: timeline, policies: policies, streak: streak)
            let value = try body(evaluated)
            if let cache = pending.cache {
                let evaluator = context.policies.evaluationKey
                let generation = try cached?.generation ?? cache.generation(habitID: habit.id)
                // Statistics kept earlier today stay with a streak computed again (by a report).
                let earlier = cached?.summary?.asOf == today ? cached?.summary?.statistics : nil
                // Figures are as of the timeline's last day: a timeline read past today (a week's
                // report, a calendar to the month's end) holds an open quota period as of that
                // later day, which no read of today may be given.
                let summary = pending.period.last > today ? nil : evaluated.knownStreak.map {
                    CachedSummary(asOf: today, streak: $0, statistics: evaluated.keptStatistics ?? earlier, today: timeline.entry(on: today),
                                  quota: timeline.quota, period: timeline.openPeriod)
                }
                if let row = Self.row(habit: habit, answers: answers, evaluator: evaluator, summary: summary, generation: generation, today: today),
                   row.count > (pending.known?.count ?? 0) || (row.summary != nil && row.summary != cached?.summary) {
                    cache.stage(row)
                }
            }
            return .success(value)
        } catch let error as HabitFailure {
            return .failure(error)
        } catch {
            return .failure(HabitFailure(habit: habit, underlying: error))
        }
    }

    /// The store's evaluation cache when this context uses one and its resolver's answers can be
    /// kept (an empty `evaluationKey` means they cannot).
    func cache(in tx: any HabitTransaction) -> (any EvaluationCacheRepository)? {
        context.usesEvaluationCache && !context.policies.evaluationKey.isEmpty ? tx.evaluations : nil
    }

    /// Today's figures of each habit straight from the cache, read at once, when it holds them for
    /// `today` (no timeline is built); the habits it holds no figures for today are left out.
    func cachedSummaries(_ habits: [Habit], today: LocalDay, in tx: any HabitTransaction) throws -> [UUID: HabitSummary] {
        guard let cache = cache(in: tx), !habits.isEmpty else { return [:] }
        let cached = try cache.summaries(habitIDs: habits.map(\.id), evaluator: context.policies.evaluationKey)
        var found: [UUID: HabitSummary] = [:]
        for habit in habits { found[habit.id] = Self.summary(cached[habit.id], of: habit, today: today) }
        return found
    }

    private static func summary(_ summary: CachedSummary?, of habit: Habit, today: LocalDay) -> HabitSummary? {
        guard let summary, summary.asOf == today, let statistics = summary.statistics else { return nil }
        return HabitSummary(habit: habit, statistics: statistics, today: summary.today, asOf: today, quota: summary.quota, period: summary.period)
    }

    /// The cached answers still valid for `period`: from its first day, under the same engine
    /// and start day, up to the row's `validThrough` and the last day whose rules are the ones
    /// the row was computed under. Nil when none are.
    static func validAnswers(_ cached: CachedEvaluation, habit: Habit, period: LocalDayRange, evaluator: String) -> TimelineAnswers? {
        guard cached.evaluator == evaluator, cached.firstDay == period.first, cached.isConsistent,
              let validThrough = cached.validThrough, validThrough >= period.first
        else { return nil }
        var last = min(validThrough, period.last)
        // Walk the habit's current spans against the cached ones; the first day judged by other
        // rules ends the valid prefix.
        var cachedSpans = cached.spans[...]
        outer: for span in habit.revisionSpans(in: LocalDayRange(period.first, last)) {
            guard let key = CachedSpan.rulesKey(of: span.revision, unit: habit.unit) else {
                last = span.days.first.adding(days: -1)
                break
            }
            var day = span.days.first
            while day <= span.days.last {
                while let first = cachedSpans.first, first.days.last < day { cachedSpans = cachedSpans.dropFirst() }
                guard let cachedSpan = cachedSpans.first, cachedSpan.rulesKey == key else {
                    last = day.adding(days: -1)
                    break outer
                }
                day = cachedSpan.days.last.adding(days: 1)
            }
        }
        let count = period.first.days(to: last) + 1
        guard count > 0 else { return nil }
        return TimelineAnswers(
            due: Array(cached.due.prefix(count)), progress: Array(cached.progress.prefix(count)),
            thousandths: Array(cached.thousandths.prefix(count)), skipped: Array(cached.skipped.prefix(count)),
            spans: cached.spans.map(Optional.some)
        )
    }

    /// Whether the cache can keep `habit`'s figures for `today`: it has begun, and every rule
    /// that judges a day up to today is pinned to its scripts (`row` keeps no day after the
    /// first span that is not, and figures only with every day up to theirs).
    static func keepsFigures(of habit: Habit, today: LocalDay) -> Bool {
        habit.startedOn <= today && habit.revisionSpans(in: LocalDayRange(habit.startedOn, today)).allSatisfy {
            CachedSpan.rulesKey(of: $0.revision, unit: habit.unit) != nil
        }
    }

    /// The row to keep for `answers`: every day up to the first span whose rules are not pinned,
    /// and none after `today` (a read of later days computes them and drops them, so a read far
    /// ahead never grows the store).
    static func row(
        habit: Habit, answers: TimelineAnswers, evaluator: String, summary: CachedSummary?, generation: Int64, today: LocalDay
    ) -> CachedEvaluation? {
        var spans: [CachedSpan] = []
        for span in answers.spans {
            guard let span, span.days.first <= today else { break }
            guard span.days.last > today else {
                spans.append(span)
                continue
            }
            spans.append(CachedSpan(days: LocalDayRange(span.days.first, today), rulesKey: span.rulesKey, quota: span.quota))
            break
        }
        guard let last = spans.last?.days.last, let first = spans.first?.days.first else { return nil }
        let count = first.days(to: last) + 1
        // Figures are kept only when every day up to the day they are for is.
        let keepsSummary = summary.map { last >= $0.asOf } ?? false
        return CachedEvaluation(
            habitID: habit.id, evaluator: evaluator, firstDay: first, spans: spans,
            due: Array(answers.due.prefix(count)), skipped: Array(answers.skipped.prefix(count)),
            progress: Array(answers.progress.prefix(count)), thousandths: Array(answers.thousandths.prefix(count)),
            validThrough: last, summary: keepsSummary ? summary : nil, generation: generation
        )
    }
}
