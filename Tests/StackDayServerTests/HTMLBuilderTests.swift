import StackDay
@testable import StackDayServer
import Testing

/// `HTML` escapes what is interpolated into it unless it is markup on purpose.
@Suite("HTML builder")
struct HTMLBuilderTests {
    @Test("text is escaped wherever it goes; markup built as HTML and trusted markup are not", arguments: [
        ("<b>&\"'", "<p title=\"&lt;b&gt;&amp;&quot;&#39;\">&lt;b&gt;&amp;&quot;&#39;</p>"),
        ("물 \u{7}", "<p title=\"물 \\x07\">물 \\x07</p>"),
    ])
    func escapes(_ text: String, _ expected: String) {
        let html: HTML = "<p title=\"\(text)\">\(text)</p>"
        #expect(html.markup == expected)
    }

    @Test("pieces: HTML inside HTML, optional HTML, numbers and days, joined lists")
    func pieces() throws {
        let item: HTML = "<li>\("a<b")</li>"
        let none: HTML? = nil
        let list: HTML = "<ul>\([item, item].joined())\(none)</ul>"
        #expect(list.markup == "<ul><li>a&lt;b</li><li>a&lt;b</li></ul>")
        let day = try LocalDay(iso: "2026-12-04")
        let figures: HTML = "<span>\(3)/\(8.5) \(day)</span>\(trusted: "<svg/>")"
        #expect(figures.markup == "<span>3/8.5 2026-12-04</span><svg/>")
        var built: HTML = "<p>"
        built += "\("<i>")" + "</p>"
        #expect(built.markup == "<p>&lt;i&gt;</p>")
    }
}
