@testable import StackDayServer
import Testing

/// Where a form's `back` field may send the browser: a path on this server, nothing else.
@Suite("back targets")
struct PagePathsTests {
    @Test("a path that starts with one slash and holds no backslash, space or control character", arguments: [
        ("/", true), ("/habits/%EB%AC%BC", true), ("/habits/x?from=2026-10-01#day", true),
        ("//evil.example/", false), ("/\\evil.example/", false), ("/\t/evil.example", false), ("/a b", false),
        ("https://evil.example/", false), ("evil", false), ("", false), ("/x\r\nSet-Cookie: a=b", false), ("/%0d%0a", true),
    ])
    func localTarget(_ text: String, _ allowed: Bool) {
        #expect((PagePaths.localTarget(text) != nil) == allowed)
    }
}
