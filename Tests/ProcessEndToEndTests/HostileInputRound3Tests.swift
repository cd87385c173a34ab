import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Glibc
import Testing
import TestingTraits
import Widget

/// Hostile and careless input, round 3 (issue 39): a broken catalogue, a service that dies under a
/// call, a restart storm, a half-answering bus, data from other versions. The built binaries
/// against private buses.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool,
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct HostileInputRound3Tests {
    /// The French catalogue damaged two ways: cut after 2000 bytes (`head -c 2000`), and every
    /// original string's offset pointing 2 GB past the file; each in a locale folder of its own.
    static func damagedCatalogues() throws -> [(folder: String, catalogue: String)] {
        let built = try Translations.built()
        defer { try? FileManager.default.removeItem(atPath: built) }
        let french = Array(try Data(contentsOf: URL(fileURLWithPath: built + "/locale/fr/LC_MESSAGES/dbmultiverse.mo")))
        var farOffsets = french
        let (count, originals) = (Self.word(french, 8), Self.word(french, 12))
        for index in 0..<count {
            withUnsafeBytes(of: UInt32(0x7fff_0000).littleEndian) {
                farOffsets.replaceSubrange(originals + 8 * index + 4..<originals + 8 * index + 8, with: $0)
            }
        }
        return try [Array(french.prefix(2000)), farOffsets].map { bytes in
            let folder = try makeTemporaryDirectory("dbm-locale")
            let catalogue = folder + "/fr/LC_MESSAGES/dbmultiverse.mo"
            try FileManager.default.createDirectory(atPath: folder + "/fr/LC_MESSAGES", withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: catalogue))
            return (folder, catalogue)
        }
    }

    static func word(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) })
    }

    /// Issue 39, defect 2: a truncated or damaged French catalogue (LANGUAGE=fr) crashed `entry`,
    /// `doctor` and `--help` with SIGSEGV in glibc's `_nl_find_msg`, and the service on
    /// `UpdateChapter`. It is not read: English, and one log line naming the file.
    @Test func aDamagedCatalogueIsNotRead() throws {
        for (folder, catalogue) in try Self.damagedCatalogues() {
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let session = ["LANG": "C.UTF-8", "LANGUAGE": "fr", "DBMULTIVERSE_LOCALE_DIR": folder]
            var environment = testEnvironment().merging(session) { $1 }
            environment["LC_ALL"] = nil
            let help = try runCommand([Binary.dbmultiverse, "--help"], environment: environment)
            #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: The DBMultiverse comic reader"), "\(help)")
            let logged = help.stderr.split(separator: "\n")
            #expect(logged.count == 1 && logged[0].contains("not reading the catalogue \(catalogue) ("), "\(help.stderr)")

            // The service, activated in that session, and the commands that call it.
            let data = try makeTemporaryDirectory("dbm-data")
            defer { try? FileManager.default.removeItem(atPath: data) }
            let bus = try PrivateBus(activationEnvironment: session.merging(["DBMULTIVERSE_DATA_DIR": data, "DBMULTIVERSE_BROWSER": "none"]) { $1 })
            defer { bus.stop() }
            try bus.installActivationFile(name: WidgetBus.busName.rawValue, exec: Binary.service)
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            let update = try runCommand([Binary.dbmultiverse, "update", "--chapter", "42", "--name", "Vegeta", "--progress", "35"],
                                        environment: environment)
            #expect(update.status == 0, "\(update)")
            let entry = try runCommand([Binary.dbmultiverse, "entry"], environment: environment)
            #expect(entry.status == 0 && entry.stdout == "Chapter 42: Vegeta — 35% read\n", "\(entry)")
        }
    }

    /// Issue 39, defect 1: `watch --next --after TOKEN` (the Plasma widget's long poll) started a
    /// service that dies soon after each answer again at once, without end: 93–95 starts in 30 s,
    /// ~1.5 s of CPU, and it never returned, so the widget's own back-off never began. The real
    /// service, killed 0.5 s after each start (it answers within the first tenth): the poll starts
    /// it again after 1 s, then 2 s, and when that start fails too it exits 1 — three starts, a
    /// few milliseconds of CPU.
    @Test func aServiceThatKeepsDyingIsStartedAgainWithBackoffThenGivenUp() async throws {
        let folder = try makeTemporaryDirectory("dbm-dying", for: .programs)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        try Data(#"{"number":42,"name":"Vegeta","progress":35,"coverImagePath":""}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/data/currentChapterData.json"))
        // Each start is one line of starts.log; the service is killed 0.5 s after it starts.
        let script = folder + "/dying-service"
        try "#!/bin/sh\necho start >> \(folder)/starts.log\nexec timeout -s KILL 0.5 \(Binary.service)\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        let bus = try PrivateBus(activationEnvironment: ["DBMULTIVERSE_DATA_DIR": folder + "/data", "DBMULTIVERSE_BROWSER": "none",
                                                         "DBMULTIVERSE_LOG_LEVEL": "warning"])
        defer { bus.stop() }
        try bus.installActivationFile(name: WidgetBus.busName.rawValue, exec: script)
        func starts() -> Int {
            ((try? String(contentsOfFile: folder + "/starts.log", encoding: .utf8)) ?? "").split(separator: "\n").count
        }

        let client = try await BusClient.connect(.address(bus.address))
        let owners = try await client.signals(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                                        member: "NameOwnerChanged", arg0: WidgetBus.busName.rawValue))
        let first = try runCommand([Binary.dbmultiverse, "watch", "--format", "json", "--next"], environment: bus.clientEnvironment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any], "\(first)")
        let token = try #require(object["token"] as? String)
        #expect(object["chapter"] as? Int == 42)
        // The poll starts with no service running: its first read starts one.
        while try await DBusTestSupport.next(owners, "the service to start and die").decode(String.self, String.self, String.self).2 != "" {}
        let before = starts()

        // bash's `times`: the CPU the poll used (its children's user and system time).
        let started = Date()
        let poll = try runCommand(["bash", "-c", "\"$@\"; status=$?; times >&2; exit $status", "poll",
                                   Binary.dbmultiverse, "watch", "--format", "json", "--next", "--after", token],
                                  environment: bus.clientEnvironment, timeout: 30)
        let seconds = Date().timeIntervalSince(started)
        let during = starts() - before
        #expect(poll.status == 1 && !poll.timedOut && poll.stdout.isEmpty, "\(poll)")
        #expect(poll.stderr.contains("com.nobadi.DBMultiverse left the bus again each time it was started: not starting it again"), "\(poll.stderr)")
        #expect((2...6).contains(during), "started \(during) times in \(seconds) s")
        #expect(seconds >= 3 && seconds < 15, "took \(seconds) s: the waits were 1 s and 2 s")
        let cpu = poll.stderr.split(separator: "\n").last.map { line in
            line.split(separator: " ").compactMap { part -> Double? in
                guard let m = part.firstIndex(of: "m"), part.hasSuffix("s") else { return nil }
                return (Double(part[..<m]) ?? 0) * 60 + (Double(part[part.index(after: m)..<part.index(before: part.endIndex)]) ?? 0)
            }.reduce(0, +)
        }
        #expect(cpu.map { $0 < 0.2 } == true, "CPU: \(cpu.map { "\($0) s" } ?? "not read"): \(poll.stderr)")
    }

    /// Issue 39, defect 4: a relative `DBMULTIVERSE_DATA_DIR` split the data — the activated service
    /// took it from / (it wrote /rel/currentChapterData.json), doctor and the commands from their
    /// own working folder. It is refused everywhere, with the same message.
    @Test func aRelativeDataFolderIsRefusedEverywhere() throws {
        let relative = "dbm-relative-\(UUID().uuidString.prefix(8))"
        // Where a service started by D-Bus took it from: the bus's working folder (/ in a session,
        // this test's here).
        let places = ["/" + relative, FileManager.default.currentDirectoryPath + "/" + relative]
        defer { for place in places { try? FileManager.default.removeItem(atPath: place) } }
        let message = "DBMULTIVERSE_DATA_DIR is \"\(relative)\", a relative path: set it to an absolute one, or unset it"
        let bus = try PrivateBus(activationEnvironment: ["DBMULTIVERSE_DATA_DIR": relative, "DBMULTIVERSE_BROWSER": "none"])
        defer { bus.stop() }
        try bus.installActivationFile(name: WidgetBus.busName.rawValue, exec: Binary.service)
        // The service started by D-Bus (its working folder is /) does not start: nothing is written.
        let update = try runCommand([Binary.dbmultiverse, "update", "--chapter", "42", "--name", "Vegeta", "--progress", "35"],
                                    environment: bus.clientEnvironment)
        #expect(update.status == 1, "\(update)")
        for place in places { #expect(!FileManager.default.fileExists(atPath: place), "the data went to \(place)") }
        // Run by hand, it says why; so do the commands that read the folder themselves.
        var environment = bus.clientEnvironment
        environment["DBMULTIVERSE_DATA_DIR"] = relative
        let service = try runCommand([Binary.service], environment: environment, timeout: 10)
        #expect(service.status == 1 && service.stderr.contains("cannot start the service: \(message)"), "\(service)")
        let chapters = try runCommand([Binary.dbmultiverse, "chapters"], environment: environment)
        #expect(chapters.status == 2 && chapters.stderr == "dbmultiverse: \(message) (each program would read it from its own working folder)\n",
                "\(chapters)")
        // doctor's data folder line.
        let home = try DoctorHome(dataFolder: relative)
        defer { home.remove() }
        try home.standIn("systemctl", "echo 'Failed to connect to bus: No medium found' >&2; exit 1")
        let doctor = try home.doctor(bus: bus)
        let line = try #require(DoctorLine.parse(doctor.stdout)["data folder"], "\(doctor.stdout)")
        #expect(doctor.status == 1 && line.mark == "✗" && line.detail.hasPrefix("DBMULTIVERSE_DATA_DIR is \"\(relative)\", a relative path"), "\(line)")
        #expect(line.fix == "fix: unset DBMULTIVERSE_DATA_DIR && systemctl --user unset-environment DBMULTIVERSE_DATA_DIR (or set it to an absolute path wherever it is set)",
                "\(line)")
    }

    /// Issue 39, defect 5: data written by another version. Keys this version does not know were
    /// dropped by the next `progress 50`; `"language": "xx_NEW"` had the whole position refused
    /// (the placeholder shown, `progress` said "no chapter is stored yet") while doctor marked the
    /// data folder ✓. Now the keys are kept, the position is read and says what it could not use.
    @Test func dataFromAnotherVersionKeepsThePositionAndItsKeys() throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let file = service.folder + "/currentChapterData.json"
        try Data((#"{"number":42,"name":"Vegeta","progress":35,"coverImagePath":"","language":"xx_NEW","#
                  + #""readerApp":{"version":7},"bookmarks":[3,14]}"#).utf8).write(to: URL(fileURLWithPath: file))
        #expect(try service.cli("entry", "--family", "small").stdout == "Ch. 42 · 35%\n")
        let progress = try service.cli("progress", "50")
        #expect(progress.status == 0, "\(progress)")
        #expect(try String(contentsOfFile: file, encoding: .utf8)
                == #"{"number":42,"name":"Vegeta","progress":50,"coverImagePath":"","language":"xx_NEW","readerApp":{"version":7},"bookmarks":[3,14]}"# + "\n")
        #expect(try service.cli("entry", "--family", "small").stdout == "Ch. 42 · 50%\n")
        // The service said once what it could not use (its stderr is the bus's log).
        let handle = try FileHandle(forReadingFrom: service.bus.directory.appendingPathComponent("dbus-daemon.log"))
        let log = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        try handle.close()
        #expect(log.components(separatedBy: "chapter 42 is stored with the language \"xx_NEW\", which this version does not know: reading it in en").count == 2,
                "\(log)")

        let home = try DoctorHome(dataFolder: service.folder)
        defer { home.remove() }
        try home.standIn("systemctl", "echo 'Failed to connect to bus: No medium found' >&2; exit 1")
        let doctor = try home.doctor(bus: service.bus)
        let line = try #require(DoctorLine.parse(doctor.stdout)["data folder"], "\(doctor.stdout)")
        #expect(line.detail.hasSuffix(#", chapter 42 stored, in the language "xx_NEW", which this version does not know: the reader's language is used instead"#),
                "\(line)")
    }

    /// A "bus" that takes connections, authenticates them and answers `Hello`, and nothing else:
    /// every other call is read and never answered.
    ///
    /// `@unchecked Sendable`: its one stored descriptor is immutable; each connection is served by
    /// a thread of its own, which alone touches it.
    final class HelloOnlyBus: @unchecked Sendable {
        let path: String
        let address: String
        private let listener: Int32

        init() throws {
            path = try makeTemporaryDirectory("dbm-hello-only", for: .sockets) + "/bus"
            address = "unix:path=" + path
            listener = try listeningUnixSocket(at: path, backlog: 16)
            let socket = listener
            Thread {
                // Ends when the listener is shut down.
                while case let client = accept(socket, nil, nil), client >= 0 {
                    Thread { Self.serve(client) }.start()
                }
            }.start()
        }

        deinit {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        }

        private static func serve(_ fd: Int32) {
            defer { close(fd) }
            var buffer: [UInt8] = []
            func fill() -> Bool {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { return false }
                buffer += chunk.prefix(count)
                return true
            }
            func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
            // The authentication's lines, up to BEGIN.
            while true {
                while buffer.firstRange(of: Array("\r\n".utf8)) == nil { guard fill() else { return } }
                let end = buffer.firstRange(of: Array("\r\n".utf8))!
                let line = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                if line.contains("AUTH") {
                    send(Array("OK 0123456789abcdef0123456789abcdef\r\n".utf8))
                } else if line.hasPrefix("NEGOTIATE_UNIX_FD") {
                    send(Array("AGREE_UNIX_FD\r\n".utf8))
                } else if line.hasPrefix("BEGIN") {
                    break
                } else {
                    send(Array("ERROR\r\n".utf8))
                }
            }
            // The messages: each framed by its header's lengths; Hello answered, the rest not.
            while true {
                while buffer.count < 16 { guard fill() else { return } }
                func word(_ offset: Int) -> Int {
                    let bytes = buffer[offset..<offset + 4].map(UInt32.init)
                    return Int(buffer[0] == UInt8(ascii: "l") ? bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24
                                                              : bytes[3] | bytes[2] << 8 | bytes[1] << 16 | bytes[0] << 24)
                }
                let total = (16 + word(12) + 7) / 8 * 8 + word(4)
                while buffer.count < total { guard fill() else { return } }
                let bytes = Array(buffer[..<total])
                buffer.removeFirst(total)
                guard let message = try? Message(wireBytes: bytes), message.member == "Hello" else { continue }
                let reply = message.makeReply()
                reply.append(":1.1")
                send(reply.wireBytes())
            }
        }
    }

    /// Issue 39, defect 3: against a bus that answers `Hello` and nothing else, doctor took ~30 s
    /// (3 s and more per call) and blamed the pieces — "notifier: not running", "notification
    /// server: none … sudo apt install dunst", "no StatusNotifierWatcher". It takes one short
    /// wait, and says the bus does not answer; the pieces on it are not checked.
    @Test func doctorOnABusThatAnswersOnlyHelloBlamesTheBusWithinSeconds() throws {
        let bus = try HelloOnlyBus()
        let home = try DoctorHome()
        defer { home.remove() }
        try home.standIn("systemctl", "echo 'Failed to connect to bus: No medium found' >&2; exit 1")
        let started = Date()
        let doctor = try runCommand([Binary.dbmultiverse, "doctor"], environment: home.environment(busAddress: bus.address), timeout: 60)
        let seconds = Date().timeIntervalSince(started)
        #expect(doctor.status == 1, "\(doctor)")
        #expect(seconds < 5, "doctor took \(seconds) s")
        let lines = DoctorLine.parse(doctor.stdout)
        let service = try #require(lines["service"], "\(doctor.stdout)")
        #expect(service.mark == "✗" && service.detail.contains("the session bus at \(bus.address) takes connections but does not answer within 2 s"),
                "\(service)")
        for name in ["notifier", "notification server", "tray host"] {
            let line = try #require(lines[name], "\(name): \(doctor.stdout)")
            #expect(line.mark == "–" && line.detail.hasPrefix("cannot be checked without a session bus"), "\(line)")
        }
        #expect(!doctor.stdout.contains("dunst") && !doctor.stdout.contains("StatusNotifierWatcher"), "\(doctor.stdout)")
    }

    /// Issue 39, defect 7: a `make install` copy removed but for its activation file in
    /// `~/.local/share/dbus-1/services` shadows the package's: every call gets `Spawn.ExecFailed`,
    /// and doctor's fix did not name that file. doctor names the file the session bus starts the
    /// service from and, when its Exec= names nothing, the command that removes it; after that
    /// command, the package's file is used. The bus reads a session bus's service folders (from
    /// XDG_DATA_HOME and XDG_DATA_DIRS).
    @Test func doctorNamesALeftoverActivationFileAndHowToRemoveIt() throws {
        let home = try DoctorHome()
        defer { home.remove() }
        try home.standIn("systemctl", "echo 'Failed to connect to bus: No medium found' >&2; exit 1")
        let services = "dbus-1/services/com.nobadi.DBMultiverse.service"
        try home.write("[D-BUS Service]\nName=com.nobadi.DBMultiverse\nExec=\(Binary.service)\n", to: "system/share/" + services)
        let leftover = home.dataHome + "/" + services
        let missing = home.home + "/.local/libexec/dbmultiverse/dbmultiverse-service"
        try home.write("[D-BUS Service]\nName=com.nobadi.DBMultiverse\nExec=\(missing)\n", to: ".local/share/" + services)
        let bus = try PrivateBus(activationEnvironment: ["XDG_DATA_HOME": home.dataHome, "XDG_DATA_DIRS": home.home + "/system/share",
                                                         "DBMULTIVERSE_DATA_DIR": home.dataFolder, "DBMULTIVERSE_BROWSER": "none"],
                                 standardServiceFolders: true)
        defer { bus.stop() }
        func doctor() throws -> DoctorLine {
            let run = try home.doctor(bus: bus)
            return try #require(DoctorLine.parse(run.stdout)["service"], "\(run)")
        }
        let shadowed = try doctor()
        #expect(shadowed.mark == "✗" && shadowed.detail == "D-Bus activation failed: the bus starts it from ~/.local/share/\(services), "
                + "whose Exec= names \(missing), which is not there", "\(shadowed)")
        #expect(shadowed.fix == "fix: rm \(leftover)", "\(shadowed)")
        #expect(unlink(leftover) == 0)
        let fixed = try doctor()
        #expect(fixed.mark == "✓" && fixed.detail.hasPrefix("answering (started by D-Bus activation now)"), "\(fixed)")
    }

    /// Issue 39, defect 2: a service that died under `UpdateChapter` was reported by the command
    /// line as "did not answer UpdateChapter within 10 s (NoReply)", 0.24 s after the call. The
    /// bus said the service went away: so does the command.
    @Test func aServiceThatDiesUnderACallIsReportedGone() throws {
        let service = try ActivatedService()
        defer { service.stop() }
        #expect(try service.cli("update", "--chapter", "42", "--name", "Vegeta", "--progress", "35").status == 0)
        let pid = try service.servicePID()
        // Frozen, so the call waits for it; killed once the call is on the bus.
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGKILL) }
        let monitor = try StreamingCommand(["dbus-monitor", "--address", service.bus.address, "type='method_call',member='UpdateChapter'"])
        defer { monitor.stop() }
        try monitor.waitForLine(timeout: 10, "dbus-monitor's start") { $0.contains("NameAcquired") }
        let update = try StreamingCommand([Binary.dbmultiverse, "update", "--chapter", "43", "--name", "Next", "--progress", "1"],
                                          environment: service.environment)
        defer { update.stop() }
        try monitor.waitForLine(timeout: 10, "the UpdateChapter call on the bus") { $0.contains("member=UpdateChapter") }
        kill(pid, SIGKILL)
        #expect(try update.terminate(0, timeout: 10) == 1) // signal 0: only waits for the exit
        // Its last words may still be in the pipe when the exit is seen.
        try? update.waitForError(timeout: 10, "the command's message") { $0.hasSuffix("\n") }
        let stderr = update.stderrText
        let bus = String(service.bus.address.split(separator: ",").first ?? "")
        #expect(stderr.contains("com.nobadi.DBMultiverse went away without answering UpdateChapter (it exited or crashed) on the bus at \(bus)"),
                "\(stderr)")
        #expect(!stderr.contains("did not answer"), "\(stderr)")
    }
}
