import ComicDomain
package import DBusTestSupport
import DesktopTestSupport
package import Foundation
package import Testing

/// Runs a script that checks DBMultiverse in a real host (`scripts/real-hosts/real-notification-daemon.sh`,
/// `tray-host-check.sh`, `gnome-shell-check.sh`, `plasma-card-check.sh`) with the built binary, and
/// prints its output. Its folders are named as the script names its own, after `name`: the
/// screenshots go to a new `dbm-<name>-shots` folder that stays, for a person to look at; when the
/// script is given its session's folder (in the environment variable `session.variable`), that is
/// a new `dbm-<name>-check`, removed after the run. `shotsUse` and `session.uses` say what each
/// folder must allow (a host run as `nobody` writes the screenshots; sockets need a short path).
/// `shown` is what of the run is printed: all of it, unless a host logs too much. The script is given
/// `options`, then the built binary (unless `withBinary` is false: a script that finds its own).
package func runHostCheck(_ script: String, _ options: [String] = [], withBinary: Bool = true, name: String, shotsUse: TemporaryDirectoryUse,
                  session: (variable: String, uses: TemporaryDirectoryUse)? = nil, timeout: TimeInterval,
                  shown: (CommandResult) -> String = { $0.stdout + $0.stderr }) async throws -> (run: CommandResult, shots: String) {
    let shots = try makeTemporaryDirectory("dbm-\(name)-shots", for: shotsUse)
    var environment = testEnvironment()
    environment["SCREENSHOT_DIR"] = shots
    let sessionFolder = try session.map { try makeTemporaryDirectory("dbm-\(name)-check", for: $0.uses) }
    defer { if let sessionFolder { try? FileManager.default.removeItem(atPath: sessionFolder) } }
    if let session, let sessionFolder { environment[session.variable] = sessionFolder }
    let run = try await runLongCommand([repositoryRoot.appendingPathComponent("scripts/real-hosts/" + script).path] + options
                                       + (withBinary ? [Binary.dbmultiverse] : []), environment: environment, timeout: timeout)
    print("\(script) exited \(run.status); screenshots in \(shots)\n" + shown(run))
    return (run, shots)
}

/// Expects each screenshot of `names` in `shots`, larger than `bytes` (a picture, not an empty file).
package func expectScreenshots(_ names: [String], in shots: String, largerThan bytes: Int,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
    for name in names {
        let attributes = try FileManager.default.attributesOfItem(atPath: shots + "/" + name)
        #expect((attributes[.size] as? Int ?? 0) > bytes, "\(name) is missing or empty", sourceLocation: sourceLocation)
    }
}

/// Why a real host cannot be run here, or nil when it can: the first of `tools` not on `PATH`, or
/// of `files` not there (`needs` says what installs them); when the host runs as `nobody` because
/// it refuses root (`asNobody` names it), no user `nobody` or no setpriv to become it; no built binary.
package func hostUnavailable(tools: [String], files: [String] = [], needs: String, asNobody host: String? = nil) -> String? {
    let asNobody = host != nil && getuid() == 0
    if let tool = (tools + (asNobody ? ["setpriv"] : [])).first(where: { !isOnPath($0) }) {
        return "\(tool) is not installed (\(needs))"
    }
    if let file = files.first(where: { !FileManager.default.fileExists(atPath: $0) }) { return "\(file) is missing (\(needs))" }
    if let host, asNobody, getpwnam("nobody") == nil { return "no user nobody to run \(host) as (it refuses root)" }
    return FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) ? nil : "dbmultiverse is not built"
}

/// `runCommand` on a thread of its own, awaited: for the waits of minutes (a package building in a
/// chroot, a desktop in a chroot that waits for it), which would otherwise hold one of the few
/// threads the blocking tests share (`offThePool`): three such waits at once left one thread to
/// every other blocking suite, whose tests then ran out of time. What builds a package or a chroot
/// is run at `nice -n 19`, as make test's background runs it: when a test gets to it first, the
/// other tests still come first.
package func runLongCommand(_ arguments: [String], environment: [String: String] = testEnvironment(), timeout: TimeInterval) async throws -> CommandResult {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try runCommand(arguments, environment: environment, timeout: timeout) })
        }
    }
}

/// Installs `deb` into a throw-away copy of `release`'s chroot and runs its programs there, with the
/// network off but the loopback (scripts/packaging/installed-programs-check.sh: each prints its version,
/// the activated service stores and returns an entry on a private bus, `sync` loads libcurl and
/// libxml2); expects each of its six checks to pass. Holds a place of the private buses while it runs.
package func expectInstalledProgramsRun(_ deb: String, in release: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let chroot = repositoryRoot.appendingPathComponent("scripts/real-hosts/release-chroot.sh").path
    let prepare = try await runLongCommand(["nice", "-n", "19", chroot, "prepare", release], timeout: 1500)
    try #require(prepare.status == 0, "no \(release) chroot: \(prepare)", sourceLocation: sourceLocation)
    let root = repositoryRoot.path
    let run = try await TestResource.privateBuses.slots.holding {
        try runCommand([chroot, "run", release, "--offline", "--deb", deb, "--bind", "\(root):\(root)", "--",
                        "env", "-i", "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                        root + "/scripts/packaging/installed-programs-check.sh", ProjectInfo.version],
                       environment: testEnvironment(), timeout: 300)
    }
    print("installed-programs-check.sh (\(deb) in \(release)) exited \(run.status)\n\(run.stdout)\(run.stderr)")
    #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
    let checks = run.stdout.split(separator: "\n").filter { $0.hasPrefix("✓") || $0.hasPrefix("✘") }
    #expect(checks.count == 6 && checks.allSatisfy { $0.hasPrefix("✓") }, "\(run.stdout)", sourceLocation: sourceLocation)
}

/// Whether `tool` is an executable on PATH.
package func isOnPath(_ tool: String) -> Bool {
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
}
