import DBusTestSupport
import Desktop
import EventLoop
import Glibc

extension Bench {
    /// The browser host as a browser runs it: one process per message, started with
    /// Chromium's argument, one page request on stdin. Start → reply (its first byte read), and
    /// the host's peak RSS. The host does not store pages yet (its `PageStore` refuses), so the
    /// reply is that refusal: the figure is start-up, framing, validation and reply.
    func measureBrowserHost(runs: Int = 100) throws -> [Row] {
        let request = NativeMessageFraming.frame(Array(#"{"type":"page","url":"https://www.dragonball-multiverse.com/en/page-42.html"}"#.utf8))
        var startToReply = Samples()
        var peakKiB: [Int] = []
        for _ in 0..<runs {
            let run = try runBrowserHost(request: request)
            startToReply.add(run.startToReply)
            peakKiB.append(run.peakRSSKiB)
        }
        return [
            Row(name: "browser host start → reply p50 / p99", value: startToReply.p50 / 1e6, unit: "ms / \(format(startToReply.p99 / 1e6, 2)) ms",
                target: "p50 ≤ 15 ms", met: startToReply.p50 <= 15e6),
            Row(name: "browser host peak RSS (max of \(runs))", value: Double(peakKiB.max() ?? 0) / 1024, unit: "MiB"),
        ]
    }

    /// Starts the host, writes `request`, waits (≤ 5 s) for the whole reply, closes its input and
    /// reaps it.
    private func runBrowserHost(request: [UInt8]) throws -> (startToReply: Int64, peakRSSKiB: Int) {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw FixtureError("pipe: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        for fd in input + output { posix_spawn_file_actions_addclose(&actions, fd) }
        let arguments = [binary, BrowserExtension.chromiumOrigin]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = childEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        let start = EventLoop.now()
        var pid = pid_t()
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, envp)
        close(input[0])
        close(output[1])
        defer { close(output[0]) }
        guard spawned == 0 else {
            close(input[1])
            throw FixtureError("posix_spawn \(binary): \(spawned)")
        }
        _ = request.withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var replied: Int64 = 0
        while reply.count < 4 || reply.count < 4 + Int(reply[0..<4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }) {
            var ready = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 5000) == 1 else { break }
            let count = read(output[0], &chunk, chunk.count)
            guard count > 0 else { break }
            if reply.isEmpty { replied = EventLoop.now() }
            reply += chunk[..<count]
        }
        // The host has done its work and waits for the end of its input. (Not wait4's ru_maxrss:
        // Linux keeps it across execve, so it would report this benchmark's own size.)
        let peak = ProcessStats.read(pid: pid).peakRSSKiB
        close(input[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard replied > 0, status == 0 else { throw FixtureError("browser host: no reply or exit status \(status)") }
        return (replied - start, peak)
    }
}
