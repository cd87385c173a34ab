import DBusTestSupport
import Foundation
import Glibc

/// Debian's Chromium, headless, driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: commands on its fd 3, replies and events on its fd 4, each JSON
/// message ended by a NUL byte). Its stderr, where it also forwards its native messaging hosts'
/// stderr and (with `--enable-logging=stderr`) extension console messages, is read line by line.
///
/// Started in a process group of its own; `stop()` closes the browser, then kills the whole group
/// (renderers, zygotes, native hosts) and checks nothing of it is left. Every wait has a timeout.
///
/// `@unchecked Sendable`: the mutable state is only touched under `lock`.
final class HeadlessChromium: @unchecked Sendable {
    /// The real binary: Debian's `/usr/bin/chromium` wrapper adds extension flags of its own.
    static let binary = "/usr/lib/chromium/chromium"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    let pid: pid_t
    private let commands: Int32
    private let lock = NSCondition()
    private var nextID = 1
    private var responses: [Int: [String: Any]] = [:]
    private var events: [[String: Any]] = []
    private var stderrLines: [String] = []
    private var readersDone = 0
    private var stopped = false

    /// Starts Chromium with `arguments` (after the binary) and `environment`.
    init(arguments: [String], environment: [String: String]) throws {
        // toBrowser: we write, Chromium reads on fd 3. fromBrowser: Chromium writes on fd 4.
        let toBrowser = try Self.pipe(), fromBrowser = try Self.pipe(), output = try Self.pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, output.write, 2)
        posix_spawn_file_actions_adddup2(&actions, toBrowser.read, 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser.write, 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, to kill it whole; no signal blocked or ignored (test threads
        // block some, and a child inherits that).
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)

        let argv = ([Self.binary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, Self.binary, &actions, &attributes, argv, envp)
        for fd in [toBrowser.read, fromBrowser.write, output.write] { close(fd) }
        guard status == 0 else {
            for fd in [toBrowser.write, fromBrowser.read, output.read] { close(fd) }
            throw FixtureError("posix_spawn \(Self.binary): \(String(cString: strerror(status)))")
        }
        pid = child
        commands = toBrowser.write
        Thread.detachNewThread { [self] in readProtocol(fromBrowser.read) }
        Thread.detachNewThread { [self] in readOutput(output.read) }
    }

    deinit { stop() }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw FixtureError("pipe: \(String(cString: strerror(errno)))") }
        // Not inherited by other children; the spawn's dup2 gives Chromium its own copies.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    // MARK: The DevTools protocol

    /// Sends a command (to a target's `session`, else to the browser) and waits for its result.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: TimeInterval = 20) throws -> [String: Any] {
        lock.lock()
        let id = nextID
        nextID += 1
        lock.unlock()
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        let bytes = [UInt8](try JSONSerialization.data(withJSONObject: message)) + [0]
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard count > 0 else { throw FixtureError("Chromium closed its DevTools pipe (sending \(method))") }
            written += count
        }
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let response = responses.removeValue(forKey: id) {
                if let error = response["error"] { throw FixtureError("\(method) failed: \(error)") }
                return response["result"] as? [String: Any] ?? [:]
            }
            guard readersDone < 2, lock.wait(until: deadline) else {
                throw FixtureError("no reply to \(method) within \(timeout) s\(tail)")
            }
        }
    }

    /// Waits for an event `method` (of `session`, when given) whose params satisfy `predicate`,
    /// among those from `index` on; returns the params and where to look for the next one.
    @discardableResult
    func waitForEvent(_ method: String, session: String? = nil, from index: Int = 0, timeout: TimeInterval = 20,
                      where predicate: ([String: Any]) -> Bool = { _ in true }) throws -> (params: [String: Any], next: Int) {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        var position = index
        while true {
            while position < events.count {
                let event = events[position]
                position += 1
                let params = event["params"] as? [String: Any] ?? [:]
                if event["method"] as? String == method, session == nil || event["sessionId"] as? String == session, predicate(params) {
                    return (params, position)
                }
            }
            guard readersDone < 2, lock.wait(until: deadline) else {
                throw FixtureError("no \(method) event within \(timeout) s\(tail)")
            }
        }
    }

    /// How many events have arrived (a start index for `waitForEvent`).
    var eventCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return events.count
    }

    /// The params of every event `method` received so far, or before the event at index `end`.
    func receivedEvents(_ method: String, before end: Int? = nil) -> [[String: Any]] {
        lock.lock()
        defer { lock.unlock() }
        return events.prefix(end ?? events.count).filter { $0["method"] as? String == method }.map { $0["params"] as? [String: Any] ?? [:] }
    }

    /// Opens a new tab of `width`×`height` CSS pixels and attaches to it; returns the session for
    /// its commands.
    func openTab(width: Int = 1024, height: Int = 640) throws -> String {
        let target = try send("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw FixtureError("no targetId in \(target)") }
        let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw FixtureError("no sessionId in \(attached)") }
        try send("Page.enable", session: session)
        try send("Runtime.enable", session: session)
        try send("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false],
                 session: session)
        return session
    }

    /// Loads `url` in the tab and waits for its load event.
    func visit(_ url: String, session: String, timeout: TimeInterval = 20) throws {
        let start = eventCount
        let navigation = try send("Page.navigate", ["url": url], session: session)
        if let error = navigation["errorText"] as? String { throw FixtureError("navigating to \(url): \(error)") }
        try waitForEvent("Page.loadEventFired", session: session, from: start, timeout: timeout)
    }

    /// A PNG of the tab as it is displayed.
    func screenshot(session: String) throws -> Data {
        let result = try send("Page.captureScreenshot", ["format": "png"], session: session)
        guard let base64 = result["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw FixtureError("no screenshot data")
        }
        return png
    }

    // MARK: Its output

    /// Waits for a stderr line satisfying `predicate`, within `timeout`.
    @discardableResult
    func waitForLine(timeout: TimeInterval = 20, _ what: String, where predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let line = stderrLines.first(where: predicate) { return line }
            guard readersDone < 2, lock.wait(until: deadline) else {
                throw FixtureError("no \(what) within \(timeout) s\(tail)")
            }
        }
    }

    /// Every stderr line so far.
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stderrLines
    }

    /// The last lines of output, for failure messages (call under the lock).
    private var tail: String { "; Chromium's last output:\n" + stderrLines.suffix(30).joined(separator: "\n") }

    private func readProtocol(_ fd: Int32) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while case let count = read(fd, &chunk, chunk.count), count > 0 {
            pending += chunk[..<count]
            while let end = pending.firstIndex(of: 0) {
                let message = (try? JSONSerialization.jsonObject(with: Data(pending[..<end]))) as? [String: Any]
                pending.removeSubrange(...end)
                guard let message else { continue }
                lock.lock()
                if let id = message["id"] as? Int { responses[id] = message } else { events.append(message) }
                lock.broadcast()
                lock.unlock()
            }
        }
        close(fd)
        finishedReading()
    }

    private func readOutput(_ fd: Int32) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while case let count = read(fd, &chunk, chunk.count), count > 0 {
            pending += chunk[..<count]
            lock.lock()
            while let newline = pending.firstIndex(of: 0x0A) {
                stderrLines.append(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
            lock.broadcast()
            lock.unlock()
        }
        close(fd)
        finishedReading()
    }

    private func finishedReading() {
        lock.lock()
        readersDone += 1
        lock.broadcast()
        lock.unlock()
    }

    // MARK: Stopping

    /// Asks the browser to close, then kills its whole process group (which also holds the native
    /// hosts it started) and reaps it. Returns the processes of the group still alive afterwards
    /// (none expected), waiting up to `timeout` for them to go.
    @discardableResult
    func stop(timeout: TimeInterval = 10) -> [pid_t] {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        guard first else { return [] }
        _ = try? send("Browser.close", timeout: 5)
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        close(commands)
        // The group's other processes were reparented; SIGKILL ends them, the kernel reaps them.
        let deadline = Date().addingTimeInterval(timeout)
        var left = Self.processes(inGroup: pid)
        while !left.isEmpty, Date() < deadline {
            kill(-pid, SIGKILL)
            usleep(20_000) // polling /proc until a bounded deadline: there is no event for another parent's child exiting
            left = Self.processes(inGroup: pid)
        }
        lock.lock()
        while readersDone < 2, lock.wait(until: deadline) {}
        lock.unlock()
        return left
    }

    /// Live (not zombie) processes whose process group is `group`.
    static func processes(inGroup group: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // After "(comm)": state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && Int32(fields[2]) == group
        }
    }
}
