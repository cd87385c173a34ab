public import Foundation

/// A long-running program whose output is read line by line as it comes (`dbus-monitor`,
/// `dbmultiverse watch`); tests wait for a line with a timeout, never by sleeping.
///
/// `@unchecked Sendable`: `lines` and `waiters` are only touched under `lock`.
public final class StreamingCommand: @unchecked Sendable {
    private let process = Process()
    private let lock = NSCondition()
    private var lines: [String] = []
    private var partial = Data()
    private var ended = false
    private var exited = false
    public private(set) var stderrText = ""

    public init(_ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.received(data)
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            lock.lock()
            stderrText += String(decoding: data, as: UTF8.self)
            lock.unlock()
        }
        process.terminationHandler = { [weak self] _ in
            guard let self else { return }
            lock.lock()
            exited = true
            lock.broadcast()
            lock.unlock()
        }
        try process.run()
    }

    deinit { stop() }

    public var processIdentifier: Int32 { process.processIdentifier }

    private func received(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        if data.isEmpty { ended = true }
        partial.append(data)
        while let newline = partial.firstIndex(of: 0x0A) {
            lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial.removeSubrange(partial.startIndex...newline)
        }
        lock.broadcast()
    }

    /// All complete lines so far.
    public var output: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// Waits until a line (at index `from` or later) satisfies `predicate`; returns its index and text.
    @discardableResult
    public func waitForLine(
        from start: Int = 0, timeout: TimeInterval = 10, _ what: String = "a line",
        where predicate: (String) -> Bool
    ) throws -> (index: Int, line: String) {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        var index = start
        while true {
            while index < lines.count {
                if predicate(lines[index]) { return (index, lines[index]) }
                index += 1
            }
            if ended || !lock.wait(until: deadline) {
                throw FixtureError("no \(what) within \(timeout) s; output so far:\n\(lines.joined(separator: "\n"))\nstderr: \(stderrText)")
            }
        }
    }

    /// Kills the program (SIGKILL: a child spawned from a libdispatch worker thread inherits a
    /// mask that blocks SIGTERM) and waits for the exit.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        // Also after an exit seen otherwise: only waitUntilExit drops the Process's run-loop
        // source, which retains the Process (Foundation on Linux): without it every Process leaks.
        process.waitUntilExit()
    }

    /// Sends `signal` (programs that handle SIGTERM through a signalfd see it even when blocked)
    /// and waits up to `timeout` seconds for the exit; returns the exit status.
    public func terminate(_ signal: Int32 = SIGTERM, timeout: TimeInterval = 10) throws -> Int32 {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while !exited {
            guard lock.wait(until: deadline) else {
                throw FixtureError("process \(process.processIdentifier) did not exit after signal \(signal)")
            }
        }
        return process.terminationStatus
    }

    public var terminationStatus: Int32? { process.isRunning ? nil : process.terminationStatus }
}
