import Foundation

/// What the processes a test starts inherit: the test's own environment without what would send
/// them somewhere other than the fixture — the developer's bus addresses (a service started
/// with `DBUS_STARTER_ADDRESS` set connects there, not to the private bus) and the settings of
/// the program under test (`DBMULTIVERSE_*`: a developer's `DBMULTIVERSE_LOG_LEVEL=critical`
/// silences the log lines tests wait for). Tests set what they need on top.
package func testEnvironment() -> [String: String] {
    ProcessInfo.processInfo.environment.filter { name, _ in
        !name.hasPrefix("DBMULTIVERSE_") && !busAddressVariables.contains(name)
    }
}

private let busAddressVariables: Set = ["DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE"]

/// What a fixture's temporary directory must allow besides holding files.
package struct TemporaryDirectoryUse: OptionSet, Sendable, CustomStringConvertible {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    package var description: String {
        [(Self.programs, "programs"), (.sockets, "sockets"), (.otherUsers, "other users")]
            .filter { contains($0.0) }.map(\.1).joined(separator: ", ")
    }
    /// Programs run from it (an install prefix, a script): it is not on a `noexec` mount.
    package static let programs = TemporaryDirectoryUse(rawValue: 1 << 0)
    /// Unix sockets are made in it (a bus, a runtime directory): its path leaves room for their
    /// names, since a socket's whole path has at most 107 bytes.
    package static let sockets = TemporaryDirectoryUse(rawValue: 1 << 1)
    /// Other users reach it (a service run as `nobody` by a test running as root, which reads
    /// every file): every user may search every directory above it, and it gets mode 0755.
    package static let otherUsers = TemporaryDirectoryUse(rawValue: 1 << 2)
}

/// A fresh directory for a fixture: in `$TMPDIR` (else `/tmp`) when that suits `uses`, else in
/// the first of `/tmp`, `/var/tmp` and `/dev/shm` that does (for programs, lastly beside the
/// test bundle, which runs from there). `$TMPDIR` may be private (0700), long, or mounted
/// `noexec` (a common hardening); it is never loosened, and a directory made elsewhere is made
/// private (0700) unless it is for other users.
/// - Throws: `FixtureError` naming the places tried when none suits.
package func makeTemporaryDirectory(_ prefix: String = "dbm-data", for uses: TemporaryDirectoryUse = []) throws -> String {
    let temporary = FileManager.default.temporaryDirectory.path
    let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    let candidates = [temporary, "/tmp", "/var/tmp", "/dev/shm"] + (uses.contains(.programs) ? [bundle] : [])
    for candidate in candidates {
        let parent = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
        let path = parent + "/\(prefix)-\(UUID().uuidString.prefix(8))"
        guard !uses.contains(.programs) || allowsPrograms(parent),
              !uses.contains(.sockets) || path.utf8.count <= 64, // 43 bytes left for the sockets' names
              !uses.contains(.otherUsers) || isSearchableByEveryone(parent),
              (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil // else the next place
        else { continue }
        let mode: mode_t? = uses.contains(.otherUsers) ? 0o755 : candidate == temporary ? nil : 0o700
        if let mode, chmod(path, mode) != 0 {
            rmdir(path)
            continue
        }
        return path
    }
    throw FixtureError("no temporary directory for \(uses) in \(candidates.joined(separator: ", "))")
}

/// Whether programs may run from the filesystem holding `path` (it is not mounted `noexec`).
private func allowsPrograms(_ path: String) -> Bool {
    let noexec: UInt = 8 // ST_NOEXEC of glibc's <sys/statvfs.h>, which Swift's Glibc leaves out (_GNU_SOURCE)
    var status = statvfs()
    return statvfs(path, &status) == 0 && status.f_flag & noexec == 0
}

/// Whether `path` and every directory above it let any user search them (mode o+x).
private func isSearchableByEveryone(_ path: String) -> Bool {
    var directories = ["/"], directory = ""
    for component in URL(fileURLWithPath: path).resolvingSymlinksInPath().path.split(separator: "/") {
        directory += "/" + component
        directories.append(directory)
    }
    return directories.allSatisfy { directory in
        var status = stat()
        return stat(directory, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR && status.st_mode & S_IXOTH != 0
    }
}
