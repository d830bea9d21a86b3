import StackDay

/// Markup being built, escaping by default: a string interpolated into it is escaped
/// (`HTMLText.escape`), as is any other value's description; only `HTML` itself (built the same
/// way) and what is wrapped as `trusted:` on purpose go in as markup. Literals are the page
/// author's markup.
///
/// ```swift
/// let item: HTML = "<li data-habit=\"\(habit.name)\">\(habit.name)</li>"   // both escaped
/// ```
struct HTML: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable, Equatable {
    private(set) var markup: String

    init(stringLiteral literal: String) {
        markup = literal
    }

    init(stringInterpolation: StringInterpolation) {
        markup = stringInterpolation.markup
    }

    /// Markup made elsewhere and vouched for by the caller (a generated SVG, an embedded view).
    init(trusted markup: String) {
        self.markup = markup
    }

    var description: String { markup }

    struct StringInterpolation: StringInterpolationProtocol {
        var markup = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        mutating func appendLiteral(_ literal: String) { markup += literal }

        /// Text: escaped.
        mutating func appendInterpolation(_ text: String) { markup += HTMLText.escape(text) }

        /// Markup built as `HTML`: as it is.
        mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        /// Markup from elsewhere, on purpose: as it is.
        mutating func appendInterpolation(trusted markup: String) { self.markup += markup }

        /// Anything else (a number, a day): its description, escaped.
        mutating func appendInterpolation(_ value: some CustomStringConvertible) { markup += HTMLText.escape(value.description) }

        /// An optional's value, or nothing.
        mutating func appendInterpolation(_ html: HTML?) { markup += html?.markup ?? "" }
    }

    static func + (left: HTML, right: HTML) -> HTML { HTML(trusted: left.markup + right.markup) }

    static func += (left: inout HTML, right: HTML) { left.markup += right.markup }
}

extension Sequence where Element == HTML {
    /// The pieces one after another.
    func joined() -> HTML { HTML(trusted: map(\.markup).joined()) }
}
