import Foundation

/// What the processes a test starts inherit: the test's own environment without what would send
/// them somewhere other than the fixture — the developer's bus addresses (a service started
/// with `DBUS_STARTER_ADDRESS` set connects there, not to the private bus) and the settings of
/// the program under test (`DBMULTIVERSE_*`: a developer's `DBMULTIVERSE_LOG_LEVEL=critical`
/// silences the log lines tests wait for). Tests set what they need on top.
public func testEnvironment() -> [String: String] {
    ProcessInfo.processInfo.environment.filter { name, _ in
        !name.hasPrefix("DBMULTIVERSE_") && !busAddressVariables.contains(name)
    }
}

private let busAddressVariables: Set = ["DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE"]

/// A fresh directory under `$TMPDIR` (else `/tmp`), private to this user when `$TMPDIR` is.
///
/// `forPrograms`: the test runs programs from it (an install prefix, a script). `$TMPDIR` may be
/// mounted `noexec` (a common hardening), and then the directory goes in the first of `/tmp`,
/// `/var/tmp` and `/dev/shm` that is not, else beside the test bundle, which runs from there.
public func makeTemporaryDirectory(_ prefix: String = "dbm-data", forPrograms: Bool = false) throws -> String {
    let temporary = FileManager.default.temporaryDirectory.path
    guard forPrograms, !allowsPrograms(temporary) else { return try makeDirectory(prefix, in: temporary) }
    let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    for candidate in ["/tmp", "/var/tmp", "/dev/shm", bundle] where allowsPrograms(candidate) {
        if let path = try? makeDirectory(prefix, in: candidate) { return path }
    }
    throw FixtureError("no temporary directory that programs can run from: \(temporary) and the others are noexec or not writable")
}

/// A fresh directory that other users can reach, mode 0755 whatever the umask: for a fixture that
/// runs a process as another user (a test running as root runs the service as `nobody`, since
/// root reads every file). `$TMPDIR` may be private (0700, or inside a private home) and is never
/// loosened; the directory goes in the first of `$TMPDIR`, `/tmp`, `/var/tmp` and `/dev/shm` that
/// every user may search all the way down, which the shared temporary directories are made for
/// (and, `forPrograms`, that is not mounted `noexec`).
/// - Throws: `FixtureError` naming the places tried when none will do.
public func makeSharedTemporaryDirectory(_ prefix: String, forPrograms: Bool = false) throws -> String {
    let candidates = [FileManager.default.temporaryDirectory.path, "/tmp", "/var/tmp", "/dev/shm"]
    for candidate in candidates where isSearchableByEveryone(candidate) && (!forPrograms || allowsPrograms(candidate)) {
        guard let path = try? makeDirectory(prefix, in: candidate) else { continue }
        guard chmod(path, 0o755) == 0 else {
            rmdir(path)
            continue
        }
        return path
    }
    throw FixtureError("""
        no temporary directory that other users can reach\(forPrograms ? " and run programs from" : ""): \
        tried \(candidates.joined(separator: ", "))
        """)
}

/// Makes `<parent>/<prefix>-<random>` (resolving symlinks in `parent`) and returns its path.
private func makeDirectory(_ prefix: String, in parent: String) throws -> String {
    let url = URL(fileURLWithPath: parent).resolvingSymlinksInPath().appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
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
