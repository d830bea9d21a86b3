import Foundation
import PackagePlugin

/// Compiles Lua sources into the target as Swift string literals, so a built binary needs no
/// folder beside it: the package's top-level `Policies/*.lua` (the built-in policies) and the
/// target's own `Lua/*.lua` (the host's prelude); for a target with an `Assets` folder, its
/// `.css` and `.js` files instead (the web pages' stylesheet and script).
@main
struct EmbedPolicies: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let assets = context.package.directoryURL.appending(path: "Sources/\(target.name)/Assets")
        if FileManager.default.fileExists(atPath: assets.path) {
            let files = try FileManager.default.contentsOfDirectory(at: assets, includingPropertiesForKeys: nil)
                .filter { ["css", "js", "svg", "webmanifest"].contains($0.pathExtension) }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
            return [
                .buildCommand(
                    displayName: "Embedding \(files.count) web assets", executable: try context.tool(named: "PolicyEmbedder").url,
                    arguments: [output.path, "--assets"] + files.map(\.path), inputFiles: files, outputFiles: [output]
                ),
            ]
        }
        let policies = try luaFiles(in: context.package.directoryURL.appending(path: "Policies"))
        let host = try luaFiles(in: context.package.directoryURL.appending(path: "Sources/\(target.name)/Lua"))
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedLua.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(policies.count) built-in policies and \(host.count) host sources",
                executable: try context.tool(named: "PolicyEmbedder").url,
                arguments: [output.path] + policies.map(\.path) + ["--host"] + host.map(\.path),
                inputFiles: policies + host,
                outputFiles: [output]
            ),
        ]
    }

    private func luaFiles(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "lua" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
