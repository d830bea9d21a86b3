/// The three questions a policy can answer.
public enum PolicyRole: String, CaseIterable, Sendable {
    case schedule
    case progress
    case streak
}
