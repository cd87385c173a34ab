import Glibc

/// What a finished (or stopped) command gave.
package struct CommandOutput: Sendable, Equatable {
    /// The exit status; nil when it did not finish in time (it was killed) or could not start.
    let status: Int32?
    let stdout: String
    let stderr: String

    init(status: Int32?, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Exited with 0.
    var succeeded: Bool { status == 0 }
    /// The first line of stderr, for a message.
    var firstErrorLine: String {
        stderr.split(separator: "\n").first.map(String.init) ?? (status.map { "exit status \($0)" } ?? "no answer")
    }
}

/// Runs the desktop's own tools (`systemctl`, `gsettings`, `crontab`, a binary's `--version`) for
/// the checks. Injected, so a check's reading can be given without a desktop.
package protocol CommandRunning: Sendable {
    /// Runs `arguments` (argv, no shell; the first found on `PATH`) and returns what it printed,
    /// or nil when there is no such command. Never takes longer than `timeout`.
    func run(_ arguments: [String], timeout: Duration) -> CommandOutput?
}

/// Runs commands as processes: posix_spawnp with the given environment, stdin from /dev/null, in a
/// process group of its own; stdout and stderr read through pipes until the process ends or the
/// deadline passes — then it is killed. Either way the rest of its group goes with it: a child it
/// left behind (a desktop program that hangs under a script) neither outlives the check nor holds
/// its pipes open. The wait is on the pipes and a pidfd (events), never a sleep.
package struct ProcessRunner: CommandRunning {
    /// The most a command's output is read (each stream); the rest is dropped.
    static let outputLimit = 256 * 1024

    private let environment: [String: String]

    package init(environment: [String: String]) { self.environment = environment }

    package func run(_ arguments: [String], timeout: Duration) -> CommandOutput? {
        guard let program = arguments.first, let path = Self.find(program, path: environment["PATH"]) else { return nil }
        let deadline = Self.monotonicMilliseconds() + Int64(timeout.components.seconds) * 1000
            + Int64(timeout.components.attoseconds / 1_000_000_000_000_000)
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard Self.closeOnExecPipe(&out) else { return CommandOutput(status: nil, stdout: "", stderr: "pipe: \(errnoText())") }
        guard Self.closeOnExecPipe(&err) else {
            close(out[0]); close(out[1])
            return CommandOutput(status: nil, stdout: "", stderr: "pipe: \(errnoText())")
        }
        let spawned = spawn(path, arguments, stdout: out[1], stderr: err[1])
        close(out[1])
        close(err[1])
        defer { close(out[0]); close(err[0]) }
        guard case .success(let pid) = spawned else {
            if case .failure(let message) = spawned { return CommandOutput(status: nil, stdout: "", stderr: message) }
            return nil
        }

        var streams = [(fd: out[0], bytes: [UInt8]()), (fd: err[0], bytes: [UInt8]())]
        var open = [true, true]
        // The process's end is one more event of the wait (when the kernel has pidfds): once it has
        // ended, what it left in its group is killed, so the pipes close at once.
        let pidfd = Self.openPidfd(pid)
        defer { if let pidfd { close(pidfd) } }
        var status: Int32?? = nil
        while open.contains(true) {
            let remaining = deadline - Self.monotonicMilliseconds()
            guard remaining > 0 else { break }
            var fds = streams.indices.filter { open[$0] }.map { pollfd(fd: streams[$0].fd, events: Int16(POLLIN), revents: 0) }
            if let pidfd, status == nil { fds.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, Int64(Int32.max))))
            if ready < 0 { if errno == EINTR { continue } else { break } }
            for entry in fds where entry.revents != 0 {
                if entry.fd == pidfd {
                    status = .some(Self.reapEnded(pid))
                    continue
                }
                guard let index = streams.firstIndex(where: { $0.fd == entry.fd }) else { continue }
                var buffer = [UInt8](repeating: 0, count: 16 * 1024)
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if streams[index].bytes.count < Self.outputLimit { streams[index].bytes += buffer.prefix(count) }
                } else if count == 0 || errno != EINTR {
                    open[index] = false
                }
            }
        }
        return CommandOutput(status: status ?? Self.reap(pid, pidfd: pidfd, until: deadline),
                             stdout: String(decoding: streams[0].bytes, as: UTF8.self),
                             stderr: String(decoding: streams[1].bytes, as: UTF8.self))
    }

    /// The first executable `name` in the `PATH` folders (or `name` itself when it holds a `/`).
    static func find(_ name: String, path: String?) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where folder.hasPrefix("/") {
            let candidate = folder + "/" + name
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private enum Spawned { case success(pid_t), failure(String) }

    /// posix_spawn with a clean signal mask and default dispositions, stdin from /dev/null, in a new
    /// process group.
    private func spawn(_ path: String, _ arguments: [String], stdout: Int32, stderr: Int32) -> Spawned {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        // A group of its own (its id is the child's pid), which the runner kills whole.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        return result == 0 ? .success(pid) : .failure("cannot run \(path): \(String(cString: strerror(result)))")
    }

    /// Waits for `pid` until `deadline` (on its pidfd, an event), then kills it; returns its exit
    /// status, or nil when it had to be killed. What is left of its group is killed either way.
    private static func reap(_ pid: pid_t, pidfd: Int32?, until deadline: Int64) -> Int32? {
        var status: Int32 = 0
        if let pidfd {
            while true {
                let remaining = deadline - monotonicMilliseconds()
                guard remaining > 0 else { break }
                var ready = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
                let result = poll(&ready, 1, Int32(min(remaining, Int64(Int32.max))))
                if result < 0, errno == EINTR { continue }
                if result > 0 { return reapEnded(pid) }
                break
            }
        } else if waitpid(pid, &status, WNOHANG) == pid {
            killGroup(pid)
            return exitStatus(status)
        }
        // Killed while unreaped: its pid, the group's id, cannot have been given to another process.
        killGroup(pid)
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return nil
    }

    /// Reaps `pid`, which has ended (its pidfd said so), after killing what is left of its group
    /// (before the reap, while its pid still names that group only).
    private static func reapEnded(_ pid: pid_t) -> Int32? {
        killGroup(pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        return exitStatus(status)
    }

    private static func killGroup(_ pid: pid_t) { kill(-pid, SIGKILL) }

    /// A pipe whose ends other children do not inherit (the spawn gives the child its copies).
    private static func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func exitStatus(_ status: Int32) -> Int32 {
        status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
    }

    /// `pidfd_open` (glibc 2.36, Linux 5.3), looked up: Swift's Glibc module leaves it out.
    private static func openPidfd(_ pid: pid_t) -> Int32? {
        typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        let fd = unsafeBitCast(symbol, to: PidfdOpen.self)(pid, 0)
        return fd >= 0 ? fd : nil
    }

    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    private func errnoText() -> String { String(cString: strerror(errno)) }
}
