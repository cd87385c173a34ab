import DBusTestSupport
import DesktopTestSupport
package import Foundation
import Glibc

/// Process plumbing for the browser tests, without Foundation's `Process`: its exit monitoring
/// runs a CFRunLoop on the waiting thread, and under ThreadSanitizer a dispatch worker that ran one
/// crashes when it ends (CF's thread-exit finaliser allocates after TSan has let the thread go).
package enum Spawn {
    /// Starts `binary` with `arguments` and `environment`. `descriptors` maps a descriptor number
    /// in the child to one of ours (0 is /dev/null unless mapped); no other descriptor of the test
    /// process is inherited, and no signal is blocked or ignored (test threads block some, which a
    /// child would inherit). `ownGroup` starts it in a process group of its own.
    package static func start(_ binary: String, _ arguments: [String], environment: [String: String],
                      descriptors: [Int32: Int32], ownGroup: Bool = false) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if descriptors[0] == nil { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        for (child, ours) in descriptors { posix_spawn_file_actions_adddup2(&actions, ours, child) }
        // A child left behind by a crashed test must not hold the test runner's pipes open.
        closeOthers(from: (descriptors.keys.max() ?? 2) + 1, in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownGroup ? POSIX_SPAWN_SETPGROUP : 0)))
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
        guard status == 0 else { throw FixtureError("posix_spawn \(binary): \(String(cString: strerror(status)))") }
        return child
    }

    /// Waits up to `timeout` seconds for `pid` (our child) to exit and reaps it; returns its wait
    /// status, or nil when it is still running. Waits on a pidfd (an event), not by polling.
    package static func wait(for pid: pid_t, timeout: TimeInterval) -> Int32? {
        guard waitUntilEnded(pid, timeout: timeout) else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        return status
    }

    /// Waits up to `timeout` seconds for `pid` — any process, ours or not — to end (a zombie has
    /// ended: nobody may reap it); true when it has. On a pidfd (an event), not by polling; without
    /// pidfd_open (Linux before 5.3) it cannot tell and says true.
    package static func waitUntilEnded(_ pid: pid_t, timeout: TimeInterval) -> Bool {
        typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return true }
        let pidfd = unsafeBitCast(symbol, to: PidfdOpen.self)(pid, 0)
        guard pidfd >= 0 else { return errno == ESRCH }
        defer { close(pidfd) }
        var ready = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        while poll(&ready, 1, Int32(timeout * 1000)) < 0, errno == EINTR {}
        return ready.revents != 0
    }

    /// The exit status of a wait status (128 + the signal for a killed process, as shells say).
    package static func exitStatus(_ status: Int32) -> Int32 {
        status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
    }

    /// A pipe whose ends are not inherited by other children (a spawn's dup2 gives the child its
    /// copy), numbered above the descriptors a child is given (so no dup2 overwrites another's source).
    package static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw FixtureError("pipe: \(String(cString: strerror(errno)))") }
        let moved = fds.map { fd in
            defer { close(fd) }
            return fcntl(fd, F_DUPFD_CLOEXEC, 10)
        }
        guard moved.allSatisfy({ $0 >= 0 }) else { throw FixtureError("fcntl: \(String(cString: strerror(errno)))") }
        return (moved[0], moved[1])
    }

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
}
