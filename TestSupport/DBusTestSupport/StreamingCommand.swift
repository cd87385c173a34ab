package import Foundation

/// A long-running program whose output is read line by line as it comes (`dbus-monitor`,
/// `dbmultiverse watch`); tests wait for a line with a timeout, never by sleeping.
///
/// Each pipe is read by a thread of its own with blocking reads, not with a
/// `FileHandle.readabilityHandler`: tearing those down races libdispatch's epoll bookkeeping on
/// Linux and crashed the test run in `_dispatch_event_loop_drain` (seen here once;
/// swift-corelibs-libdispatch#949).
package final class StreamingCommand: Sendable {
    private let process = Process()
    private let capture = Capture()

    package init(_ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [capture] _ in capture.exited() }
        try process.run()
        // The threads hold the capture, not the command, so that dropping the command stops it.
        for (pipe, isStandardError) in [(out, false), (err, true)] {
            Thread.detachNewThread { [capture] in
                let handle = pipe.fileHandleForReading
                while true {
                    let data = handle.availableData
                    capture.received(data, isStandardError: isStandardError)
                    if data.isEmpty { break }
                }
            }
        }
    }

    deinit { stop() }

    package var processIdentifier: Int32 { process.processIdentifier }

    /// All complete lines so far.
    package var output: [String] { capture.lines }

    /// What the program wrote to stderr so far.
    package var stderrText: String { capture.stderrText }

    /// Waits until a line (at index `from` or later) satisfies `predicate`; returns its index and text.
    @discardableResult
    package func waitForLine(
        from start: Int = 0, timeout: TimeInterval = 10, _ what: String = "a line",
        where predicate: (String) -> Bool
    ) throws -> (index: Int, line: String) {
        try capture.waitForLine(from: start, timeout: timeout, what, where: predicate)
    }

    /// Waits until what the program wrote to stderr satisfies `predicate`.
    package func waitForError(timeout: TimeInterval = 10, _ what: String = "an error", where predicate: (String) -> Bool) throws {
        try capture.waitForError(timeout: timeout, what, where: predicate)
    }

    /// Kills the program (SIGKILL: a child spawned from a libdispatch worker thread inherits a
    /// mask that blocks SIGTERM) and waits, at most 10 s, for the exit.
    package func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        // Also after an exit seen otherwise: only waitUntilExit drops the Process's run-loop
        // source, which retains the Process (Foundation on Linux): without it every Process leaks.
        // It never returns if Foundation misses the exit (seen under ASan), hence the bound first.
        if capture.waitForExit(timeout: 10) { process.waitUntilExit() }
    }

    /// Sends `signal` (programs that handle SIGTERM through a signalfd see it even when blocked)
    /// and waits up to `timeout` seconds for the exit; returns the exit status.
    package func terminate(_ signal: Int32 = SIGTERM, timeout: TimeInterval = 10) throws -> Int32 {
        kill(process.processIdentifier, signal)
        guard capture.waitForExit(timeout: timeout) else {
            throw FixtureError("process \(process.processIdentifier) did not exit after signal \(signal)")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    package var terminationStatus: Int32? { process.isRunning ? nil : process.terminationStatus }
}

/// What the program wrote and whether it exited, filled by the reading threads and the
/// termination handler.
///
/// `@unchecked Sendable`: every stored property is only touched under `condition`.
private final class Capture: @unchecked Sendable {
    private let condition = NSCondition()
    private var completeLines: [String] = []
    private var partial = Data()
    private var ended = false
    private var standardError = Data()
    private var hasExited = false

    var lines: [String] { condition.withLock { completeLines } }
    var stderrText: String { condition.withLock { String(decoding: standardError, as: UTF8.self) } }

    /// Takes what a read returned; empty data is the end of that pipe.
    func received(_ data: Data, isStandardError: Bool) {
        condition.withLock {
            defer { condition.broadcast() }
            if isStandardError {
                standardError.append(data)
                return
            }
            if data.isEmpty { ended = true }
            partial.append(data)
            while let newline = partial.firstIndex(of: 0x0A) {
                completeLines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                partial.removeSubrange(partial.startIndex...newline)
            }
        }
    }

    func exited() {
        condition.withLock {
            hasExited = true
            condition.broadcast()
        }
    }

    /// Whether the program exited within `timeout` seconds.
    func waitForExit(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while !hasExited {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }
    }

    func waitForError(timeout: TimeInterval, _ what: String, where predicate: (String) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        // Not ended by the program's exit: its last stderr bytes may still be on their way through the pipe.
        while !predicate(String(decoding: standardError, as: UTF8.self)) {
            guard condition.wait(until: deadline) else {
                throw FixtureError("no \(what) within \(timeout) s; stderr so far: \(String(decoding: standardError, as: UTF8.self))")
            }
        }
    }

    func waitForLine(from start: Int, timeout: TimeInterval, _ what: String,
                     where predicate: (String) -> Bool) throws -> (index: Int, line: String) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        var index = start
        while true {
            while index < completeLines.count {
                if predicate(completeLines[index]) { return (index, completeLines[index]) }
                index += 1
            }
            if ended || !condition.wait(until: deadline) {
                throw FixtureError("""
                    no \(what) within \(timeout) s; output so far:
                    \(completeLines.joined(separator: "\n"))
                    stderr: \(String(decoding: standardError, as: UTF8.self))
                    """)
            }
        }
    }
}
