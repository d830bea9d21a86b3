import Testing
import StackDay

@Suite("Hexadecimal text")
struct HexTextTests {
    @Test("bytes written as hex read back, in either case")
    func roundTrip() {
        let bytes: [UInt8] = [0x00, 0x0f, 0x10, 0x7f, 0x80, 0xab, 0xff]
        let text = HexText.lowercase(bytes)
        #expect(text == "000f107f80abff")
        #expect(HexText.bytes(text.utf8) == bytes)
        #expect(HexText.bytes(text.uppercased().utf8) == bytes)
        #expect(HexText.bytes("".utf8) == [])
    }

    @Test("an odd count or a character that is not a hex digit is refused", arguments: ["0", "abc", "0g", "zz", " 00", "0x00"])
    func refused(text: String) {
        #expect(HexText.bytes(text.utf8) == nil)
    }
}
