import Testing
import StackDay

@Suite("user names")
struct UserNameTests {
    @Test("a name has 1 to 100 printable characters, without a space or tab at either end", arguments: [
        ("ana", true), ("김민지", true), ("ana b", true), (String(repeating: "a", count: 100), true), ("🏃", true),
        ("", false), (" ana", false), ("ana ", false), ("\tana", false), ("ana\u{3000}", false), ("\u{00A0}ana", false),
        ("a\nb", false), ("a\u{200B}b", false), (String(repeating: "a", count: 101), false),
    ])
    func names(name: String, valid: Bool) {
        #expect(User.isValidName(name) == valid, "\(name.debugDescription)")
    }
}
