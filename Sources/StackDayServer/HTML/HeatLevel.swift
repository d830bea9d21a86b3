import StackDay

/// How dark a day's cell is in a heatmap: 4 when done, 1…3 by progress, 0 for nothing yet.
/// The terminal calendar, the HTML report and the dashboard all shade with it.
public enum HeatLevel {
    public static func of(_ entry: HabitEntry) -> Int {
        if entry.state == .completed { return 4 }
        if entry.progress <= 0 { return 0 }
        return min(3, 1 + Int(entry.progress * 3))
    }
}
