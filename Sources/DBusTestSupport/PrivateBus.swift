public import Foundation

/// A private `dbus-daemon` for one test: its own temporary socket directory and service
/// directory (so bus activation can be tested), never the developer's session bus.
///
/// `@unchecked Sendable`: all stored properties are immutable after `init`, and `Process` is only
/// terminated (from `stop`, guarded by the lock).
public final class PrivateBus: @unchecked Sendable {
    /// The address clients connect to (`unix:path=…`, from `--print-address`).
    public let address: String
    /// A temporary directory owned by this bus; removed by `stop()`.
    public let directory: URL
    /// The `<servicedir>` for activation files.
    public let serviceDirectory: URL
    private let daemon: Process
    /// Signalled by the daemon's termination handler.
    private let exited = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false

    /// Starts the daemon. `activationEnvironment` is the environment activated services inherit.
    /// `allowAnyUser` lets processes of other users connect (a service run as `nobody` by a test
    /// running as root); the socket is then made writable for them too.
    public init(activationEnvironment: [String: String] = [:], allowAnyUser: Bool = false) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("dbm-bus-\(UUID().uuidString.prefix(8))")
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
              <servicedir>\(serviceDirectory.path)</servicedir>
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
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(configFile.path)", "--nofork", "--print-address"]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        environment.merge(activationEnvironment) { $1 }
        daemon.environment = environment
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle.standardError
        daemon.terminationHandler = { [exited] _ in exited.signal() }
        try runWithUnblockedSignals(daemon)
        self.daemon = daemon

        // The first line is the address; the daemon prints it once it listens.
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        address = String(decoding: line, as: UTF8.self)
        guard address.hasPrefix("unix:") else {
            kill(daemon.processIdentifier, SIGKILL)
            throw FixtureError("dbus-daemon did not print an address (got '\(address)')")
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
    public func installActivationFile(name: String, exec: String, systemdService: String? = nil) throws {
        var text = "[D-BUS Service]\nName=\(name)\nExec=\(exec)\n"
        if let systemdService { text += "SystemdService=\(systemdService)\n" }
        try text.write(to: serviceDirectory.appendingPathComponent("\(name).service"), atomically: true, encoding: .utf8)
    }

    /// The environment a stock client needs to talk to this bus.
    public var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// Stops the daemon and removes its directory.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        var hasExited = !daemon.isRunning
        if !hasExited {
            // SIGKILL: nothing to wait for, and no shutdown to get wrong.
            kill(daemon.processIdentifier, SIGKILL)
            // Bounded: Foundation's exit monitoring has been seen to miss an exit under load
            // (ASan), and a SIGKILLed daemon has nothing left to wait for.
            hasExited = exited.wait(timeout: .now() + 5) == .success
        }
        // Returns at once after the exit, and only it drops the Process's run-loop source, which
        // retains the Process: without it every daemon's Process leaks (Foundation on Linux; LSan).
        if hasExited { daemon.waitUntilExit() }
        try? FileManager.default.removeItem(at: directory)
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

public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
