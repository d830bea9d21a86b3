/// The questions a policy can answer: three about a habit's day, one about a group's.
public enum PolicyRole: String, CaseIterable, Sendable {
    case schedule
    case progress
    case streak
    /// How far a group's day is toward done, from its members' days (`GroupPolicy`).
    case group

    /// The roles a habit's revision names a policy for, in the order they are shown and stored.
    public static let habitRoles: [PolicyRole] = [.schedule, .progress, .streak]
}
