/// The stable code of a failure, the same on every surface: the API's error body and the command
/// line's `--json` errors carry it as `{"error": {"code": …, "message": …}}` (docs/json.md lists
/// them). Codes are part of the interface: a new failure gets a new code, an old code never
/// changes meaning.
public enum ErrorCode: String, Sendable, CaseIterable {
    case habitNotFound = "habit_not_found"
    case groupNotFound = "group_not_found"
    case userNotFound = "user_not_found"
    case revisionNotFound = "revision_not_found"
    case completionNotFound = "completion_not_found"
    case policyNotFound = "policy_not_found"
    case duplicateName = "duplicate_name"
    case userExists = "user_exists"
    /// A policy's schema refused a parameter (unknown, missing, wrong type, out of range).
    case invalidParameter = "invalid_parameter"
    /// A field or value the use case refuses: an empty name, a future day, a bad goal, bad JSON.
    case invalidInput = "invalid_input"
    /// A read past `ReadWindow`: too far ahead, or over too many days.
    case readOutOfBounds = "read_out_of_bounds"
    /// A policy failed: an error in the script, a wrong answer, a refused script.
    case policyFailed = "policy_failed"
    /// A policy ran out of a budget: instructions, memory or CPU time, its own or its request's.
    case policyBudgetExceeded = "policy_budget_exceeded"
    /// A policy script over the size an installed script may have (256 KiB).
    case policyTooLarge = "policy_too_large"
    /// The store failed (a lost connection, a read-only file); never the client's doing.
    case storeFailed = "store_failed"
    // The surfaces' own: the command line's arguments, and HTTP.
    case usage = "usage"
    case unauthorized = "unauthorized"
    /// A page's form without its session's CSRF token, or sent from another origin.
    case forbidden = "forbidden"
    case notFound = "not_found"
    case methodNotAllowed = "method_not_allowed"
    case bodyTooLarge = "body_too_large"
    case badRequest = "bad_request"
    case serverBusy = "server_busy"
    /// Too many failed authentications from an address, or too many requests for a token.
    case tooManyRequests = "too_many_requests"
    /// A write with an `Idempotency-Key` that a request still being answered carries.
    case idempotencyKeyInUse = "idempotency_key_in_use"
    /// An `Idempotency-Key` used before with another request (method, path or body).
    case idempotencyKeyReused = "idempotency_key_reused"
    /// A sync server that cannot be reached, or whose answer is not one.
    case serverUnreachable = "server_unreachable"
    /// A sync under a device id whose history on the server is another store's (a copied store).
    case deviceCopied = "device_copied"
    /// An `https://` server's certificate was not trusted, or no TLS version both sides take.
    case tlsFailed = "tls_failed"
    /// A pairing code that is unknown, used or expired.
    case pairingFailed = "pairing_failed"
    case deviceNotFound = "device_not_found"
    case webhookNotFound = "webhook_not_found"
    case pushSubscriptionNotFound = "push_subscription_not_found"
    /// A paired device's token asking for what only the account may do (`AccountAction`).
    case forbiddenForDevice = "forbidden_for_device"
    /// A write that would take the user past a limit (`UserLimits`).
    case quotaExceeded = "quota_exceeded"

    /// The code of an error a use case (or what it calls) threw; `storeFailed` for any other.
    public static func of(_ error: any Error) -> ErrorCode {
        switch error {
        case let coded as any CodedError: return coded.code
        case let error as UseCaseError:
            switch error {
            case .habitNotFound, .habitIDNotFound: return .habitNotFound
            case .userNotFound: return .userNotFound
            case .revisionNotFound: return .revisionNotFound
            case .completionNotFound: return .completionNotFound
            case .policyNotInstalled, .policyNotFound, .offerNotFound: return .policyNotFound
            case .duplicateName: return .duplicateName
            case .userExists: return .userExists
            case .dayTooFarAhead, .spanTooLong: return .readOutOfBounds
            case .scriptTooLarge: return .policyTooLarge
            case .wrongPassword, .deviceRevoked: return .unauthorized
            case .pairingFailed: return .pairingFailed
            case .deviceNotFound: return .deviceNotFound
            case .webhookNotFound: return .webhookNotFound
            case .pushSubscriptionNotFound: return .pushSubscriptionNotFound
            case .quotaExceeded: return .quotaExceeded
            default: return .invalidInput
            }
        case is PolicyParameterError: return .invalidParameter
        case is HabitValidationError, is JSONValueError, is RepositoryError: return .invalidInput
        case let failure as HabitFailure: return of(failure.underlying)
        case let problem as any PolicyProblem: return problem.isBudget ? .policyBudgetExceeded : .policyFailed
        case is PolicyScriptError: return .policyFailed
        case is CommitRefused: return .serverBusy
        case let error as SyncError:
            switch error {
            case .invalidChange, .invalidRequest: return .invalidInput
            case .refused(_, let code, _): return ErrorCode(rawValue: code) ?? .serverUnreachable
            case .unreachable, .invalidAnswer: return .serverUnreachable
            case .tlsFailed: return .tlsFailed
            case .unsupportedStore: return .storeFailed
            case .deviceCopied: return .deviceCopied
            }
        default: return .storeFailed
        }
    }

    /// `{"error": {"code": …, "message": …}}`: the one shape of every error body.
    public static func body(_ code: ErrorCode, _ message: String) -> JSONValue {
        .object(["error": .object(["code": .string(code.rawValue), "message": .string(message)])])
    }
}
