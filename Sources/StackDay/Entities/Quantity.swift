/// Amounts and goals are kept to thousandths, summed as integers so that 0.1 + 0.2 totals 0.3.
public enum Quantity {
    static let scale = 1000.0
    /// The largest amount, goal or day total, in the unit.
    public static let maximum = 1e12
    static let maximumThousandths = Int64(maximum * scale)

    /// The amount in thousandths, or nil when it is not finite, not positive, too large or finer than 0.001.
    static func thousandths(_ value: Double) -> Int64? {
        guard value.isFinite, value > 0, value <= maximum else { return nil }
        let scaled = value * scale
        let rounded = scaled.rounded()
        guard rounded >= 1, abs(scaled - rounded) <= 1e-6 * max(1, rounded) else { return nil }
        return Int64(rounded)
    }

    /// Whether `thousandths` (as a row carries it) is an amount or goal `thousandths(_:)` could
    /// have given: a whole number from 1 to the maximum's.
    static func isKept(thousandths: Double) -> Bool {
        thousandths.rounded() == thousandths && (1...Double(maximumThousandths)).contains(thousandths)
    }

    /// `total + amount` in thousandths, held at the largest value instead of overflowing: day
    /// totals are kept far below it on the way in, but a store written some other way may hold any.
    public static func adding(_ amount: Int64, to total: Int64) -> Int64 {
        let (sum, overflow) = total.addingReportingOverflow(amount)
        return overflow ? .max : sum
    }

    /// The value of an amount kept in thousandths.
    public static func value(thousandths: Int64) -> Double {
        Double(thousandths) / scale
    }

    /// An amount or goal already checked (finite, in range) as the thousandths it is kept in.
    public static func roundedThousandths(_ value: Double) -> Int64 {
        Int64((value * scale).rounded())
    }

    /// A short human form: `8`, `2.5`, `0.125`.
    public static func describe(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        return NumberText.format((value * scale).rounded() / scale)
    }
}
