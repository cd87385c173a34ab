import DBusTestSupport
import Recorder
import EventLoop
import Widget
import Glibc
import SiteTestSupport

extension Bench {
    /// The browser host as a browser runs it: one process per message, started with Chromium's
    /// argument, one page request on stdin, pages of the small comic served by the fixture site
    /// (`$DBMULTIVERSE_SITE_URL`), the service activated on the bench's bus.
    /// - start → reply with the catalogue cached: pages of the chapter already stored (no cover is
    ///   fetched; the catalogue is read from the data folder), first byte of the reply;
    /// - page message → `Chapter` changed: pages of two chapters in turn, until the service's
    ///   `chapter-change` (sent with the `Chapter` property's change) arrives. Each chapter's
    ///   cover is fetched once: the site's 15-minute politeness skips it afterwards;
    /// - the host's peak RSS over all runs.
    func measureBrowserHost(runs: Int = 100) throws -> [Row] {
        let site = try FixtureSite()
        defer { site.stop() }
        site.publish(.small)
        let environment = childEnvironment.merging(["DBMULTIVERSE_SITE_URL": site.origin]) { _, new in new }
        func request(_ page: Int) -> [UInt8] {
            NativeMessageFraming.frame(Array(#"{"type":"page","url":"https://www.dragonball-multiverse.com/en/page-\#(page).html"}"#.utf8))
        }
        var peakKiB: [Int] = []
        // The first page fetches and stores the catalogue, and stores chapter 5 with its cover.
        peakKiB.append(try startBrowserHost(request: request(130), environment: environment).finish().peakRSSKiB)

        var startToReply = Samples()
        for index in 0..<runs {
            let run = try startBrowserHost(request: request(130 + index % 2), environment: environment).finish()
            startToReply.add(run.startToReply)
            peakKiB.append(run.peakRSSKiB)
        }
        var messageToChapter = Samples()
        for index in 0..<runs {
            let page = index % 2 == 0 ? 10 : 130 // chapter 1, then chapter 5
            // Signals of the hosts before, still queued on the bench's connection, are recorded
            // now, so the wait below ends on this host's.
            drainService()
            var host: RunningHost?
            let latency = try latency(until: "chapter-change", timeout: 10) {
                host = try startBrowserHost(request: request(page), environment: environment)
            }
            guard let run = try host?.finish() else { continue }
            messageToChapter.add(latency)
            peakKiB.append(run.peakRSSKiB)
        }
        return [
            Row(name: "browser host start → reply, catalogue cached, p50 / p99", value: startToReply.p50 / 1e6,
                unit: "ms / \(format(startToReply.p99 / 1e6, 2)) ms", target: "p50 ≤ 15 ms", met: startToReply.p50 <= 15e6),
            Row(name: "browser host page message → Chapter changed p50 / p99", value: messageToChapter.p50 / 1e6,
                unit: "ms / \(format(messageToChapter.p99 / 1e6, 2)) ms", target: "p99 ≤ 50 ms", met: messageToChapter.p99 <= 50e6),
            Row(name: "browser host peak RSS (max of \(peakKiB.count))", value: Double(peakKiB.max() ?? 0) / 1024, unit: "MiB",
                target: "≤ 12 MiB", met: (peakKiB.max() ?? 0) <= 12 * 1024),
        ]
    }

    /// A host started with `request` written to its input.
    struct RunningHost {
        let pid: pid_t
        let input: Int32
        let output: Int32
        let start: Int64

        /// Waits (≤ 10 s) for the whole reply, takes the host's peak RSS, closes its input and
        /// reaps it. Start → reply is timed to the reply's first byte read.
        func finish() throws -> (startToReply: Int64, peakRSSKiB: Int) {
            defer { close(output) }
            var reply: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            var replied: Int64 = 0
            while reply.count < 4 || reply.count < 4 + Int(reply[0..<4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }) {
                var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 10_000) == 1 else { break }
                let count = read(output, &chunk, chunk.count)
                guard count > 0 else { break }
                if reply.isEmpty { replied = EventLoop.now() }
                reply += chunk[..<count]
            }
            // The host has done its work and waits for the end of its input. (Not wait4's ru_maxrss:
            // Linux keeps it across execve, so it would report this benchmark's own size.)
            let peak = ProcessStats.read(pid: pid).peakRSSKiB
            close(input)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let text = String(decoding: reply.dropFirst(4), as: UTF8.self)
            guard replied > 0, status == 0, text.hasPrefix(#"{"ok":true"#) else {
                throw FixtureError("browser host: exit status \(status), reply \(text)")
            }
            return (replied - start, peak)
        }
    }

    /// Starts the host with Chromium's argument and writes `request` to its input.
    private func startBrowserHost(request: [UInt8], environment: [String: String]) throws -> RunningHost {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw FixtureError("pipe: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        for fd in input + output { posix_spawn_file_actions_addclose(&actions, fd) }
        let arguments = [hostExecutable, BrowserExtension.chromiumOrigin]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        let start = EventLoop.now()
        var pid = pid_t()
        let spawned = posix_spawn(&pid, hostExecutable, &actions, nil, argv, envp)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(input[1])
            close(output[0])
            throw FixtureError("posix_spawn \(hostExecutable): \(spawned)")
        }
        _ = request.withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
        return RunningHost(pid: pid, input: input[1], output: output[0], start: start)
    }
}
