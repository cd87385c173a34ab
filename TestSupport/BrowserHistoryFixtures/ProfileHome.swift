import DBusTestSupport
import Foundation
import Glibc

/// A temporary home folder with browser profiles laid out as the browsers lay them out, and a
/// separate temporary folder for the private copies. Removed with `remove()`.
package final class ProfileHome: Sendable {
    /// The folder holding both.
    package let root: String
    /// `$HOME`.
    package let home: String
    /// `$TMPDIR` for the lookup: where its private copies go (and must not stay).
    package let temporary: String

    package init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array("\(base)/dbm-history-XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FixtureError("cannot make a temporary folder in \(base): \(String(cString: strerror(errno)))")
        }
        root = String(cString: created)
        home = root + "/home"
        temporary = root + "/tmp"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    }

    package func remove() {
        try? FileManager.default.removeItem(atPath: root) // best effort: a temporary home
    }

    /// The environment the lookup runs in: this `HOME` and `TMPDIR`, no `XDG_CONFIG_HOME`
    /// (so `~/.config`), plus `extra`.
    package func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = nil
        environment["DBMULTIVERSE_SITE_URL"] = nil
        environment["HOME"] = home
        environment["TMPDIR"] = temporary
        return environment.merging(extra) { _, new in new }
    }

    /// Adds a Firefox profile `folder` to the Firefox home `firefoxHome` (relative to `home`,
    /// e.g. `.mozilla/firefox`), listed in its `profiles.ini` with a relative `Path=`, or with an
    /// absolute one when `at` places the folder elsewhere (relative to `home`). Returns the path
    /// of its `places.sqlite`.
    @discardableResult
    package func addFirefoxProfile(_ folder: String, firefoxHome: String = ".mozilla/firefox", at location: String? = nil,
                                  visits: [PageVisit]) throws -> String {
        let firefoxRoot = home + "/" + firefoxHome
        let profileFolder = location.map { home + "/" + $0 } ?? firefoxRoot + "/" + folder
        for folder in [firefoxRoot, profileFolder] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let listPath = firefoxRoot + "/profiles.ini"
        let existing = FileManager.default.fileExists(atPath: listPath)
            ? try String(contentsOfFile: listPath, encoding: .utf8) : "[General]\nStartWithLastProfile=1\nVersion=2\n"
        let index = existing.components(separatedBy: "[Profile").count - 1
        let section = location == nil
            ? "\n[Profile\(index)]\nName=\(folder)\nIsRelative=1\nPath=\(folder)\n"
            : "\n[Profile\(index)]\nName=\(folder)\nIsRelative=0\nPath=\(profileFolder)\n"
        try (existing + section).write(toFile: listPath, atomically: true, encoding: .utf8)
        let database = profileFolder + "/places.sqlite"
        try HistoryDatabases.write(.firefox, at: database, visits: visits)
        return database
    }

    /// Adds a Chromium-family profile (`Default`, `Profile 2`…) to the user-data folder
    /// `userData` (relative to `home`, e.g. `.config/chromium`). Returns the path of its `History`.
    @discardableResult
    package func addChromiumProfile(_ profile: String, userData: String, visits: [PageVisit]) throws -> String {
        let folder = home + "/" + userData + "/" + profile
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = folder + "/History"
        try HistoryDatabases.write(.chromium, at: database, visits: visits)
        return database
    }

    /// Writes `bytes` to `path` (relative to `home`), making its folders.
    package func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: home + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Every file left in the temporary folder (the lookup's copies must all be gone).
    package func temporaryLeftovers() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: temporary)
    }
}
