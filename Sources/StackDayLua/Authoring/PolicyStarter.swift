import StackDay

/// What `policy new` and `policy types` give an author, compiled into the binary from the host's
/// `Lua/` folder: a commented starter per role, each passing `policy check` and `policy test` as
/// written (a test holds them to it), and the LuaCATS annotations of what a policy sees.
public enum PolicyStarter {
    /// The roles a starter is written for.
    public static let roles: [PolicyRole] = [.schedule, .progress, .streak]

    /// The starter of `role`, with `name` in the commands its comments suggest.
    public static func source(for role: PolicyRole, name: String) -> String? {
        HostLuaSources.all["starter-" + role.rawValue].map { $0.replacingOccurrences(of: " NAME", with: " " + name) }
    }

    /// `---@meta` annotations for lua-language-server: the day view, the habit, outcomes, states,
    /// the policy table, the calendar functions and `trace`.
    public static var annotations: String { HostLuaSources.all["types", default: ""] }
}
