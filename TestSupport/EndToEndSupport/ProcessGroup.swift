import DBusTestSupport
import DesktopTestSupport
package import Foundation
import Glibc

/// A program started in a process group of its own (a browser: its renderers, zygotes and the
/// native messaging hosts it starts stay in that group), with its stdout and stderr read line
/// by line. `stop()` kills the whole group and checks nothing of it is left.
///
/// `@unchecked Sendable`: the mutable state is only touched under `lock`.
package final class ProcessGroup: @unchecked Sendable {
    package let pid: pid_t
    private let lock = NSCondition()
    private var outputLines: [String] = []
    private var outputEnded = false
    private var stopped = false

    /// Starts `binary` with `arguments` and `environment`; `descriptors` maps a descriptor number
    /// in the child to one of ours (which the caller closes afterwards).
    package init(binary: String, arguments: [String], environment: [String: String], descriptors: [Int32: Int32] = [:]) throws {
        let output = try Spawn.pipe()
        defer { close(output.write) }
        do {
            pid = try Spawn.start(binary, arguments, environment: environment,
                                  descriptors: descriptors.merging([1: output.write, 2: output.write]) { $1 }, ownGroup: true)
        } catch {
            close(output.read)
            throw error
        }
        detachIOThread { [self] in readOutput(output.read) }
    }

    deinit { stop() }

    /// Every output line so far.
    package var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return outputLines
    }

    /// Waits for an output line satisfying `predicate`, within `timeout`.
    @discardableResult
    package func waitForLine(timeout: TimeInterval = 20, _ what: String, where predicate: (String) -> Bool) throws -> String {
        try lock.waitForValue(timeout: timeout, isOver: { outputEnded },
                              failure: { "no \(what) within \(timeout) s; last output:\n" + outputLines.suffix(30).joined(separator: "\n") }) {
            outputLines.first(where: predicate)
        }
    }

    /// The last output lines, for failure messages.
    package var tail: String { lines.suffix(30).joined(separator: "\n") }

    private func readOutput(_ fd: Int32) {
        readRecords(from: fd, separator: 0x0A) { line in
            lock.publish { outputLines.append(String(decoding: line, as: UTF8.self)) }
        }
        lock.publish { outputEnded = true }
    }

    /// Kills the whole group and reaps the program; returns the group's processes still alive
    /// `timeout` seconds later (none expected).
    @discardableResult
    package func stop(timeout: TimeInterval = 10) -> [pid_t] {
        let first = lock.publish { defer { stopped = true }; return !stopped }
        guard first else { return [] }
        kill(-pid, SIGKILL)
        _ = Spawn.wait(for: pid, timeout: timeout)
        // The group's other processes were reparented and are not ours to reap: each one's pidfd
        // tells of its end (as a zombie, which `processes(inGroup:)` leaves out).
        let deadline = Date().addingTimeInterval(timeout)
        for member in Self.processes(inGroup: pid) {
            _ = Spawn.waitUntilEnded(member, timeout: max(0, deadline.timeIntervalSinceNow))
        }
        let left = Self.processes(inGroup: pid)
        lock.lock()
        while !outputEnded, lock.wait(until: deadline) {}
        lock.unlock()
        return left
    }

    /// Live (not zombie) processes whose process group is `group`.
    package static func processes(inGroup group: pid_t) -> [pid_t] {
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
