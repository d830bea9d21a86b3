/// Evaluations handed to a resolver ahead of reading their answers
/// (`PolicyResolver.evaluationQueue()`), so that its work, in another process, runs while the
/// reader reads the next habit's history and builds the last one's timeline. Answers come back
/// in the order the evaluations were submitted.
///
/// Used by one thread, for one read, then closed.
public protocol EvaluationQueue: AnyObject {
    /// Hands one evaluation over and returns without waiting for it. Throws what resolving the
    /// habit's scripts throws; nothing was submitted then.
    func submit(_ request: EvaluationRequest, scripts: any PolicyScriptRepository) throws

    /// The answer of the oldest evaluation submitted and not yet taken; throws what its policies
    /// threw (or what ended the work they ran in).
    func next() throws -> BatchEvaluation

    /// Ends the queue; evaluations still submitted are abandoned.
    func close()
}
