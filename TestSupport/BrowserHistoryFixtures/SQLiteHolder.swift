package import Foundation
import DBusTestSupport

/// A `sqlite3` process that keeps a database open in a given state for as long as a test needs
/// it, as a running browser does: holding its lock, or with recent commits only in its `-wal`.
/// It runs `setup`, prints a marker the fixture waits for (with a timeout), then waits on its
/// standard input; `stop()` closes that, and it exits as SQLite does at a normal close.
///
/// `@unchecked Sendable`: `output`, `ended` and `exited` are only touched under `lock`; the rest
/// is immutable after init.
package final class SQLiteHolder: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lock = NSCondition()
    private var output = ""
    private var ended = false
    private var exited = false
    private static let marker = "holder-ready"

    package init(database: String, setup: String, timeout: TimeInterval = 20) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-batch", "-bail", database]
        let out = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = out
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.update { holder in
                holder.output += String(decoding: data, as: UTF8.self)
                if data.isEmpty { holder.ended = true }
            }
        }
        process.terminationHandler = { [weak self] _ in self?.update { $0.exited = true } }
        try process.run()
        input.fileHandleForWriting.write(Data((setup + "\nSELECT '\(Self.marker)';\n").utf8))
        guard wait(timeout, until: { $0.output.contains(Self.marker) || $0.ended }), !ended else {
            let text = update { $0.output }
            stop()
            throw FixtureError("sqlite3 holding \(database) did not get ready within \(timeout) s: \(text)")
        }
    }

    deinit { stop() }

    /// Ends the process: its standard input closes, so it closes the database and exits (killed
    /// if it has not within `timeout` seconds).
    package func stop(timeout: TimeInterval = 10) {
        try? input.fileHandleForWriting.close() // closed already when it exited early: it is stopping either way
        if !wait(timeout, until: { $0.exited }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    @discardableResult
    private func update<T>(_ body: (SQLiteHolder) -> T) -> T {
        lock.lock()
        defer { lock.broadcast(); lock.unlock() }
        return body(self)
    }

    private func wait(_ timeout: TimeInterval, until condition: (SQLiteHolder) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while !condition(self) {
            if !lock.wait(until: deadline) { return condition(self) }
        }
        return true
    }
}
