import Foundation

/// Where the command line keeps its database by default.
public enum StoreLocation {
    /// `$STACKDAY_DB`, else `$XDG_DATA_HOME/stackday/stackday.sqlite`, else
    /// `~/.local/share/stackday/stackday.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["STACKDAY_DB"], !path.isEmpty { return path }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
            dataHome = home + "/.local/share"
        }
        return dataHome + "/stackday/stackday.sqlite"
    }
}
