import ComicDomain
import DBus
import DBusTestSupport
import Desktop
import Foundation
import Glibc

/// `make bench`: starts a private bus with the release-built service (activatable) and notifier,
/// measures everything issue #6 asks for in one run against floors from the same run, and prints
/// a table (and writes JSON). Usage: dbmultiverse-bench SERVICE_BINARY [--idle-seconds N] [--json FILE] [--label TEXT]
@main
final class Bench {
    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst()
        guard let binary = arguments.popFirst() else {
            print("usage: dbmultiverse-bench PATH-TO-dbmultiverse [--idle-seconds N] [--json FILE] [--label TEXT]")
            exit(2)
        }
        var idleSeconds = 60.0, jsonPath = "bench-results/latest.json", label = "static", pumpCalls = 0
        while let flag = arguments.popFirst() {
            switch flag {
            case "--pump": pumpCalls = Int(arguments.popFirst() ?? "") ?? 0
            case "--idle-seconds": idleSeconds = Double(arguments.popFirst() ?? "") ?? idleSeconds
            case "--json": jsonPath = arguments.popFirst() ?? jsonPath
            case "--label": label = arguments.popFirst() ?? label
            default: print("unknown option \(flag)"); exit(2)
            }
        }
        let bench = try Bench(binary: binary)
        if pumpCalls > 0 {
            // For profiling (perf record -p, callgrind): only the 16-in-flight load, printed as it goes.
            try bench.pump(calls: pumpCalls)
            bench.shutdown()
            return
        }
        let rows = try bench.runAll(idleSeconds: idleSeconds)
        bench.shutdown()
        report(rows, label: label, binary: binary, jsonPath: jsonPath)
    }

    let binary: String
    let dataDirectory: String
    let bus: PrivateBus
    let caller: BlockingCaller
    var loop: EventLoop { caller.loop }
    var connection: Connection { caller.connection }
    let events = EventLog()
    var notifierPID: pid_t = 0
    var server: ObjectServer?
    /// Round-trip calls made to the service process so far (the memory figures are per call count).
    var serviceCalls = 0

    init(binary: String) throws {
        self.binary = binary
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("dbm-bench-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dataDirectory)
        let environment = ["DBMULTIVERSE_DATA_DIR": dataDirectory, "DBMULTIVERSE_BROWSER": "none", "DBMULTIVERSE_LOG_LEVEL": "warning"]
        bus = try PrivateBus(activationEnvironment: environment)
        try bus.installActivationFile(name: WidgetBus.busName.rawValue, exec: "\(binary) service")
        caller = try BlockingCaller(address: .address(bus.address))
    }

    var childEnvironment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DBMULTIVERSE_DATA_DIR": dataDirectory,
         "DBMULTIVERSE_BROWSER": "none", "DBMULTIVERSE_LOG_LEVEL": "warning", "HOME": dataDirectory,
         "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    }

    func shutdown() {
        if notifierPID > 0 { kill(notifierPID, SIGTERM) }
        if referencePID > 0 { kill(referencePID, SIGTERM) }
        if let pid = try? servicePID() { kill(pid, SIGTERM) }
        bus.stop()
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    // MARK: Plumbing

    func widgetCall(_ member: MemberName, interface: InterfaceName = WidgetBus.widgetInterface) -> Message {
        Message.methodCall(destination: WidgetBus.busName, path: WidgetBus.objectPath, interface: interface, member: member)
    }

    /// `Peer.Ping` to the service: the floor, answered inside libdbus without reaching our code.
    func pingCall() -> Message { widgetCall("Ping", interface: "org.freedesktop.DBus.Peer") }

    func call(_ message: Message) throws -> Message { try caller.call(message) }

    /// Runs `trigger`, then the loop until the next `event`: the time from just before the trigger
    /// to that event.
    func latency(until event: String, timeout: Double = 5, _ trigger: () throws -> Void) rethrows -> Int64 {
        let before = events.count(of: event)
        let start = EventLoop.now()
        try trigger()
        _ = wait(timeout: timeout) { self.events.count(of: event) > before }
        return events.last(of: event) - start
    }

    /// Runs the loop until `condition` holds (checked after each recorded event) or `timeout`.
    @discardableResult
    func wait(timeout: Double, _ condition: @escaping () -> Bool) -> Bool {
        if condition() { return true }
        var timedOut = false
        events.onEvent = { [loop] in if condition() { loop.stop() } }
        let timer = loop.schedule(at: EventLoop.now() + Int64(timeout * 1e9)) { [loop] in timedOut = true; loop.stop() }
        while !condition() && !timedOut { loop.run() }
        timer.cancel()
        events.onEvent = nil
        return !timedOut
    }

    func servicePID() throws -> pid_t { try pid(of: WidgetBus.busName.rawValue) }

    /// The pid behind a bus name; `org.freedesktop.DBus` is the bus daemon itself.
    func pid(of name: String) throws -> pid_t {
        let message = Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                         interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID")
        message.append(name)
        return pid_t(bitPattern: try call(message).decode(UInt32.self))
    }

    func hasOwner(_ name: String) -> Bool {
        let message = Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                         interface: "org.freedesktop.DBus", member: "NameHasOwner")
        message.append(name)
        return (try? call(message).decode(Bool.self)) ?? false
    }

    func spawn(_ arguments: [String]) -> pid_t {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = childEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid = pid_t()
        let result = posix_spawn(&pid, arguments[0], nil, &attributes, argv, envp)
        posix_spawnattr_destroy(&attributes)
        return result == 0 ? pid : -1
    }

    static let referenceBusName: BusName = "com.nobadi.DBMultiverse.Reference"
    static var referenceName: String { referenceBusName.rawValue }
    var referencePID: pid_t = 0

    /// Starts `dbus-reference-service` (built beside this benchmark) and waits for its name; false
    /// when it is not there.
    func startReferenceService() throws -> Bool {
        let path = (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/dbus-reference-service"
        guard FileManager.default.isExecutableFile(atPath: path) else { return false }
        let before = events.count(of: "reference-acquired")
        referencePID = spawn([path])
        return referencePID > 0 && wait(timeout: 10) { self.events.count(of: "reference-acquired") > before }
    }

    func stopService() throws {
        guard hasOwner(WidgetBus.busName.rawValue) else { return }
        let pid = try servicePID()
        let gone = events.count(of: "owner-lost")
        kill(pid, SIGTERM)
        _ = wait(timeout: 10) { self.events.count(of: "owner-lost") > gone }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0) // reaps only our own children; activated ones belong to the bus
    }

    func writeExternally(chapter: Int) throws {
        let data = try ChapterData(validatingNumber: chapter, name: "External \(chapter)", progress: 10)
        try DataFolder(path: dataDirectory).writeChapterData(data)
    }

    /// Another program's atomic write of `currentChapterData.json`, in two steps: `stage` writes and
    /// fsyncs a temporary file, the returned closure renames it over the file — the moment the new
    /// content appears, which is what the service can react to.
    func stageExternalWrite(chapter: Int) throws -> () -> Void {
        let data = try ChapterData(validatingNumber: chapter, name: "External \(chapter)", progress: 10)
        let temporary = dataDirectory + "/.external.tmp", target = DataFolder(path: dataDirectory).chapterDataPath
        let bytes = data.encodeJSON() + [0x0A]
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0, bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count, fsync(fd) == 0 else {
            throw DBusError.failed("cannot stage \(temporary): \(String(cString: strerror(errno)))")
        }
        close(fd)
        return { rename(temporary, target) }
    }

    /// Returns once the service has finished what it was doing (a Ping is answered in turn), so
    /// one measurement's after-work (recording the sync state) doesn't delay the next.
    func drainService() {
        _ = try? call(pingCall())
    }

    // MARK: Measurements

    func runAll(idleSeconds: Double) throws -> [Row] {
        var rows: [Row] = []
        events.subscribe(on: connection)
        try connection.addMatchBlocking(MatchRule(interface: WidgetBus.widgetInterface))
        try connection.addMatchBlocking(MatchRule(sender: "org.freedesktop.DBus", member: "NameOwnerChanged"))

        // Cold start by activation (the first call starts the service).
        var activation = Samples(), nameOwned = Samples()
        for _ in 0..<10 {
            try stopService()
            let start = EventLoop.now()
            _ = try call(widgetCall("GetCurrentEntry"))
            activation.add(EventLoop.now() - start)
        }
        for _ in 0..<10 {
            try stopService()
            nameOwned.add(latency(until: "owner-acquired", timeout: 10) { _ = spawn([binary, "service"]) })
        }
        rows.append(Row(name: "service start → name owned, p50", value: nameOwned.p50 / 1e6, unit: "ms", target: "≤ 15 ms", met: nameOwned.p50 <= 15e6))
        rows.append(Row(name: "cold activation → first reply, p50", value: activation.p50 / 1e6, unit: "ms", target: "≤ 30 ms", met: activation.p50 <= 30e6))

        // Round trips: the Ping floor (answered inside libdbus), GetCurrentEntry, and the same call
        // to the reference C service (same reply, built by libdbus the usual way) when it is there:
        // what the bus and the client cost for that reply, apart from our code. Interleaved, the
        // order rotating, so drift in the machine's speed touches each kind alike.
        let ping = { self.pingCall() }
        let entry = { self.widgetCall("GetCurrentEntry") }
        let referenceEntry = {
            Message.methodCall(destination: Self.referenceBusName, path: WidgetBus.objectPath,
                               interface: WidgetBus.widgetInterface, member: "GetCurrentEntry")
        }
        let hasReference = try startReferenceService()
        var sequentialKinds: [(make: () -> Message, samples: Samples)] = [(ping, Samples()), (entry, Samples())]
        if hasReference { sequentialKinds.append((referenceEntry, Samples())) }
        for round in 0..<12 {
            for step in sequentialKinds.indices {
                let index = (round + step) % sequentialKinds.count
                sequential(sequentialKinds[index].make, count: 2_000, into: &sequentialKinds[index].samples)
            }
        }
        let pingSamples = sequentialKinds[0].samples, entrySamples = sequentialKinds[1].samples
        let pingRate = 1e9 / pingSamples.mean, entryRate = 1e9 / entrySamples.mean
        rows.append(Row(name: "Ping floor sequential p50 / p99 / max", value: pingSamples.p50 / 1e3, unit: "µs \(format(pingSamples.p99 / 1e3)) / \(format(pingSamples.max / 1e3))"))
        rows.append(Row(name: "GetCurrentEntry sequential p50 / p99 / max", value: entrySamples.p50 / 1e3, unit: "µs \(format(entrySamples.p99 / 1e3)) / \(format(entrySamples.max / 1e3))",
                        target: "p50 ≤ 1.05 × floor (\(format(entrySamples.p50 / pingSamples.p50, 2))×)", met: entrySamples.p50 <= 1.05 * pingSamples.p50))
        if hasReference {
            let referenceSamples = sequentialKinds[2].samples
            rows.append(Row(name: "C reference GetCurrentEntry sequential p50 / p99", value: referenceSamples.p50 / 1e3,
                            unit: "µs \(format(referenceSamples.p99 / 1e3)) (\(format(referenceSamples.p50 / pingSamples.p50, 2))× the floor)"))
        }
        rows.append(Row(name: "sequential calls/s: Ping / GetCurrentEntry", value: pingRate, unit: "/ \(format(entryRate, 0))"))
        // 16 in flight: 24 rounds of 5 000 calls of each kind back to back, the order rotating; the
        // median of the rounds' ratios, so a burst of noise from the rest of the machine spoils one
        // round, not the figure. Beside it, the CPU each process spends per call, which shows where
        // a gap comes from; the C reference too when it is there.
        struct Kind { let name: String; let make: () -> Message; var rates: [Double] = []; var cpu: [Int64] }
        var processes = [("service", try servicePID()), ("bus daemon", try pid(of: "org.freedesktop.DBus")), ("client", getpid())]
        var kinds = [Kind(name: "Ping", make: ping, cpu: []), Kind(name: "GetCurrentEntry", make: entry, cpu: [])]
        if hasReference {
            processes.append(("C reference", try pid(of: Self.referenceName)))
            kinds.append(Kind(name: "C reference GetCurrentEntry", make: referenceEntry, cpu: []))
        }
        for index in kinds.indices { kinds[index].cpu = [Int64](repeating: 0, count: processes.count) }
        let rounds = 24, callsPerRound = 5_000
        for round in 0..<rounds {
            for step in kinds.indices {
                let index = (round + step) % kinds.count
                let before = processes.map { ProcessStats.cpuNanoseconds(pid: $0.1) }
                kinds[index].rates.append(pipelined(kinds[index].make, total: callsPerRound, depth: 16))
                for (slot, process) in processes.enumerated() {
                    kinds[index].cpu[slot] += ProcessStats.cpuNanoseconds(pid: process.1) - before[slot]
                }
            }
        }
        func ratios(_ kind: Kind) -> [Double] { zip(kind.rates, kinds[0].rates).map { $0 / $1 } }
        let entryRatios = ratios(kinds[1]), ratio = median(entryRatios)
        rows.append(Row(name: "16 in flight calls/s: Ping / GetCurrentEntry", value: median(kinds[0].rates),
                        unit: "/ \(format(median(kinds[1].rates), 0)) (round ratios \(format(entryRatios.min() ?? .nan, 2))…\(format(entryRatios.max() ?? .nan, 2)))",
                        target: "≥ 0.90 × floor (median \(format(ratio, 2))×)", met: ratio >= 0.90))
        if kinds.count > 2 {
            let referenceRatios = ratios(kinds[2])
            rows.append(Row(name: "16 in flight calls/s: C reference GetCurrentEntry", value: median(kinds[2].rates),
                            unit: "(median \(format(median(referenceRatios), 2))× the Ping floor; rounds \(format(referenceRatios.min() ?? .nan, 2))…\(format(referenceRatios.max() ?? .nan, 2)))"))
        }
        let callsPerKind = Double(rounds * callsPerRound)
        let names = processes.map(\.0).joined(separator: " / ")
        for kind in kinds {
            let perCall = kind.cpu.map { format(Double($0) / callsPerKind / 1e3, 2) }.joined(separator: " / ")
            rows.append(Row(name: "CPU µs per call, \(kind.name): \(names)", value: Double(kind.cpu.reduce(0, +)) / callsPerKind / 1e3, unit: "total (\(perCall))"))
        }
        // With every core busy, calls/s can't beat the ratio of the CPU the two kinds of call cost.
        for kind in kinds.dropFirst() {
            rows.append(Row(name: "CPU-bound ceiling of \(kind.name) ÷ Ping", value: Double(kinds[0].cpu.reduce(0, +)) / Double(kind.cpu.reduce(0, +)), unit: "×"))
        }

        // Change → signal.
        var updateToSignal = Samples()
        for index in 0..<400 {
            let message = widgetCall("UpdateChapter")
            message.append(Int32(100 + index % 2), "Chapter \(index)", Int32(10), [UInt8](), [String: Variant]())
            updateToSignal.add(latency(until: "chapter-change") { connection.call(message) { _ in } })
            drainService() // the reply (after the sync state is recorded) before the next update
        }
        rows.append(Row(name: "UpdateChapter → TimelinesReloaded p50 / p99", value: updateToSignal.p50 / 1e3, unit: "µs / \(format(updateToSignal.p99 / 1e3)) µs",
                        target: "p99 ≤ 2 ms", met: updateToSignal.p99 <= 2e6))
        var writeToSignal = Samples()
        for index in 0..<200 {
            let rename = try stageExternalWrite(chapter: 200 + index % 2)
            writeToSignal.add(latency(until: "chapter-change") { rename() })
            drainService()
        }
        rows.append(Row(name: "external write (rename) → TimelinesReloaded p50 / p99", value: writeToSignal.p50 / 1e3, unit: "µs / \(format(writeToSignal.p99 / 1e3)) µs",
                        target: "p99 ≤ 10 ms", met: writeToSignal.p99 <= 10e6))

        // Debounce: the last progress update of a burst → progress-change, expected 2.000 s.
        var debounceError = Samples()
        for round in 0..<3 {
            let before = events.count(of: "progress-change")
            var lastSent: Int64 = 0
            for step in 0..<3 {
                let message = widgetCall("UpdateProgress")
                message.append(Int32(round % 2 == 0 ? 40 + step : 80 + step))
                lastSent = EventLoop.now()
                _ = try call(message)
            }
            _ = wait(timeout: 5) { self.events.count(of: "progress-change") > before }
            debounceError.add(abs(events.last(of: "progress-change") - lastSent - 2_000_000_000))
        }
        rows.append(Row(name: "debounce error (|signal − last update − 2 s|), max", value: debounceError.max / 1e6, unit: "ms",
                        target: "≤ 50 ms", met: debounceError.max <= 50e6))

        // Notification latency: a recording org.freedesktop.Notifications in this process.
        try startRecordingNotificationServer()
        notifierPID = spawn([binary, "notifier"])
        var notifyLatency = Samples()
        if notifierPID > 0 {
            // The notifier subscribes before it is ready; wait until its connection shows up by
            // giving it a chapter change it must answer.
            var ready = false
            for attempt in 0..<50 where !ready {
                let before = events.count(of: "notify")
                try writeExternally(chapter: 300 + attempt % 2)
                ready = wait(timeout: 0.2) { self.events.count(of: "notify") > before }
            }
            for index in 0..<200 where ready {
                let before = events.count(of: "notify")
                let message = widgetCall("UpdateChapter")
                message.append(Int32(400 + index % 2), "Notified \(index)", Int32(20), [UInt8](), [String: Variant]())
                connection.call(message) { _ in }
                _ = wait(timeout: 5) { self.events.count(of: "notify") > before }
                notifyLatency.add(events.last(of: "notify") - events.last(of: "chapter-change"))
                drainService()
            }
        }
        if notifyLatency.count == 0 {
            // No notifier answered (not built in, or it exited): leave it out of the idle figures.
            if notifierPID > 0 { kill(notifierPID, SIGKILL); var status: Int32 = 0; waitpid(notifierPID, &status, 0) }
            notifierPID = 0
        }
        rows.append(Row(name: "TimelinesReloaded → Notify received p50 / p99", value: notifyLatency.p50 / 1e3, unit: "µs / \(format(notifyLatency.p99 / 1e3)) µs",
                        target: "p99 ≤ 5 ms", met: notifyLatency.count > 0 && notifyLatency.p99 <= 5e6))

        // dbmultiverse open → OpenRequested (includes the CLI's own start-up).
        var openLatency = Samples()
        for index in 0..<10 {
            var pid: pid_t = -1
            openLatency.add(latency(until: "open-requested") { pid = spawn([binary, "open", "dbmultiverse://chapter/\(index + 1)"]) })
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        rows.append(Row(name: "dbmultiverse open → OpenRequested p50", value: openLatency.p50 / 1e6, unit: "ms"))
        rows += try browserHostRows()

        // Memory after 100 000 and 200 000 calls.
        let pid = try servicePID()
        _ = pipelined(entry, total: max(0, 100_000 - serviceCalls), depth: 16)
        let at100k = ProcessStats.read(pid: pid)
        _ = pipelined(entry, total: 100_000, depth: 16)
        let at200k = ProcessStats.read(pid: pid)
        rows.append(Row(name: "service RSS after 100k / 200k calls", value: Double(at100k.rssKiB) / 1024, unit: "MiB / \(format(Double(at200k.rssKiB) / 1024, 2)) MiB",
                        target: "≤ 10 MiB, no growth", met: at200k.rssKiB <= 10 * 1024 && at200k.rssKiB - at100k.rssKiB <= 64))
        rows.append(Row(name: "service peak RSS", value: Double(at200k.peakRSSKiB) / 1024, unit: "MiB"))
        if notifierPID > 0 {
            let notifier = ProcessStats.read(pid: notifierPID)
            rows.append(Row(name: "notifier RSS / peak", value: Double(notifier.rssKiB) / 1024, unit: "MiB / \(format(Double(notifier.peakRSSKiB) / 1024, 2)) MiB",
                            target: "≤ 10 MiB", met: notifier.rssKiB <= 10 * 1024))
        }

        // Idle: no calls, no signals; count what each process does meanwhile.
        let serviceBefore = ProcessStats.read(pid: pid)
        let notifierBefore = notifierPID > 0 ? ProcessStats.read(pid: notifierPID) : nil
        _ = wait(timeout: idleSeconds) { false }
        let serviceAfter = ProcessStats.read(pid: pid)
        let switches = serviceAfter.contextSwitches - serviceBefore.contextSwitches
        rows.append(Row(name: "service idle \(format(idleSeconds, 0)) s: context switches / CPU ticks", value: Double(switches),
                        unit: "/ \(serviceAfter.cpuTicks - serviceBefore.cpuTicks) (threads: \(ProcessStats.threadCount(pid: pid)))",
                        target: "0 switches", met: switches == 0))
        if let notifierBefore {
            let after = ProcessStats.read(pid: notifierPID)
            let notifierSwitches = after.contextSwitches - notifierBefore.contextSwitches
            rows.append(Row(name: "notifier idle \(format(idleSeconds, 0)) s: context switches / CPU ticks", value: Double(notifierSwitches),
                            unit: "/ \(after.cpuTicks - notifierBefore.cpuTicks) (threads: \(ProcessStats.threadCount(pid: notifierPID)))",
                            target: "0 switches", met: notifierSwitches == 0))
        }
        return rows
    }

    /// `--pump N`: N GetCurrentEntry calls, then N Pings, 16 in flight, once the service runs
    /// (its pid goes to stderr); for attaching a profiler to the service.
    func pump(calls: Int) throws {
        _ = try call(widgetCall("GetCurrentEntry"))
        FileHandle.standardError.write(Data("service pid \(try servicePID())\n".utf8))
        let ping = { self.pingCall() }
        let mark = { (what: String) in FileHandle.standardError.write(Data("\(what) at \(format(Double(EventLoop.now()) / 1e9, 6)) s\n".utf8)) }
        mark("GetCurrentEntry")
        let entry = pipelined({ self.widgetCall("GetCurrentEntry") }, total: calls, depth: 16)
        mark("Ping")
        let floor = pipelined(ping, total: calls, depth: 16)
        mark("done")
        print("16 in flight calls/s: GetCurrentEntry \(format(entry, 0)), Ping \(format(floor, 0)) (\(format(entry / floor, 2))×)")
    }

    /// One call at a time, `count` times; adds each round trip to `samples`.
    func sequential(_ make: @escaping () -> Message, count: Int, into samples: inout Samples) {
        serviceCalls += count
        var collected = Samples(), remaining = count, start: Int64 = 0
        func next() {
            start = EventLoop.now()
            connection.call(make()) { [loop] _ in
                collected.add(EventLoop.now() - start)
                remaining -= 1
                if remaining > 0 { next() } else { loop.stop() }
            }
        }
        next()
        while remaining > 0 { loop.run() }
        for value in collected.values { samples.add(value) }
    }

    /// `depth` calls in flight until `total` completed; returns calls per second.
    func pipelined(_ make: @escaping () -> Message, total: Int, depth: Int) -> Double {
        serviceCalls += total
        var sent = 0, done = 0
        let start = EventLoop.now()
        func send() {
            sent += 1
            connection.call(make()) { [loop] _ in
                done += 1
                if sent < total { send() }
                if done == total { loop.stop() }
            }
        }
        for _ in 0..<min(depth, total) { send() }
        while done < total { loop.run() }
        return Double(total) / (Double(EventLoop.now() - start) / 1e9)
    }

    /// Owns org.freedesktop.Notifications on the bench's own connection and records Notify.
    func startRecordingNotificationServer() throws {
        let server = try ObjectServer(connection: connection)
        var nextID: UInt32 = 0
        let events = self.events
        try server.export(Interface("org.freedesktop.Notifications", methods: [
            Method("GetCapabilities", inputs: (), outputs: Arg<[String]>("capabilities")) { ["actions", "body", "body-markup"] },
            Method("GetServerInformation", inputs: (),
                   outputs: (Arg<String>("name"), Arg<String>("vendor"), Arg<String>("version"), Arg<String>("spec_version"))) {
                ("bench", "dbmultiverse", "1", "1.2")
            },
            Method("Notify", inputs: (Arg<String>("app_name"), Arg<UInt32>("replaces_id"), Arg<String>("app_icon"), Arg<String>("summary"),
                                      Arg<String>("body"), Arg<[String]>("actions"), Arg<[String: Variant]>("hints"), Arg<Int32>("expire_timeout")),
                   outputs: Arg<UInt32>("id")) { (_: String, _: UInt32, _: String, _: String, _: String, _: [String], _: [String: Variant], _: Int32) in
                events.record("notify")
                nextID += 1
                return nextID
            },
            Method("CloseNotification", inputs: Arg<UInt32>("id"), outputs: ()) { (_: UInt32) in },
        ]), at: "/org/freedesktop/Notifications")
        _ = try connection.requestNameBlocking("org.freedesktop.Notifications")
        self.server = server
    }
}

/// Timestamps of the events the bench waits for, recorded on the loop thread.
final class EventLog {
    private var times: [String: [Int64]] = [:]
    var onEvent: (() -> Void)?
    private var subscription: Connection.SignalSubscription?

    func record(_ name: String) {
        times[name, default: []].append(EventLoop.now())
        onEvent?()
    }
    func count(of name: String) -> Int { times[name]?.count ?? 0 }
    func last(of name: String) -> Int64 { times[name]?.last ?? 0 }

    func subscribe(on connection: Connection) {
        subscription = connection.subscribe(MatchRule(), addMatch: false) { [unowned self] message in
            switch message.member {
            case "TimelinesReloaded":
                if let (_, reason, _) = try? message.decode(String.self, String.self, [String: Variant].self) { record(reason) }
            case "OpenRequested": record("open-requested")
            case "NameOwnerChanged":
                if let (name, _, owner) = try? message.decode(String.self, String.self, String.self) {
                    if name == WidgetBus.busName.rawValue { record(owner.isEmpty ? "owner-lost" : "owner-acquired") }
                    if name == Bench.referenceName, !owner.isEmpty { record("reference-acquired") }
                }
            default: break
            }
        }
    }
}

func report(_ rows: [Row], label: String, binary: String, jsonPath: String) {
    let width = rows.map(\.name.count).max() ?? 40
    print("dbmultiverse benchmark (\(label)): \(binary)")
    for row in rows {
        let verdict = row.met.map { $0 ? "met" : "NOT MET" } ?? ""
        let name = row.name.padding(toLength: width, withPad: " ", startingAt: 0)
        print("\(name)  \(format(row.value, 2)) \(row.unit)  \(row.target.isEmpty ? "" : "[\(row.target)] \(verdict)")")
    }
    var json = "{\n  \"label\": \"\(label)\",\n  \"rows\": [\n"
    json += rows.map { row in
        let met = row.met.map { $0 ? "true" : "false" } ?? "null"
        return "    {\"name\": \"\(row.name)\", \"value\": \(row.value.isFinite ? "\(row.value)" : "null"), \"unit\": \"\(row.unit)\", \"target\": \"\(row.target)\", \"met\": \(met)}"
    }.joined(separator: ",\n")
    json += "\n  ]\n}\n"
    let url = URL(fileURLWithPath: jsonPath)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? json.write(to: url, atomically: true, encoding: .utf8)
}
