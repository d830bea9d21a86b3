import StackDay

/// `policy simulate POLICY --habit NAME`, `POST /v1/habits/{name}/simulate`: a habit's figures
/// with `policy` (and `params`) in `role` from `from` (default: the whole history); the same of a
/// group with `--group NAME`, `POST /v1/groups/{name}/simulate`.
public struct SimulateRequest: RequestType {
    public static let policy = RequestField<String>.text("policy", help: "The policy.").argument("name", optional: false).required
    public static let role = RequestField<String>.choice("role", among: PolicyRole.allCases.map(\.rawValue),
                                                         help: "With --habit: schedule, progress or streak; with --group: group or streak (default: the policy's only role).",
                                                         valueName: "role")
        .map { PolicyRole(rawValue: $0)! }
    public static let params = RequestField<[String: JSONValue]>.object("params", help: "Parameters for the policy, a JSON object.")
    public static let from = RequestField<LocalDay>.day("from", help: "The first day of the history, or with --habit the first day judged.")
    public static let trace = PolicyTracing.field
    public static let fields = [policy.declaration, role.declaration, params.declaration, from.declaration, trace.declaration]

    public var policy: String
    /// Nil: the one role the policy serves.
    public var role: PolicyRole?
    public var parameters: [String: JSONValue]?
    public var from: LocalDay?
    /// Whether to show what the proposed policy wrote with `trace()`.
    public var trace: Bool
    public var naming: FieldNaming

    public init(policy: String, role: PolicyRole? = nil, parameters: [String: JSONValue]? = nil, from: LocalDay? = nil,
                trace: Bool = false, naming: FieldNaming = FieldNaming(http: true)) {
        self.policy = policy
        self.trace = trace
        self.role = role
        self.parameters = parameters
        self.from = from
        self.naming = naming
    }

    public init(_ fields: RequestFields) throws {
        self.init(policy: try fields.required(Self.policy), role: try fields[Self.role], parameters: try fields[Self.params], from: try fields[Self.from],
                  trace: try fields[Self.trace] ?? false, naming: fields.naming)
    }
}
