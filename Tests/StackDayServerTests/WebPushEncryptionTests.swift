import Foundation
import Testing
import StackDay
@testable import StackDayServer

/// Web Push's message encryption and signature, from libcrypto: the RFC's own example byte for
/// byte, and what any message must be.
@Suite("Web Push encryption")
struct WebPushEncryptionTests {
    static func bytes(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }

    @Test("RFC 8291 Appendix A: the example's keys, salt and text give the example's body")
    func rfcExample() throws {
        let body = try WebPushEncryption.encrypt(
            Array("When I grow up, I want to be a watermelon".utf8),
            subscriber: try Self.bytes("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            auth: try Self.bytes("BTBZMqHH6r4Tts7J_aSIgg"),
            sender: (try Self.bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"),
                     try Self.bytes("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")),
            salt: try Self.bytes("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(Base64URL.encode(body) == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
    }

    @Test("each message has a fresh key and salt; a p256dh off the curve, a short auth secret or a payload past one record is refused")
    func freshAndRefused() throws {
        let subscriber = try PushServerKey.generate()
        let auth = try PushCrypto.random(16)
        let first = try WebPushEncryption.encrypt(Array("hello".utf8), subscriber: subscriber.publicKey, auth: auth)
        let second = try WebPushEncryption.encrypt(Array("hello".utf8), subscriber: subscriber.publicKey, auth: auth)
        #expect(first.count == 86 + 5 + 1 + 16 && first != second && first[0..<16] != second[0..<16])
        var offCurve = subscriber.publicKey
        offCurve[64] ^= 1
        #expect(throws: PushCryptoError.self) { try WebPushEncryption.encrypt([1], subscriber: offCurve, auth: auth) }
        #expect(throws: PushCryptoError.self) { try WebPushEncryption.encrypt([1], subscriber: subscriber.publicKey, auth: Array(auth.prefix(8))) }
        #expect(throws: PushCryptoError.self) {
            try WebPushEncryption.encrypt([UInt8](repeating: 1, count: WebPushEncryption.payloadLimit + 1), subscriber: subscriber.publicKey, auth: auth)
        }
    }

    @Test("the VAPID header: an ES256 JWT for the endpoint's origin, expiring within a day, with the server's key")
    func vapid() throws {
        let key = try PushServerKey.generate()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try VAPIDAuthorization.header(endpoint: "https://push.example:8443/send/abc?x=1", contact: "mailto:ops@example.org", key: key, now: now)
        #expect(header.hasPrefix("vapid t=") && header.hasSuffix(", k=\(key.publicKeyText)"))
        let token = String(header.dropFirst(8).prefix { $0 != "," })
        let parts = token.split(separator: ".").map(String.init)
        let signature = try Self.bytes(parts[2])
        #expect(parts.count == 3 && signature.count == 64)
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(try Self.bytes(parts[1]))) as? [String: Any])
        #expect(claims["aud"] as? String == "https://push.example:8443" && claims["sub"] as? String == "mailto:ops@example.org")
        let expires = try #require(claims["exp"] as? Int)
        #expect(expires > Int(now.timeIntervalSince1970) && expires <= Int(now.timeIntervalSince1970) + 24 * 3600)
    }
}
