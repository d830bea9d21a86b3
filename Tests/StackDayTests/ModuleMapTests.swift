import Foundation
import Testing

/// The maps of the code stay whole: every target under `Sources/` is named in docs/domain.md's
/// architecture table and in README's layout.
@Suite("module maps")
struct ModuleMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every target under Sources/ is in docs/domain.md and README.md")
    func complete() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
            .filter { !$0.hasPrefix(".") }.sorted()
        #expect(targets.count >= 20, "\(targets)")
        let domain = try String(contentsOf: Self.root.appendingPathComponent("docs/domain.md"), encoding: .utf8)
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let table = domain.components(separatedBy: "## Architecture").last ?? ""
        for target in targets {
            #expect(table.contains("`\(target)`"), "docs/domain.md's architecture table does not name \(target)")
            #expect(readme.contains("Sources/\(target)/"), "README's layout does not name Sources/\(target)/")
        }
    }
}
