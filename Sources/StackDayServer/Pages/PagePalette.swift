import StackDay

/// The stylesheet's part made from `HabitColor`: each tag's shade as `--habit` on whatever
/// carries `data-color`, in the light theme and the dark one. `app.css` draws with `--habit`.
enum PagePalette {
    static let css: String = {
        let light = HabitColor.allCases.map { "[data-color=\($0.rawValue)]{--habit:\($0.light)}" }.joined()
        let dark = HabitColor.allCases.map { "[data-color=\($0.rawValue)]{--habit:\($0.dark)}" }.joined()
        return light + "\n@media (prefers-color-scheme:dark){" + dark + "}\n"
    }()

    /// The attribute that colours an element by the habit's tag (nothing for none).
    static func attribute(_ habit: Habit) -> HTML {
        habit.colorTag.map { " data-color=\"\($0.rawValue)\"" } ?? ""
    }
}
