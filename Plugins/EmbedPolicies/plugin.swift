import Foundation
import PackagePlugin

/// Compiles the package's top-level `Policies/*.lua` into the target as Swift string literals,
/// so a built binary carries its built-in policies and needs no folder beside it.
@main
struct EmbedPolicies: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Policies")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "lua" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInPolicySources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) built-in policies",
                executable: try context.tool(named: "PolicyEmbedder").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            ),
        ]
    }
}
