import Foundation

/// Turns the policy choices of a habit's revisions into policies, and policy names into scripts.
public protocol PolicyResolver {
    /// The policies of one revision of `habit`. A pinned choice runs the script `scripts` holds
    /// under its hash, never the file its name resolves to now. Throws for an unknown name, a
    /// missing or altered script, or parameters the policy rejects, so creating or editing a
    /// habit can refuse them before anything is stored.
    func policies(for habit: Habit, revision: HabitRevision, scripts: any PolicyScriptRepository) throws -> HabitPolicies

    /// The group rule and streak rule of one revision of `group`, bound to their parameters; a
    /// pinned choice runs its stored script. Throws as `policies(for:revision:scripts:)` does, and
    /// for a rule that does not serve the group role.
    func groupPolicies(for group: HabitGroup, revision: GroupRevision, scripts: any PolicyScriptRepository) throws -> GroupPolicies

    /// Whether policies are scripts this resolver runs (so every name a habit uses is resolved to
    /// a stored script, `PolicyDirectory`); false for one of built-in Swift policies only.
    var runsScripts: Bool { get }

    /// `NAME.lua` of the policy folders as it is now (the first folder that holds it), stamped
    /// `now`, with the file's path; nil when no folder holds it or the resolver has none.
    /// Names are looked up through `PolicyDirectory`, which asks this.
    func folderScript(named name: String, at now: Date) throws -> (script: PolicyScript, file: String)?

    /// The names of the policies the folders hold.
    func folderNames() -> [String]

    /// The built-in policy `name` as a script; nil when there is none, or its built-ins are not scripts.
    func builtInScript(named name: String) -> PolicyScript?

    /// The built-in policies' names.
    func builtInNames() -> [String]

    /// What `script` declares: the roles it serves, its description and its parameters, loaded in
    /// the sandbox (a runner, for a resolver that keeps scripts out of process). Throws what
    /// loading it throws.
    func describe(_ script: PolicyScript) throws -> PolicyListing

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

    /// Evaluates a habit's period in one piece of work (a resolver whose calls each cost a trip
    /// to another process): the days after `request.known` asked of each revision's policies, as
    /// `HabitTimelineBuilder.build(… known:)` asks them, and with `needsStreak` the streak over
    /// the timeline's elapsed days. Nil (the default) when the resolver answers call by call.
    /// Throws what the policies throw.
    func evaluate(_ request: EvaluationRequest, scripts: any PolicyScriptRepository) throws -> BatchEvaluation?

    /// Runs `body` with `trace()` in policies writing (off again after it): what it returned and
    /// every line traced while it ran. Without scripts, no lines.
    func tracing<T>(_ body: () throws -> T) throws -> (T, [PolicyTraceLine])

    /// A queue for evaluating several habits with their work overlapping the reader's; nil (the
    /// default) when the resolver answers where it is asked, and `evaluate` is all there is.
    func evaluationQueue() -> (any EvaluationQueue)?
}

extension PolicyResolver {
    public var evaluationKey: String { "" }

    /// Groups are judged by policy scripts: a resolver that runs none judges no group.
    public func groupPolicies(for group: HabitGroup, revision: GroupRevision, scripts: any PolicyScriptRepository) throws -> GroupPolicies {
        throw PolicyResolutionError.unknownPolicy(name: revision.rule.name, role: .group, known: [])
    }

    public var retainedBytes: Int { 0 }

    public func evaluate(_ request: EvaluationRequest, scripts: any PolicyScriptRepository) throws -> BatchEvaluation? { nil }

    public func evaluationQueue() -> (any EvaluationQueue)? { nil }

    public func tracing<T>(_ body: () throws -> T) throws -> (T, [PolicyTraceLine]) { (try body(), []) }

    public func parameterSchema(for choice: PolicyChoice, scripts: any PolicyScriptRepository) throws -> PolicyParameterSchema? { nil }

    public var runsScripts: Bool { false }

    public func folderScript(named name: String, at now: Date) throws -> (script: PolicyScript, file: String)? { nil }

    public func folderNames() -> [String] { [] }

    public func builtInScript(named name: String) -> PolicyScript? { nil }

    public func builtInNames() -> [String] { [] }

    public func describe(_ script: PolicyScript) throws -> PolicyListing {
        throw PolicyRefusal(policy: script.name, failures: ["this engine runs no policy scripts"])
    }

    public func vet(_ script: PolicyScript) throws {
        throw PolicyRefusal(policy: script.name, failures: ["this engine runs no policy scripts"])
    }
}

extension PolicyResolver {
    /// The policies of the folders and the built-ins (a folder's file in place of a built-in of its
    /// name), each as it declares itself, by name; one that fails to load is left out. What the
    /// server's API document describes; a user's own list is `PolicyDirectory`'s.
    public func catalog(at now: Date = Date(timeIntervalSince1970: 0)) -> [PolicyListing] {
        Set(folderNames() + builtInNames()).sorted().compactMap { name in
            guard let script = (try? folderScript(named: name, at: now))??.script ?? builtInScript(named: name) else { return nil }
            return try? describe(script)
        }
    }
}
