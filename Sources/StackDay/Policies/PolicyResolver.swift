import Foundation

/// Turns the policy choices of a habit's revisions into policies, and policy names into scripts.
public protocol PolicyResolver {
    /// The policies of one revision of `habit`. A pinned choice runs the script `scripts` holds
    /// under its hash, never the file its name resolves to now. Throws for an unknown name, a
    /// missing or altered script, or parameters the policy rejects, so creating or editing a
    /// habit can refuse them before anything is stored.
    func policies(for habit: Habit, revision: HabitRevision, scripts: any PolicyScriptRepository) throws -> HabitPolicies

    /// The script `name` resolves to now (the policy folder, then the built-ins), stamped `now`;
    /// nil for a resolver whose policies are not scripts.
    func currentScript(named name: String, at now: Date) throws -> PolicyScript?

    /// Loads `script` and runs its examples; throws `PolicyRefusal` listing each failure.
    func vet(_ script: PolicyScript) throws

    /// What, besides a revision's pinned scripts and parameters, decides its answers (the engine
    /// that runs them): cached answers are reused only under the same key. Empty: answers are
    /// never cached.
    var evaluationKey: String { get }

    /// The parameters the policy of `choice` takes (its pinned script when it has a hash, else the
    /// one its name resolves to now); nil when the resolver knows no schemas.
    func parameterSchema(for choice: PolicyChoice, scripts: any PolicyScriptRepository) throws -> PolicyParameterSchema?

    /// Bytes the resolver keeps between calls (a Lua state's memory); 0 when it keeps nothing
    /// worth counting.
    var retainedBytes: Int { get }

    /// The roles the policy `name` can serve (empty when this resolver does not know).
    func roles(ofPolicyNamed name: String) throws -> Set<PolicyRole>

    /// Every policy this resolver can find by name (built-in and in its folders), by name; a
    /// policy that fails to load is left out.
    func catalog() -> [PolicyListing]

    /// Evaluates a habit's period in one piece of work (a resolver whose calls each cost a trip
    /// to another process): the days after `request.known` asked of each revision's policies, as
    /// `HabitTimelineBuilder.build(… known:)` asks them, and with `needsStreak` the streak over
    /// the timeline's elapsed days. Nil (the default) when the resolver answers call by call.
    /// Throws what the policies throw.
    func evaluate(_ request: EvaluationRequest, scripts: any PolicyScriptRepository) throws -> BatchEvaluation?

    /// A queue for evaluating several habits with their work overlapping the reader's; nil (the
    /// default) when the resolver answers where it is asked, and `evaluate` is all there is.
    func evaluationQueue() -> (any EvaluationQueue)?
}

extension PolicyResolver {
    public var evaluationKey: String { "" }

    public var retainedBytes: Int { 0 }

    public func roles(ofPolicyNamed name: String) throws -> Set<PolicyRole> { [] }

    public func catalog() -> [PolicyListing] { [] }

    public func evaluate(_ request: EvaluationRequest, scripts: any PolicyScriptRepository) throws -> BatchEvaluation? { nil }

    public func evaluationQueue() -> (any EvaluationQueue)? { nil }

    public func parameterSchema(for choice: PolicyChoice, scripts: any PolicyScriptRepository) throws -> PolicyParameterSchema? { nil }

    public func currentScript(named name: String, at now: Date) throws -> PolicyScript? { nil }

    public func vet(_ script: PolicyScript) throws {
        throw PolicyRefusal(policy: script.name, failures: ["this engine runs no policy scripts"])
    }
}
