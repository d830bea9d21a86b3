import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// Limits per user through the API: the server's (`serve --limit`) for every user, a user's own
/// over them, and going over one answers 429 `quota_exceeded` naming it, with nothing stored.
@Suite("limits per user, from the server and the user's own")
struct UserLimitsTests {
    static func error(_ response: HTTPResponse) -> (code: String?, message: String?) {
        let error = (try? JSONValue(parsing: String(decoding: response.body, as: UTF8.self)))?.objectValue?["error"]?.objectValue
        return (error?["code"]?.stringValue, error?["message"]?.stringValue)
    }

    @Test("the server's limits hold for a user without their own; a user's own hold over them; over either is 429 and stores nothing")
    func serverAndOwn() throws {
        var options = APIOptions()
        options.limits = try UserLimits(text: "pairing-codes=2,records-per-day=3")
        let api = InProcessAPI(options: options)
        let ana = try api.user("ana")
        let bo = try api.user("bo")
        let users = ManageUsers(context: HabitContext(store: api.store, clock: api.clock, boundary: DayBoundary(timeZone: .gmt)))
        _ = try users.setLimits(of: "bo", set: try UserLimits(text: "records-per-day=5"), cleared: [])

        // Open pairing codes: two, then the third is refused and not kept.
        for _ in 0..<2 { #expect(api.send("POST", "/v1/devices/pairing", token: ana).status == 201) }
        let third = api.send("POST", "/v1/devices/pairing", token: ana)
        #expect(third.status == 429)
        #expect(Self.error(third).code == "quota_exceeded")
        #expect(Self.error(third).message == "over the limit of open pairing codes: a user may have at most 2; remove some first")
        #expect(try api.store.read { try $0.users.pairingCount(of: "ana") } == 2)

        // Records of one habit on one day: the server's 3 for ana, bo's own 5.
        for (token, allowed) in [(ana, 3), (bo, 5)] {
            #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"water","goal":8,"unit":"cups","start":"2026-10-01"}"#).status == 201)
            for _ in 0..<allowed {
                #expect(api.send("POST", "/v1/habits/water/records", token: token, body: #"{"amount":1}"#).status == 201)
            }
            let over = api.send("POST", "/v1/habits/water/records", token: token, body: #"{"amount":1}"#)
            #expect(over.status == 429 && Self.error(over).code == "quota_exceeded", "\(String(decoding: over.body, as: UTF8.self))")
            #expect(Self.error(over).message?.contains("records of one habit on one day") == true)
            let today = try #require(try JSONValue(parsing: String(decoding: api.get("/v1/habits/water/records", authorization: "Bearer \(token)").body, as: UTF8.self)).objectValue)
            #expect(today["records"]?.arrayValue?.count == allowed)
        }

        // Taken away, bo's own limit gives way to the server's again.
        let cleared = try users.setLimits(of: "bo", set: UserLimits(), cleared: [.recordsPerDay])
        #expect(cleared.limits == UserLimits())
        #expect(Self.error(api.send("POST", "/v1/habits/water/records", token: bo, body: #"{"amount":1}"#)).code == "quota_exceeded")
    }

    @Test("limits read from text: each name, the last of a name winning, and a clear error for anything else", arguments: [
        ("habits=5", [UserLimit.habits: 5], nil), ("habits=5,habits=7", [.habits: 7], nil), ("", [:], nil),
        ("devices=0, script-bytes=1024", [.devices: 0, .scriptBytes: 1024], nil),
        ("habit=5", [:], "invalid limit \"habit=5\": not NAME=N with NAME one of scripts, script-bytes, habits, groups, webhooks, devices, pairing-codes, records-per-day, sync-page"),
        ("habits=-1", [:], "invalid limit \"habits=-1\": habits must be a whole number from 0 to 1099511627776"),
        ("habits", [:], "invalid limit \"habits\": not NAME=N with NAME one of scripts, script-bytes, habits, groups, webhooks, devices, pairing-codes, records-per-day, sync-page"),
    ] as [(String, [UserLimit: Int], String?)])
    func text(_ text: String, _ set: [UserLimit: Int], _ error: String?) throws {
        do {
            let limits = try UserLimits(text: text)
            #expect(error == nil)
            #expect(limits.set == set)
            #expect(try UserLimits(text: limits.text) == limits)
        } catch let thrown as UseCaseError {
            #expect("\(thrown)" == error)
        }
    }
}
