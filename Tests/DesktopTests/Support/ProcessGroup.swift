import DBusTestSupport
import Foundation
import Glibc

/// A program started in a process group of its own (a browser: its renderers, zygotes and the
/// native messaging hosts it starts stay in that group), with its stdout and stderr read line
/// by line. `stop()` kills the whole group and checks nothing of it is left.
///
/// `@unchecked Sendable`: the mutable state is only touched under `lock`.
final class ProcessGroup: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSCondition()
    private var outputLines: [String] = []
    private var outputEnded = false
    private var stopped = false

    /// Starts `binary` with `arguments` and `environment`; `descriptors` maps a descriptor number
    /// in the child to one of ours (which the caller closes afterwards).
    init(binary: String, arguments: [String], environment: [String: String], descriptors: [Int32: Int32] = [:]) throws {
        let output = try Self.pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, output.write, 2)
        for (child, ours) in descriptors { posix_spawn_file_actions_adddup2(&actions, ours, child) }
        // Nothing else of the test process: a browser left behind by a crashed test must not hold
        // the test runner's pipes and sockets open.
        Self.closeOthers(from: 3 + Int32(descriptors.count), in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own group, to kill it whole; no signal blocked or ignored (test threads block
        // some, and a child inherits that).
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)

        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, binary, &actions, &attributes, argv, envp)
        close(output.write)
        guard status == 0 else {
            close(output.read)
            throw FixtureError("posix_spawn \(binary): \(String(cString: strerror(status)))")
        }
        pid = child
        Thread.detachNewThread { [self] in readOutput(output.read) }
    }

    deinit { stop() }

    /// Adds to `actions` the closing of every descriptor from `first` on: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34; not in Swift's Glibc module, so looked up),
    /// else each descriptor open now (/proc/self/fd).
    private static func closeOthers(from first: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, first)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for fd in open where fd >= first { posix_spawn_file_actions_addclose(&actions, fd) }
    }

    /// A pipe whose ends are not inherited by other children (a spawn's dup2 gives the child its
    /// copy), numbered above the descriptors a child is given (so no dup2 overwrites another's source).
    static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw FixtureError("pipe: \(String(cString: strerror(errno)))") }
        let moved = fds.map { fd in
            defer { close(fd) }
            return fcntl(fd, F_DUPFD_CLOEXEC, 10)
        }
        guard moved.allSatisfy({ $0 >= 0 }) else { throw FixtureError("fcntl: \(String(cString: strerror(errno)))") }
        return (moved[0], moved[1])
    }

    /// Every output line so far.
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return outputLines
    }

    /// Waits for an output line satisfying `predicate`, within `timeout`.
    @discardableResult
    func waitForLine(timeout: TimeInterval = 20, _ what: String, where predicate: (String) -> Bool) throws -> String {
        try lock.waitForValue(timeout: timeout, isOver: { outputEnded },
                              failure: { "no \(what) within \(timeout) s; last output:\n" + outputLines.suffix(30).joined(separator: "\n") }) {
            outputLines.first(where: predicate)
        }
    }

    /// The last output lines, for failure messages.
    var tail: String { lines.suffix(30).joined(separator: "\n") }

    private func readOutput(_ fd: Int32) {
        readRecords(from: fd, separator: 0x0A) { line in
            lock.publish { outputLines.append(String(decoding: line, as: UTF8.self)) }
        }
        lock.publish { outputEnded = true }
    }

    /// Kills the whole group and reaps the program; returns the group's processes still alive
    /// `timeout` seconds later (none expected).
    @discardableResult
    func stop(timeout: TimeInterval = 10) -> [pid_t] {
        let first = lock.publish { defer { stopped = true }; return !stopped }
        guard first else { return [] }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // The group's other processes were reparented, so no event tells of their end: poll /proc
        // for them until the deadline.
        let deadline = Date().addingTimeInterval(timeout)
        var left = Self.processes(inGroup: pid)
        while !left.isEmpty, Date() < deadline {
            kill(-pid, SIGKILL)
            usleep(20_000)
            left = Self.processes(inGroup: pid)
        }
        lock.lock()
        while !outputEnded, lock.wait(until: deadline) {}
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
