import ComicDomain
import DBus
import DBusTestSupport
import Widget
import Follower
import EventLoop
import Foundation
import Glibc

/// What every measurement shares: a private bus whose service directory activates the binary
/// under test on a fresh data folder, the bench's own connection (a `BlockingCaller` whose loop
/// it runs to wait), the events it records, and the processes it started. The measurements are
/// extensions of it, one file each; `BenchMain` runs them in order.
final class Bench {
    let binary: String
    /// How the service and the notifier are started: their own executables beside `binary`
    /// (`dbmultiverse-service`, `dbmultiverse-notifier`, as installed), else `binary service` and
    /// `binary notifier` (a one-binary build of before they had their own, measured the same way).
    /// The browser host likewise.
    let serviceCommand: [String]
    let notifierCommand: [String]
    /// The browser host's executable: `dbmultiverse-browser-host` beside `binary`, else `binary`.
    let hostExecutable: String
    let dataDirectory: String
    let bus: PrivateBus
    let caller: BlockingCaller
    var loop: EventLoop { caller.loop }
    var connection: Connection { caller.connection }
    /// The service under test, and the C reference service beside it.
    let widget = WidgetClient()
    let reference = WidgetClient(object: RemoteObject(destination: Bench.referenceName, path: WidgetBus.objectPath))
    /// The GDBus reference service beside it (Benchmarks/gdbus-reference-service.c), for memory.
    let gdbusReference = WidgetClient(object: RemoteObject(destination: "com.nobadi.DBMultiverse.GDBusReference", path: WidgetBus.objectPath))
    static let referenceName: BusName = "com.nobadi.DBMultiverse.Reference"
    let events = EventLog()
    var notifierPID: pid_t = 0
    var referencePID: pid_t = 0
    var gdbusReferencePID: pid_t = 0
    /// The recording notification server's object server, kept while the bench runs.
    var notificationServer: (server: ObjectServer, exported: ExportedInterface<Notifications>)?
    /// The stand-in tray watcher, and the item the notifier registered with it.
    var trayWatcher: ExportedInterface<StatusNotifierWatcher>?
    var trayItem: BusName?
    /// Round-trip calls made to the service process so far (the memory figures are per call count).
    var serviceCalls = 0

    init(binary: String) throws {
        self.binary = binary
        let folder = (binary as NSString).deletingLastPathComponent
        func own(_ program: String, else command: String) -> [String] {
            let path = folder + "/" + program
            return FileManager.default.isExecutableFile(atPath: path) ? [path] : [binary, command]
        }
        serviceCommand = own("dbmultiverse-service", else: "service")
        notifierCommand = own("dbmultiverse-notifier", else: "notifier")
        hostExecutable = own("dbmultiverse-browser-host", else: "").first ?? binary
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("dbm-bench-\(getpid())").path
        for folder in [dataDirectory, dataDirectory + "-config", dataDirectory + "-shared"] {
            try? FileManager.default.removeItem(atPath: folder) // a previous run's, when there is one
        }
        // A config folder of its own (measureSyncFolder sets the sync folder there), and a machine id.
        let environment = ["DBMULTIVERSE_DATA_DIR": dataDirectory, "DBMULTIVERSE_BROWSER": "none", "DBMULTIVERSE_LOG_LEVEL": "warning",
                           "XDG_CONFIG_HOME": dataDirectory + "-config", "DBMULTIVERSE_MACHINE_ID": "bench"]
        bus = try PrivateBus(activationEnvironment: environment)
        try bus.installActivationFile(name: WidgetBus.busName.rawValue, exec: serviceCommand.joined(separator: " "))
        // The C reference is activatable too, for its cold activation beside ours.
        if let reference = Bench.referencePath("dbus-reference-service") {
            try bus.installActivationFile(name: Bench.referenceName.rawValue, exec: reference)
        }
        caller = try BlockingCaller(address: .address(bus.address))
    }

    var childEnvironment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DBMULTIVERSE_DATA_DIR": dataDirectory,
         "DBMULTIVERSE_BROWSER": "none", "DBMULTIVERSE_LOG_LEVEL": "warning", "HOME": dataDirectory,
         "XDG_CONFIG_HOME": dataDirectory + "-config", "DBMULTIVERSE_MACHINE_ID": "bench",
         "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    }

    func shutdown() {
        if notifierPID > 0 { kill(notifierPID, SIGTERM) }
        if referencePID > 0 { kill(referencePID, SIGTERM) }
        if gdbusReferencePID > 0 { kill(gdbusReferencePID, SIGTERM) }
        if let pid = try? servicePID() { kill(pid, SIGTERM) } // not running: nothing to stop
        bus.stop()
        for folder in [dataDirectory, dataDirectory + "-config", dataDirectory + "-shared"] {
            try? FileManager.default.removeItem(atPath: folder) // best effort: temporary folders
        }
    }

    // MARK: Calls

    /// `Peer.Ping` to the service: the floor, answered inside libdbus without reaching our code.
    func pingCall() -> Message { Peer.ping.call(on: widget.object).message }

    func call<Reply>(_ call: MethodCall<Reply>) throws -> Reply { try caller.call(call) }

    /// Returns once the service has finished what it was doing (a Ping is answered in turn), so
    /// one measurement's after-work (recording the sync state) doesn't delay the next.
    func drainService() {
        _ = try? caller.call(pingCall()) // answered or failed, the service has nothing left in hand
    }

    /// One call at a time, `count` times; adds each round trip to `samples`. Calls to another
    /// process than the service say so (`toService: false`), so the service's call count stays right.
    func sequential(_ make: @escaping () -> Message, count: Int, into samples: inout Samples, toService: Bool = true) {
        if toService { serviceCalls += count }
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
        while remaining > 0 { runLoop() }
        for value in collected.values { samples.add(value) }
    }

    /// `depth` calls in flight until `total` completed; returns calls per second.
    func pipelined(_ make: @escaping () -> Message, total: Int, depth: Int, toService: Bool = true) -> Double {
        if toService { serviceCalls += total }
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
        while done < total { runLoop() }
        return Double(total) / (Double(EventLoop.now() - start) / 1e9)
    }

    // MARK: Waiting

    /// Runs the loop until something stops it; a failed loop ends the benchmark.
    func runLoop() {
        do {
            try loop.run()
        } catch {
            print("dbmultiverse-bench: the event loop failed: \(error)")
            exit(1)
        }
    }

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
        while !condition() && !timedOut { runLoop() }
        timer.cancel()
        events.onEvent = nil
        return !timedOut
    }

    // MARK: Processes

    func servicePID() throws -> pid_t { try pid(of: WidgetBus.busName.rawValue) }

    /// The pid behind a bus name; `org.freedesktop.DBus` is the bus daemon itself.
    func pid(of name: String) throws -> pid_t {
        pid_t(bitPattern: try call(BusDriver.getConnectionUnixProcessID.call(on: BusDriver.object, name)))
    }

    func hasOwner(_ name: String) -> Bool {
        (try? call(BusDriver.nameHasOwner.call(on: BusDriver.object, name))) ?? false // no answer: treated as no owner
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

    /// A reference service's executable (built beside this benchmark), nil when it is not there.
    static func referencePath(_ name: String) -> String? {
        let path = (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/" + name
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Starts `dbus-reference-service` (built beside this benchmark) and waits for its name; false
    /// when it is not there.
    func startReferenceService() throws -> Bool {
        if hasOwner(Bench.referenceName.rawValue) {
            referencePID = try pid(of: Bench.referenceName.rawValue)
            return true
        }
        guard let path = Bench.referencePath("dbus-reference-service") else { return false }
        let before = events.count(of: "reference-acquired")
        referencePID = spawn([path])
        return referencePID > 0 && wait(timeout: 10) { self.events.count(of: "reference-acquired") > before }
    }

    /// Ends the C reference (started or activated) and waits until its name is free.
    func stopReferenceService() throws {
        guard hasOwner(Bench.referenceName.rawValue) else { return }
        let pid = try pid(of: Bench.referenceName.rawValue)
        let gone = events.count(of: "reference-lost")
        kill(pid, SIGTERM)
        _ = wait(timeout: 10) { self.events.count(of: "reference-lost") > gone }
        var status: Int32 = 0
        _ = waitpid(pid, &status, WNOHANG) // reaps only our own children; activated ones belong to the bus
        referencePID = 0
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

    // MARK: Storage

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
            throw BenchError("cannot stage \(temporary): \(String(cString: strerror(errno)))")
        }
        close(fd)
        return { rename(temporary, target) }
    }
}

/// Timestamps of the events the bench waits for, recorded on the loop thread.
final class EventLog {
    private var times: [String: [Int64]] = [:]
    var onEvent: (() -> Void)?
    private var subscriptions: [Connection.SignalSubscription] = []

    func record(_ name: String) {
        times[name, default: []].append(EventLoop.now())
        onEvent?()
    }
    func count(of name: String) -> Int { times[name]?.count ?? 0 }
    func last(of name: String) -> Int64 { times[name]?.last ?? 0 }

    /// Records the service's reloads (by reason) and opens, and the owners of the service's and
    /// the reference services' names coming and going.
    func subscribe(on connection: Connection, widget: WidgetClient, reference: WidgetClient, gdbusReference: WidgetClient) throws {
        subscriptions = [
            try widget.subscribeToReloads(on: connection) { [unowned self] reload in record(reload.reason.rawValue) },
            try widget.subscribeToOpenRequests(on: connection) { [unowned self] _, _ in record("open-requested") },
            try widget.onServiceChange(on: connection) { [unowned self] owner in record(owner == nil ? "owner-lost" : "owner-acquired") },
            try reference.onServiceChange(on: connection) { [unowned self] owner in record(owner == nil ? "reference-lost" : "reference-acquired") },
            try gdbusReference.onServiceChange(on: connection) { [unowned self] owner in if owner != nil { record("gdbus-acquired") } },
        ]
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
