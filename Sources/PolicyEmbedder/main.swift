import Foundation

// Writes a Swift file declaring `BuiltInPolicySources.all` and `HostLuaSources.all`: name → Lua
// source, one raw string literal per `.lua` file given; or, with `--assets`, `WebAssetSources.all`:
// file name → text, for the web pages' stylesheet and script.
// Usage: PolicyEmbedder OUTPUT POLICY.lua... --host HOST.lua...
//        PolicyEmbedder OUTPUT --assets FILE...

let arguments = Array(CommandLine.arguments.dropFirst())
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: PolicyEmbedder OUTPUT POLICY.lua... --host HOST.lua...\n".utf8))
    exit(64)
}
let files = arguments.dropFirst()
let split = files.firstIndex(of: "--host") ?? files.endIndex
let policies = files[..<split]
let host = split < files.endIndex ? files[files.index(after: split)...] : []

/// A raw string literal delimiter that no `"#…` (an early close) or `\#…` (an escape) in `text` matches.
func delimiter(for text: String) -> String {
    var longest = 0, run = -1
    for character in text {
        if character == "\"" || character == "\\" { run = 0 } else if character == "#", run >= 0 { run += 1; longest = max(longest, run) } else { run = -1 }
    }
    return String(repeating: "#", count: longest + 1)
}

func table(_ name: String, _ summary: String, _ paths: ArraySlice<String>, keepingExtension: Bool = false) -> String {
    var code = "/// \(summary)\nenum \(name) {\n    static let all: [String: String] = [\n"
    for path in paths {
        let url = URL(fileURLWithPath: path)
        let source: String
        do {
            source = try String(contentsOf: url, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("error: cannot read \(path): \(error)\n".utf8))
            exit(1)
        }
        let hashes = delimiter(for: source)
        let key = keepingExtension ? url.lastPathComponent : url.deletingPathExtension().lastPathComponent
        code += "        \"\(key)\": \(hashes)\"\"\"\n\(source)\n\"\"\"\(hashes),\n"
    }
    return code + (paths.isEmpty ? "        :\n" : "") + "    ]\n}\n"
}

let code = files.first == "--assets"
    ? "// Generated at build time by the EmbedPolicies plugin; do not edit.\n\n"
        + table("WebAssetSources", "The web app's stylesheet, scripts, manifest and icon by file name, compiled into the binary.", files.dropFirst(), keepingExtension: true)
    : "// Generated at build time by the EmbedPolicies plugin; do not edit.\n\n"
    + table("BuiltInPolicySources", "The built-in policies' Lua sources by name, compiled into the binary.", policies) + "\n"
    + table("HostLuaSources", "The policy host's own Lua sources by name (the prelude; the starters and annotations authors are given), compiled into the binary.", host)
do {
    try code.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("error: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
