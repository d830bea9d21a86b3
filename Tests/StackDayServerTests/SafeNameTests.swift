import Foundation
@testable import StackDayServer
import Testing

/// Names that could forge log lines or collide, through the pipeline in process. (HTTP framing
/// and a store that comes back are checked on a real server, in
/// `StackdayCLITests/ServerHardeningTests`.)
@Suite("safe names, in process")
struct SafeNameTests {
    func serve() throws -> (InProcessServer, String) {
        let server = try InProcessServer()
        return (server, try server.user("ana"))
    }

    @Test("control characters in a path are escaped in the access log: no forged line, no terminal escape")
    func logEscaping() throws {
        let (server, ana) = try serve()
        _ = server.send("GET", "/v1/habits/x%0AGET%20/v1/forged%20200%200ms%20admin%1B%5B31m", token: ana)
        let log = server.log()
        #expect(log.contains(#"/v1/habits/x\x0AGET /v1/forged 200 0ms admin\x1B[31m 404 "#), "\(log)")
        #expect(!log.contains("\u{1B}"))
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("GET /v1/forged") })
    }

    @Test("a habit name with NUL or another control character is refused on create and rename; nothing is written", arguments: [
        #"{"name":"a\u0000b"}"#, #"{"name":"line\nbreak"}"#, #"{"name":"bell\u0007"}"#, #"{"name":"esc\u001b[31m"}"#, #"{"name":"c1\u0085next"}"#,
    ])
    func controlCharacters(body: String) throws {
        let (client, ana) = try serve()
        #expect(client.send("POST", "/v1/habits", token: ana, body: #"{"name":"read"}"#).status == 201)
        let before = client.send("GET", "/v1/habits", token: ana).body
        let created = client.send("POST", "/v1/habits", token: ana, body: body)
        #expect(created.status == 400 && created.body.contains("control characters"), "\(created.status) \(created.body)")
        let renamed = client.send("PATCH", "/v1/habits/read", token: ana, body: body)
        #expect(renamed.status == 400 && renamed.body.contains("control characters"), "\(renamed.status) \(renamed.body)")
        #expect(client.send("GET", "/v1/habits", token: ana).body == before, "nothing written")
    }

    @Test("NFC and NFD spellings of one name are one habit: found by either, and a second is a duplicate")
    func normalization() throws {
        let (client, ana) = try serve()
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(client.send("POST", "/v1/habits", token: ana, body: #"{"name":"\#(composed)"}"#).status == 201)
        let path = "/v1/habits/" + decomposed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let found = client.send("GET", path, token: ana)
        #expect(found.status == 200, "\(found.status) \(found.body)")
        let again = client.send("POST", "/v1/habits", token: ana, body: #"{"name":"\#(decomposed)"}"#)
        #expect(again.status == 409, "\(again.status) \(again.body)")
        #expect(client.send("POST", path + "/records", token: ana, body: #"{"amount":1}"#).status == 201)
    }
}
