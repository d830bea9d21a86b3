import Foundation

// Writes a Swift file declaring `BuiltInPolicySources.all`: policy name → Lua source, one raw
// string literal per `.lua` file given. Usage: PolicyEmbedder OUTPUT FILE.lua...

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: PolicyEmbedder OUTPUT FILE.lua...\n".utf8))
    exit(64)
}

/// A raw string literal delimiter that no `"#…` (an early close) or `\#…` (an escape) in `text` matches.
func delimiter(for text: String) -> String {
    var longest = 0, run = -1
    for character in text {
        if character == "\"" || character == "\\" { run = 0 } else if character == "#", run >= 0 { run += 1; longest = max(longest, run) } else { run = -1 }
    }
    return String(repeating: "#", count: longest + 1)
}

var code = """
// Generated from Policies/ at build time by the EmbedPolicies plugin; do not edit.

/// The built-in policies' Lua sources by name, compiled into the binary.
enum BuiltInPolicySources {
    static let all: [String: String] = [

"""
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    let name = url.deletingPathExtension().lastPathComponent
    let source: String
    do {
        source = try String(contentsOf: url, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("error: cannot read \(path): \(error)\n".utf8))
        exit(1)
    }
    let hashes = delimiter(for: source)
    code += "        \"\(name)\": \(hashes)\"\"\"\n\(source)\n\"\"\"\(hashes),\n"
}
code += "    ]\n}\n"
do {
    try code.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("error: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
