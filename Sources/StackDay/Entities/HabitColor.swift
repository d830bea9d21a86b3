/// A habit's colour tag, from a fixed palette: each colour has a light-theme and a dark-theme
/// shade with at least 4.5:1 contrast against that theme's page and card backgrounds (WCAG 2.1
/// § 1.4.3, enough for text; graphics need 3:1). Colour never carries meaning alone: it is there
/// to recognise a habit at a glance, beside its name.
public enum HabitColor: String, CaseIterable, Sendable, Hashable {
    case red, orange, amber, green, teal, cyan, blue, indigo, purple, pink, brown, grey

    /// The shade on a light background (`#ffffff` cards).
    public var light: String {
        switch self {
        case .red: "#c62828"
        case .orange: "#c43e00"
        case .amber: "#a15c00"
        case .green: "#2e7d32"
        case .teal: "#00796b"
        case .cyan: "#00758f"
        case .blue: "#1565c0"
        case .indigo: "#3949ab"
        case .purple: "#7b1fa2"
        case .pink: "#ad1457"
        case .brown: "#6d4c41"
        case .grey: "#546e7a"
        }
    }

    /// The shade on a dark background (`#161b22` cards).
    public var dark: String {
        switch self {
        case .red: "#ff8a80"
        case .orange: "#ffab70"
        case .amber: "#ffd54f"
        case .green: "#81c784"
        case .teal: "#4db6ac"
        case .cyan: "#4dd0e1"
        case .blue: "#90caf9"
        case .indigo: "#9fa8da"
        case .purple: "#ce93d8"
        case .pink: "#f48fb1"
        case .brown: "#bcaaa4"
        case .grey: "#b0bec5"
        }
    }

    /// The tag whose light shade is nearest to `hex` (`#RRGGBB`, as Loop Habit Tracker exports a
    /// habit's colour), by the "redmean" weighted distance in RGB (T. Riemersma, "Colour metric",
    /// CompuPhase, 2019): a cheap approximation of perceived difference. Nil for text that is not
    /// such a colour.
    public static func nearest(toHex hex: String) -> HabitColor? {
        guard let target = rgb(hex) else { return nil }
        func distance(_ color: HabitColor) -> Double {
            guard let shade = rgb(color.light) else { return .infinity }
            let meanRed = (target.r + shade.r) / 2
            let (dr, dg, db) = (target.r - shade.r, target.g - shade.g, target.b - shade.b)
            return (2 + meanRed / 256) * dr * dr + 4 * dg * dg + (2 + (255 - meanRed) / 256) * db * db
        }
        return allCases.min { distance($0) < distance($1) }
    }

    /// The red, green and blue of `#RRGGBB` (the `#` optional), 0–255 each.
    static func rgb(_ hex: String) -> (r: Double, g: Double, b: Double)? {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        return (Double(value >> 16 & 0xFF), Double(value >> 8 & 0xFF), Double(value & 0xFF))
    }

    /// Every tag's name, for help and error texts.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
