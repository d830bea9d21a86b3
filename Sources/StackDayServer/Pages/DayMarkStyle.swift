import StackDay

/// The heatmap's shades, by how far a day got (`HeatLevel`).
enum DayMarkStyle {
    static let shades = ["#dfe3e8", "#9be9a8", "#40c463", "#30a14e", "#216e39"]

    static func heat(_ entry: HabitEntry) -> String { shades[HeatLevel.of(entry)] }
}
