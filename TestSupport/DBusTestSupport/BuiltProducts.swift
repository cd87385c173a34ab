import Foundation

/// The path of the executable `name` built by SwiftPM next to the test bundle (for `swift test`
/// and for a direct run of the `.xctest`), or a path naming what is missing.
package func builtProduct(_ name: String) -> String {
    let candidates = [
        Bundle.main.bundleURL,
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        Bundle.main.executableURL?.deletingLastPathComponent(),
    ]
    for directory in candidates.compactMap({ $0 }) {
        let path = directory.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return "\(name)-not-built-next-to-\(CommandLine.arguments[0])"
}

/// The path of the executable `name` built next to the test bundle, its links resolved (as
/// `/proc/PID/exe` names a process's executable), or an error saying how to build it: for a
/// fixture that cannot go on without it.
package func requireBuiltProduct(_ name: String) throws -> String {
    let path = builtProduct(name)
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw FixtureError("\(name) is not built next to the test bundle: `swift build --build-tests` builds it")
    }
    return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
}
