import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// Every page rendered with names, units, notes and asked values that hold markup, quotes,
/// ampersands, control characters and Korean has exactly the elements and attributes of the same
/// page rendered with plain text: nothing a user typed becomes markup.
@Suite("pages: what users type never becomes markup")
struct PageInjectionTests {
    /// The text a user gives, one hostile and one plain, of each kind the pages show.
    struct Texts {
        let habit: String
        let unit: String
        let note: String
        let asked: String

        static let hostile = Texts(habit: "<script>alert(\"h\")</script>&amp;'물", unit: "\"><img src=x onerror=alert(1)>",
                                   note: "</q></li><svg onload=alert(2)>\u{1B}[31m 메모 & \"", asked: "\"><script>alert(3)</script>")
        static let plain = Texts(habit: "plain habit name", unit: "cups", note: "a plain note", asked: "plain-asked")
    }

    /// What a browser's tokenizer finds in `html`: each start tag's name with its attributes' names,
    /// and each end tag, in order; the text of `script`, `style`, `textarea` and `title` is passed over
    /// as a browser passes it (up to the end tag of the same name).
    static func structure(_ html: String) -> [String] {
        let text = Array(html.unicodeScalars)
        var tokens: [String] = []
        var index = 0
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        func skip(past marker: String) {
            let needle = Array(marker.unicodeScalars)
            while index < text.count {
                if text[index...].starts(with: needle) || String(String.UnicodeScalarView(text[index..<min(text.count, index + needle.count)])).lowercased() == marker {
                    index += needle.count
                    return
                }
                index += 1
            }
        }
        while index < text.count {
            guard text[index] == "<", index + 1 < text.count else { index += 1; continue }
            let next = text[index + 1]
            if text[index...].starts(with: Array("<!--".unicodeScalars)) { skip(past: "-->"); continue }
            if next == "!" || next == "?" { skip(past: ">"); continue }
            let closing = next == "/"
            var position = index + (closing ? 2 : 1)
            guard position < text.count, isLetter(text[position]) else { index += 1; continue }
            var name = ""
            while position < text.count, isLetter(text[position]) || ("0"..."9").contains(text[position]) || text[position] == "-" {
                name.unicodeScalars.append(text[position]); position += 1
            }
            name = name.lowercased()
            var attributes: [String] = []
            // Attributes: a name, then an optional `=` and a quoted or bare value.
            while position < text.count, text[position] != ">" {
                let scalar = text[position]
                if scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "/" { position += 1; continue }
                var attribute = ""
                while position < text.count, !" \n\t/>=".unicodeScalars.contains(text[position]) { attribute.unicodeScalars.append(text[position]); position += 1 }
                attributes.append(attribute.lowercased())
                while position < text.count, text[position] == " " { position += 1 }
                guard position < text.count, text[position] == "=" else { continue }
                position += 1
                while position < text.count, text[position] == " " { position += 1 }
                if position < text.count, text[position] == "\"" || text[position] == "'" {
                    let quote = text[position]
                    position += 1
                    while position < text.count, text[position] != quote { position += 1 }
                    position += 1
                } else {
                    while position < text.count, !" \n\t>".unicodeScalars.contains(text[position]) { position += 1 }
                }
            }
            index = position + 1
            tokens.append(closing ? "/" + name : ([name] + attributes).joined(separator: " "))
            if !closing, ["script", "style", "textarea", "title"].contains(name) { skip(past: "</\(name)") ; tokens.append("/" + name); skip(past: ">") }
        }
        return tokens
    }

    /// The pages of one user whose habit, unit, note and asked values are `texts`.
    static func pages(_ texts: Texts) throws -> [(path: String, html: String)] {
        let api = InProcessAPI(policies: TodayCheckInTests.scripts)
        let token = try api.user("ana")
        let body = JSONValue.object(["name": .string(texts.habit), "unit": .string(texts.unit), "goal": .number(3), "start": .string("2026-10-01"),
                                     "remind": .array([.string("21:00")])]).jsonText
        #expect(api.send("POST", "/v1/habits", token: token, body: body).status == 201)
        let daily = JSONValue.object(["name": .string(texts.habit + " 2"), "start": .string("2026-10-01")]).jsonText
        #expect(api.send("POST", "/v1/habits", token: token, body: daily).status == 201)
        let path = "/v1/habits/" + PagePaths.segment(texts.habit)
        for day in ["2026-10-05", "2026-10-12"] {
            let record = JSONValue.object(["amount": .number(2), "on": .string(day), "note": .string(texts.note)]).jsonText
            #expect(api.send("POST", path + "/records", token: token, body: record).status == 201)
        }
        #expect(api.send("POST", path + "/skips", token: token, body: #"{"on":"2026-10-07"}"#).status == 201)
        #expect(api.send("PATCH", path, token: token, body: #"{"streak":"grace","from":"2026-10-06"}"#).status == 200)
        let browser = try TodayCheckInTests.Browser(api, token: token)
        func get(_ path: String, query: [(key: String, value: String)] = []) -> String {
            String(decoding: api.api.handle(HTTPRequest(method: "GET", path: path, cookie: browser.cookie, query: query)).body, as: UTF8.self)
        }
        func post(_ path: String, _ form: [(String, String)]) -> String {
            let encoded = ([("csrf", browser.csrf)] + form).map { "\($0.0)=\(PagePaths.segment($0.1))" }.joined(separator: "&")
            return String(decoding: api.api.handle(HTTPRequest(method: "POST", path: path, cookie: browser.cookie, contentType: "application/x-www-form-urlencoded",
                                                               body: Array(encoded.utf8))).body, as: UTF8.self)
        }
        let page = "/habits/" + PagePaths.segment(texts.habit)
        let signedOut = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/")).body, as: UTF8.self)
        return [
            ("/ signed out", signedOut),
            ("/", get("/")),
            ("/today.html", get("/today.html")),
            ("habit", get(page)),
            ("habit, a day with notes", get(page, query: [("day", "2026-10-05")])),
            ("habit, a month", get(page, query: [("month", "2026-10")])),
            ("habit, lab", get(page, query: [("lab", "1"), ("role", "streak"), ("policy", "strict"), ("from", "2026-10-01")])),
            ("habit, lab asked for what is not there", get(page, query: [("lab", "1"), ("role", texts.asked), ("policy", texts.asked), ("params", texts.asked),
                                                                          ("from", texts.asked)])),
            ("habit, a refused record shown again", post(page + "/record", [("amount", texts.asked), ("back", page)])),
            ("today, a refused record shown again", post(page + "/record", [("amount", texts.asked)])),
            ("policies", get("/policies", query: [("open", "strict"), ("installed", texts.asked)])),
            ("policies, a refused install", post("/policies", [("name", "bad"), ("source", texts.asked)])),
            ("settings", get("/settings")),
            ("settings, a code shown", post("/settings/devices/pair", [])),
            ("pair", String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/pair", query: [("code", texts.asked)])).body, as: UTF8.self)),
        ]
    }

    @Test("every page's elements and attributes are the same whatever the names, units, notes and asked values hold")
    func noInjection() throws {
        let hostile = try Self.pages(.hostile), plain = try Self.pages(.plain)
        #expect(hostile.count == plain.count)
        for (shown, expected) in zip(hostile, plain) {
            #expect(!shown.html.isEmpty, "\(shown.path)")
            let found = Self.structure(shown.html), wanted = Self.structure(expected.html)
            #expect(found == wanted, "\(shown.path): \(zip(found, wanted).first { $0.0 != $0.1 }.map { "\($0.0) ≠ \($0.1)" } ?? "\(found.count) ≠ \(wanted.count) tags")")
            // Nothing typed stays raw: no markup of the hostile texts, no escape character.
            // Escaped once, not twice.
            #expect(!shown.html.contains("&amp;lt;") && !shown.html.contains("&amp;amp;amp;") && !shown.html.contains("&amp;quot;"), "\(shown.path) escapes twice")
            for raw in ["<script>alert", "<img src=x", "<svg onload", "\u{1B}"] {
                #expect(!shown.html.contains(raw), "\(shown.path) holds \(raw): \(shown.html.components(separatedBy: raw).first?.suffix(200) ?? "")")
            }
        }
        // The hostile texts were shown (escaped), so the pages were tested with them.
        let habit = try #require(hostile.first { $0.path == "habit, a day with notes" }).html
        #expect(habit.contains("&lt;script&gt;alert(&quot;h&quot;)&lt;/script&gt;&amp;amp;&#39;물"))
        #expect(habit.contains("&lt;/q&gt;&lt;/li&gt;&lt;svg onload=alert(2)&gt;"))
    }

    @Test("the tokenizer finds what a browser finds", arguments: [
        (#"<p class="a">x</p>"#, ["p class", "/p"]),
        (#"<a href='x' data-y=z>t</a><br>"#, ["a href data-y", "/a", "br"]),
        ("<script>if (a < b) { '</div>' }</script><i>", ["script", "/script", "i"]),
        ("<!-- <b> --><b title=\"<i>\">", ["b title"]),
        ("a < b &lt;c&gt;", []),
    ])
    func tokenizer(_ html: String, _ expected: [String]) {
        #expect(Self.structure(html) == expected)
    }
}
