import Foundation

/// Where a store keeps what policies answered for each habit (see `CachedEvaluation`).
///
/// Reads stage rows; the store writes them after the transaction, and only for habits no write
/// touched in between. Writes to completions, skips and habits invalidate the rows themselves.
public protocol EvaluationCacheRepository: AnyObject {
    /// The habit's cached answers, nil when there are none or the row fails its checks. The
    /// value's `generation` is the habit's current change counter.
    func evaluation(habitID: UUID) throws -> CachedEvaluation?
    /// Only the habit's cached figures (without its days), when they were computed under `evaluator`.
    func summary(habitID: UUID, evaluator: String) throws -> CachedSummary?
    /// The cached figures of each of `habitIDs` that has them under `evaluator`: what `summary`
    /// answers one by one, which a store may read at once.
    func summaries(habitIDs: [UUID], evaluator: String) throws -> [UUID: CachedSummary]
    /// The habit's change counter (0 for one never written since it was created).
    func generation(habitID: UUID) throws -> Int64
    /// Keeps `evaluation` for the store to write once the transaction ends.
    func stage(_ evaluation: CachedEvaluation)
    /// The group's cached days and figures when they were computed under `evaluator` from what
    /// `key` names (`CachedGroup.key`); nil otherwise or when the row fails its checks.
    func group(id: UUID, evaluator: String, key: String) throws -> CachedGroup?
    /// Keeps `group` for the store to write once the transaction ends.
    func stage(group: CachedGroup)
}

extension EvaluationCacheRepository {
    /// One at a time.
    public func summaries(habitIDs: [UUID], evaluator: String) throws -> [UUID: CachedSummary] {
        var found: [UUID: CachedSummary] = [:]
        for id in habitIDs { found[id] = try summary(habitID: id, evaluator: evaluator) }
        return found
    }
}
