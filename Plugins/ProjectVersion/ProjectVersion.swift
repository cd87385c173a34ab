import Foundation
import PackagePlugin

/// The version the programs show (`--version`, the User-Agent) made at build time from
/// debian/changelog, where it is stated once: scripts/build/project-version.sh writes it as a Swift
/// declaration into the target. A build command rather than a constant read by Package.swift:
/// SwiftPM runs it again whenever the changelog changes (its input), in every build (debug,
/// release, the package's offline build), while it keeps an evaluated manifest as long as
/// Package.swift itself is unchanged.
@main struct ProjectVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        let script = root.appending(path: "scripts/build/project-version.sh")
        let output = context.pluginWorkDirectoryURL.appending(path: "ProjectVersion.swift")
        return [
            .buildCommand(
                displayName: "Reading the version from debian/changelog",
                executable: URL(filePath: "/bin/sh"),
                arguments: [script.path(percentEncoded: false), "swift", output.path(percentEncoded: false)],
                inputFiles: [root.appending(path: "debian/changelog"), script],
                outputFiles: [output]
            ),
        ]
    }
}
