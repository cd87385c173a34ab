import DBusTestSupport
import DesktopTestSupport
package import Foundation
import Glibc

/// Debian's Chromium, headless, driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: commands on its fd 3, replies and events on its fd 4, each JSON
/// message ended by a NUL byte). Its stderr, where it also forwards its native messaging hosts'
/// stderr and (with `--enable-logging=stderr`) extension console messages, is read line by line.
///
/// `stop()` closes the browser, then kills its whole process group (renderers, zygotes, native
/// hosts) and checks nothing of it is left. Every wait has a timeout.
///
/// `@unchecked Sendable`: the mutable state is only touched under `lock`.
package final class HeadlessChromium: @unchecked Sendable {
    /// The real binary: Debian's `/usr/bin/chromium` wrapper adds extension flags of its own.
    package static let binary = "/usr/lib/chromium/chromium"
    package static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    package let process: ProcessGroup
    private let commands: Int32
    private let lock = NSCondition()
    private var nextID = 1
    private var responses: [Int: [String: Any]] = [:]
    private var events: [[String: Any]] = []
    private var protocolEnded = false
    private var stopped = false

    /// Starts Chromium with `arguments` (after the binary; `--remote-debugging-pipe` is added) and `environment`.
    package init(arguments: [String], environment: [String: String]) throws {
        // toBrowser: we write, Chromium reads on fd 3. fromBrowser: Chromium writes on fd 4.
        let toBrowser = try Spawn.pipe(), fromBrowser = try Spawn.pipe()
        do {
            process = try ProcessGroup(binary: Self.binary, arguments: arguments + ["--remote-debugging-pipe"], environment: environment,
                                       descriptors: [3: toBrowser.read, 4: fromBrowser.write])
        } catch {
            for fd in [toBrowser.read, toBrowser.write, fromBrowser.read, fromBrowser.write] { close(fd) }
            throw error
        }
        close(toBrowser.read)
        close(fromBrowser.write)
        commands = toBrowser.write
        detachIOThread { [self] in readProtocol(fromBrowser.read) }
    }

    deinit { stop() }

    // MARK: The DevTools protocol

    /// Sends a command (to a target's `session`, else to the browser) and waits for its result.
    @discardableResult
    package func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: TimeInterval = 20) throws -> [String: Any] {
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
        let response = try lock.waitForValue(timeout: timeout, isOver: { protocolEnded },
                                             failure: { "no reply to \(method) within \(timeout) s; Chromium's last output:\n\(process.tail)" }) {
            responses.removeValue(forKey: id)
        }
        if let error = response["error"] { throw FixtureError("\(method) failed: \(error)") }
        return response["result"] as? [String: Any] ?? [:]
    }

    /// Waits for an event `method` (of `session`, when given) whose params satisfy `predicate`,
    /// among those from `index` on; returns the params and where to look for the next one.
    @discardableResult
    package func waitForEvent(_ method: String, session: String? = nil, from index: Int = 0, timeout: TimeInterval = 20,
                      where predicate: ([String: Any]) -> Bool = { _ in true }) throws -> (params: [String: Any], next: Int) {
        var position = index
        return try lock.waitForValue(timeout: timeout, isOver: { protocolEnded },
                                     failure: { "no \(method) event within \(timeout) s; Chromium's last output:\n\(process.tail)" }) {
            while position < events.count {
                let event = events[position]
                position += 1
                let params = event["params"] as? [String: Any] ?? [:]
                if event["method"] as? String == method, session == nil || event["sessionId"] as? String == session, predicate(params) {
                    return (params, position)
                }
            }
            return nil
        }
    }

    /// How many events have arrived (a start index for `waitForEvent`).
    package var eventCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return events.count
    }

    /// The params of every event `method` received so far, or before the event at index `end`.
    package func receivedEvents(_ method: String, before end: Int? = nil) -> [[String: Any]] {
        lock.lock()
        defer { lock.unlock() }
        return events.prefix(end ?? events.count).filter { $0["method"] as? String == method }.map { $0["params"] as? [String: Any] ?? [:] }
    }

    /// Opens a new tab of `width`×`height` CSS pixels and attaches to it; returns the session for
    /// its commands.
    package func openTab(width: Int = 1024, height: Int = 640) throws -> String {
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
    package func visit(_ url: String, session: String, timeout: TimeInterval = 20) throws {
        let start = eventCount
        let navigation = try send("Page.navigate", ["url": url], session: session)
        if let error = navigation["errorText"] as? String { throw FixtureError("navigating to \(url): \(error)") }
        try waitForEvent("Page.loadEventFired", session: session, from: start, timeout: timeout)
    }

    /// A PNG of the tab as it is displayed.
    package func screenshot(session: String) throws -> Data {
        let result = try send("Page.captureScreenshot", ["format": "png"], session: session)
        guard let base64 = result["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw FixtureError("no screenshot data")
        }
        return png
    }

    // MARK: Its output

    /// Waits for a line of Chromium's output satisfying `predicate`, within `timeout`.
    @discardableResult
    package func waitForLine(timeout: TimeInterval = 20, _ what: String, where predicate: (String) -> Bool) throws -> String {
        try process.waitForLine(timeout: timeout, what, where: predicate)
    }

    /// Every line of output so far.
    package var lines: [String] { process.lines }

    private func readProtocol(_ fd: Int32) {
        readRecords(from: fd, separator: 0) { bytes in
            guard let message = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else { return }
            lock.publish { if let id = message["id"] as? Int { responses[id] = message } else { events.append(message) } }
        }
        lock.publish { protocolEnded = true }
    }

    // MARK: Stopping

    /// Asks the browser to close, then kills its process group (which also holds the native hosts
    /// it started). Returns the group's processes still alive afterwards (none expected).
    @discardableResult
    package func stop(timeout: TimeInterval = 10) -> [pid_t] {
        let first = lock.publish { defer { stopped = true }; return !stopped }
        guard first else { return [] }
        _ = try? send("Browser.close", timeout: 5)
        let left = process.stop(timeout: timeout)
        close(commands)
        return left
    }
}
