package import Foundation

/// A private `dbus-daemon` for one test: its own temporary socket directory and service
/// directory (so bus activation can be tested), never the developer's session bus.
///
/// `@unchecked Sendable`: all stored properties are immutable after `init`, and `Process` is only
/// terminated (from `stop`, guarded by the lock).
package final class PrivateBus: @unchecked Sendable {
    /// The address clients connect to (`unix:path=…`, from `--print-address`).
    package let address: String
    /// A temporary directory owned by this bus; removed by `stop()`.
    package let directory: URL
    /// The `<servicedir>` for activation files.
    package let serviceDirectory: URL
    private let daemon: Process
    /// Signalled by the daemon's termination handler.
    private let exited = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false

    /// Starts the daemon. `activationEnvironment` is the environment activated services inherit,
    /// on top of `testEnvironment()`. `allowAnyUser` lets processes of other users connect (a
    /// service run as `nobody` by a test running as root): the bus then lives in a directory they
    /// can reach and its socket is writable for them too.
    /// `standardServiceFolders` has the bus read the activation files a session bus reads (the XDG
    /// data folders' `dbus-1/services`, from `activationEnvironment`'s XDG_DATA_HOME and
    /// XDG_DATA_DIRS) instead of `serviceDirectory`.
    /// `daemon` and `addressTimeout` are there for the fixture's own tests.
    /// - Throws: `FixtureError` when the daemon does not print its address within `addressTimeout`
    ///   seconds (it is killed) or exits without printing it, or when a test starts it without
    ///   holding a place for it (`TestResource.privateBuses`: the suite is bounded by it).
    package init(activationEnvironment: [String: String] = [:], allowAnyUser: Bool = false, standardServiceFolders: Bool = false,
                daemon daemonPath: String = "/usr/bin/dbus-daemon", addressTimeout: Double = 30) throws {
        if TestResource.runningTests, !TestResource.held.contains(.privateBuses) {
            throw FixtureError("""
                a test that starts a private bus holds a place for it: add .holds(.privateBuses) \
                (TestingTraits) to its suite; see TestResource
                """)
        }
        let base = URL(fileURLWithPath: try makeTemporaryDirectory("dbm-bus", for: allowAnyUser ? [.sockets, .otherUsers] : .sockets))
        serviceDirectory = base.appendingPathComponent("services")
        directory = base
        try FileManager.default.createDirectory(at: serviceDirectory, withIntermediateDirectories: true)
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <keep_umask/>
              <listen>unix:dir=\(base.path)</listen>
              \(standardServiceFolders ? "<standard_session_servicedirs/>" : "<servicedir>\(serviceDirectory.path)</servicedir>")
              <policy context="default">\(allowAnyUser ? "\n    <allow user=\"*\"/>" : "")
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let configFile = base.appendingPathComponent("bus.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)

        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: daemonPath)
        daemon.arguments = ["--config-file=\(configFile.path)", "--nofork", "--print-address"]
        daemon.environment = testEnvironment().merging(activationEnvironment) { $1 }
        let output = Pipe()
        daemon.standardOutput = output
        // Its messages go to a file, read at the end (see `end`).
        let log = base.appendingPathComponent("dbus-daemon.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw FixtureError("cannot create \(log.path)") }
        let logFile: FileHandle
        do { logFile = try FileHandle(forWritingTo: log) } catch { throw FixtureError("cannot open \(log.path): \(error)") }
        defer { try? logFile.close() } // our copy only: the daemon writes through its own
        daemon.standardError = logFile
        daemon.terminationHandler = { [exited] _ in exited.signal() }
        try runWithUnblockedSignals(daemon)
        self.daemon = daemon

        // The first line is the address; the daemon prints it once it listens.
        do {
            let line = try readLine(output.fileHandleForReading, within: addressTimeout, "\(daemonPath)'s address")
            guard line.hasPrefix("unix:") else { throw FixtureError("\(daemonPath) did not print an address (got '\(line)')") }
            address = line
        } catch {
            Self.end(daemon, exited: exited, directory: base)
            throw error
        }
        if allowAnyUser {
            _ = chmod(base.path, 0o755)
            if let path = address.split(separator: ",").first.flatMap({ $0.hasPrefix("unix:path=") ? $0.dropFirst(10) : nil }) {
                _ = chmod(String(path), 0o777)
            }
        }
    }

    deinit { stop() }

    /// Installs a session-bus activation file for `name` running `exec` (an Exec= line).
    package func installActivationFile(name: String, exec: String, systemdService: String? = nil) throws {
        var text = "[D-BUS Service]\nName=\(name)\nExec=\(exec)\n"
        if let systemdService { text += "SystemdService=\(systemdService)\n" }
        try text.write(to: serviceDirectory.appendingPathComponent("\(name).service"), atomically: true, encoding: .utf8)
    }

    /// The daemon's process id (a test freezes it with SIGSTOP to play a hung bus).
    package var processIdentifier: pid_t { daemon.processIdentifier }

    /// The environment a stock client needs to talk to this bus: `testEnvironment()` with
    /// `DBUS_SESSION_BUS_ADDRESS` naming it.
    package var clientEnvironment: [String: String] {
        var environment = testEnvironment()
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// Stops the daemon and removes its directory.
    package func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        Self.end(daemon, exited: exited, directory: directory)
    }

    /// Kills `daemon` unless it has exited, waits (bounded) for its exit, passes on what it logged
    /// (see `noteworthy`), removes `directory`.
    private static func end(_ daemon: Process, exited: DispatchSemaphore, directory: URL) {
        var hasExited = !daemon.isRunning
        if !hasExited {
            // SIGKILL: nothing to wait for, and no shutdown to get wrong.
            kill(daemon.processIdentifier, SIGKILL)
            // Bounded: Foundation's exit monitoring can miss an exit under load, and a SIGKILLed
            // daemon has nothing left to wait for.
            hasExited = exited.wait(timeout: .now() + 5) == .success
        }
        // Returns at once after the exit, and only it drops the Process's run-loop source, which
        // retains the Process: without it every daemon's Process leaks (Foundation on Linux; LSan).
        if hasExited { daemon.waitUntilExit() }
        // The log only adds to a failure's story: none to read, nothing to add.
        // Read through a FileHandle: String(contentsOf:) leaked its 4096-byte read buffer here
        // (Foundation's readBytesFromFile, once per failed start; seen by LeakSanitizer).
        if let file = FileHandle(forReadingAtPath: directory.appendingPathComponent("dbus-daemon.log").path),
           let bytes = try? file.readToEnd() ?? Data() {
            try? file.close()
            let log = String(decoding: bytes, as: UTF8.self)
            let lines = noteworthy(log)
            if !lines.isEmpty { FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8)) }
        }
        try? FileManager.default.removeItem(at: directory) // best effort: a temporary folder
    }

    /// The lines of a daemon's log worth a reader's time. Run as root, dbus-daemon tries to raise
    /// its open-files limit to 65536 and warns at every start where it may not (a container, a
    /// lower hard limit): one line per bus, hundreds per suite, saying nothing about the test.
    package static func noteworthy(_ log: String) -> [String] {
        log.split(separator: "\n").map(String.init).filter { !$0.contains("Failed to set fd limit") }
    }
}

/// Starts `process` with no signals blocked. A child inherits the spawning thread's mask, and on
/// libdispatch's threads (where tests run) SIGCHLD and SIGTERM are blocked: a daemon started with
/// that mask never hears its activated services exit, so a failed activation hangs until the
/// caller's timeout instead of failing with `Spawn.ChildExited`.
func runWithUnblockedSignals(_ process: Process) throws {
    var none = sigset_t(), previous = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    try process.run()
}

package struct FixtureError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
