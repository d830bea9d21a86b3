import Foundation
import Testing
@testable import StackDayServer

/// The pairing QR code: drawn by libqrencode, written as SVG, rasterized from the SVG's own path,
/// and read back by zbar (`zbarimg`, as a phone's camera would) for texts of many lengths.
@Suite("QR codes")
struct PairingQRPictureTests {
    /// The SVG's squares (`M x y h w v1 h-w z`) drawn into a PGM image, `scale` pixels a module.
    static func pgm(of svg: String, scale: Int = 6) throws -> Data {
        let box = try #require(svg.firstMatch(of: /viewBox="0 0 (\d+) (\d+)"/))
        let side = try #require(Int(box.1))
        var pixels = [UInt8](repeating: 255, count: side * scale * side * scale)
        for run in svg.matches(of: /M(\d+) (\d+)h(\d+)v1h-\d+z/) {
            let (x, y, width) = (Int(run.1)!, Int(run.2)!, Int(run.3)!)
            for row in (y * scale)..<((y + 1) * scale) {
                for column in (x * scale)..<((x + width) * scale) { pixels[row * side * scale + column] = 0 }
            }
        }
        return Data("P5\n\(side * scale) \(side * scale)\n255\n".utf8) + Data(pixels)
    }

    static func decode(_ svg: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pgm")
        defer { try? FileManager.default.removeItem(at: file) }
        try pgm(of: svg).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["zbarimg", "--raw", "-q", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    @Test("read back by zbar", arguments: [
        ("https://habits.example/pair?code=7KQ2-M9XD", 3),
        ("A", 1),
        ("https://home.local:8443/pair?code=ABCD-EFGH", 4),
        (String(repeating: "x", count: 80), 5),
        (String(repeating: "0123456789", count: 15), 8),
        (String(repeating: "z", count: 200), 10),
    ])
    func readBack(text: String, version: Int) throws {
        let code = try #require(PairingQRPicture(text))
        #expect(code.version == version)
        #expect(code.size == 17 + 4 * version)
        #expect(try Self.decode(code.svg(label: "pairing code")) == text)
    }

    @Test("more than version 40 holds at level M (2,331 bytes) is refused; what it holds is drawn")
    func tooLong() {
        #expect(PairingQRPicture(String(repeating: "z", count: 2_332)) == nil)
        #expect(PairingQRPicture(String(repeating: "z", count: 2_331))?.version == 40)
    }

    @Test("the SVG is sized by its viewBox, has a quiet zone and an accessible name")
    func svg() throws {
        let code = try #require(PairingQRPicture("https://habits.example/pair?code=7KQ2-M9XD"))
        let svg = code.svg(label: "Code <7KQ2-M9XD>")
        #expect(svg.contains("viewBox=\"0 0 37 37\""), "version 3: 29 modules and 4 of quiet zone each side")
        #expect(svg.contains("role=\"img\" aria-label=\"Code &lt;7KQ2-M9XD&gt;\""))
        #expect(svg.contains("<rect width=\"37\" height=\"37\" fill=\"#fff\"/>"), "a light ground, whatever the page's colours")
        #expect(!svg.contains("M0 ") && !svg.contains("M1 "), "the first four modules are the quiet zone")
    }
}
