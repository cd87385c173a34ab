import Foundation

/// The path of the executable `name` built by SwiftPM next to the test bundle (for `swift test`
/// and for a direct run of the `.xctest`), or a path naming what is missing.
public func builtProduct(_ name: String) -> String {
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
