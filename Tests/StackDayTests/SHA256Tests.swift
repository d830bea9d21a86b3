import Testing
import StackDay

@Suite("SHA-256")
struct SHA256Tests {
    @Test("NIST test vectors and lengths around the padding boundary", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        ("물 마시기", "bcb26edb81c097a7e1eba20b2bc14a6ceeb42d136aa9219c8a03809d606e783a"), // UTF-8, from Python's hashlib
    ])
    func vectors(text: String, digest: String) {
        #expect(SHA256(of: text).description == digest)
        #expect(SHA256(of: Array(text.utf8)) == SHA256(of: text))
        #expect(SHA256(hex: digest) == SHA256(of: text))
        #expect(SHA256(hex: digest.uppercased()) == SHA256(of: text))
    }

    @Test("a digest is read back only from 64 hexadecimal digits", arguments: ["", "abc", String(repeating: "0", count: 63),
                                                                               String(repeating: "0", count: 65), String(repeating: "g", count: 64)])
    func notHex(text: String) {
        #expect(SHA256(hex: text) == nil)
    }

    @Test("a million a's")
    func million() {
        #expect(SHA256(of: [UInt8](repeating: 0x61, count: 1_000_000)).description == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
