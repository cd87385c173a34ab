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

/// Hostile and careless input from the outside (issue 30): names that are one character but
/// huge, control characters bound for terminals and status bars, and buses or services that
/// accept and never answer. The built binary against private buses.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool,
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct HostileInputTests {
    static let widgetError = "com.nobadi.DBMultiverse.Error."

    /// Issue 30, defect 1: one letter followed by 40 000 combining marks is one character, so it
    /// passed the 256-character rule; `update` exited 0, wrote an 80 KB file, and the service then
    /// refused its own file and served the placeholder — the position was lost. Now refused before
    /// writing (exit 2, `InvalidName`) by the command line and over D-Bus (a 5 MB name too), and the
    /// stored chapter stays.
    @Test func aHugeOneCharacterNameIsRefusedAndThePositionKept() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        #expect(try service.cli("update", "--chapter", "42", "--name", "Vegeta", "--progress", "35").status == 0)
        let stored = try Data(contentsOf: URL(fileURLWithPath: service.folder + "/currentChapterData.json"))

        let combining = "a" + String(repeating: "\u{0301}", count: 40_000)
        #expect(combining.count == 1)
        let update = try service.cli("update", "--chapter", "43", "--name", combining, "--progress", "10")
        #expect(update.status == 2, "\(update.status) \(update.stderr.prefix(300))")
        #expect(update.stderr.contains("80001 bytes long in UTF-8, more than 4096"), "\(update.stderr.prefix(300))")
        // Few bytes, too many scalars: 1 100 marks are 2 201 bytes.
        let scalars = try service.cli("update", "--chapter", "43", "--name", "a" + String(repeating: "\u{0301}", count: 1100), "--progress", "10")
        #expect(scalars.status == 2 && scalars.stderr.contains("1101 Unicode scalars, more than 1024"), "\(scalars.stderr.prefix(300))")

        let client = try await BusClient.connect(.address(service.bus.address))
        for name in [combining, String(repeating: "x", count: 5 * 1024 * 1024)] {
            await #expect(throws: DBusError.self) {
                try await client.call(destination: WidgetBus.busName, path: WidgetBus.objectPath, interface: Widget1.name,
                                      member: "UpdateChapter", Int32(43), name, Int32(10), [UInt8](), [String: Variant]())
            }
            do {
                _ = try await client.call(destination: WidgetBus.busName, path: WidgetBus.objectPath, interface: Widget1.name,
                                          member: "UpdateChapter", Int32(43), name, Int32(10), [UInt8](), [String: Variant]())
            } catch let error as DBusError {
                #expect(error.name == Self.widgetError + "InvalidName", "\(error.name): \(error.message.prefix(200))")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: service.folder + "/currentChapterData.json")) == stored, "nothing written")
        #expect(try service.cli("entry", "--family", "small").stdout == "Ch. 42 · 35%\n")
    }

    /// Issue 30, defect 2: `entry` and `watch` printed a name's newline (two status-bar updates
    /// from one entry) and ESC sequences raw. Text output is one line per entry, controls visible
    /// (`�`), bidi overrides dropped; JSON keeps the exact name.
    @Test func controlCharactersInANameNeverReachTheTerminal() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let watch = try StreamingCommand([Binary.dbmultiverse, "watch"], environment: service.environment)
        defer { watch.stop() }
        let (first, _) = try watch.waitForLine(timeout: 10, "the placeholder") { $0.hasPrefix("Read Multiverse Reader") }

        let name = "Vegeta\n✓ forged\u{1B}[2J\u{202E}olleh\u{9B}x\ty"
        #expect(try service.cli("update", "--chapter", "42", "--name", name, "--progress", "35").status == 0)
        let shown = "Chapter 42: Vegeta ✓ forged\u{FFFD}[2Jolleh\u{FFFD}x y — 35% read"
        #expect(try service.cli("entry").stdout == shown + "\n")
        let bar = try service.cli("entry", "--format", "waybar").stdout
        #expect(bar.split(separator: "\n").count == 1 && !bar.contains("\u{1B}") && !bar.contains("\\u001b") && !bar.contains("\\n"), "\(bar)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try service.cli("entry", "--format", "json").stdout.utf8)) as? [String: Any])
        #expect(json["name"] as? String == name, "JSON keeps the exact name")

        let (index, line) = try watch.waitForLine(from: first + 1, timeout: 10, "the reload") { $0.hasPrefix("Chapter 42") }
        #expect(line == shown)
        #expect(watch.output.count == index + 1, "one line for one entry: \(watch.output)")
        #expect(!watch.output.joined().contains("\u{1B}"))
    }

    /// Issue 30, defect 3: `doctor` printed browserContacts.json's browser name raw: an ESC
    /// sequence cleared the screen, a newline forged a "✓ service: all good" line.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")))
    func doctorPrintsFileContentAsOneSafeLine() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let home = try DoctorHome()
        defer { home.remove() }
        try home.standIn("systemctl", "echo 'Failed to connect to bus: No medium found' >&2; exit 1")
        // The manifests installing writes (the line then goes on to the host's record).
        let install = try runCommand([repositoryRoot.path + "/scripts/build/browser-hosts.sh", "install", Binary.dbmultiverse],
                                     environment: home.environment(bus: bus))
        try #require(install.status == 0, "\(install)")
        try FileManager.default.createDirectory(atPath: home.dataFolder, withIntermediateDirectories: true)
        try #"{"chromium":{"at":1700000000,"browser":"\u001b[2J\n✓ service: all good"}}"#
            .write(toFile: home.dataFolder + "/browserContacts.json", atomically: true, encoding: .utf8)

        let result = try home.doctor(bus: bus)
        #expect(!result.stdout.contains("\u{1B}"), "\(result.stdout)")
        #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("✓ service") }, "a forged line: \(result.stdout)")
        let chromium = try #require(DoctorLine.parse(result.stdout)["browser chromium"], "\(result.stdout)")
        #expect(chromium.detail.contains("\u{FFFD}[2J ✓ service: all good"), "\(chromium)")
    }

    /// A UNIX socket that takes connections (the kernel's backlog accepts them) and never answers.
    final class SilentSocket {
        let path: String
        let address: String
        private let fd: Int32

        init() throws {
            path = try makeTemporaryDirectory("dbm-silent", for: .sockets) + "/bus"
            address = "unix:path=" + path
            fd = try listeningUnixSocket(at: path, backlog: 64)
        }

        deinit {
            close(fd)
            try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        }
    }

    /// Runs the built binary against `environment`, and how long it took.
    func timed(_ arguments: [String], environment: [String: String], input: Data? = nil) throws -> (CommandResult, Double) {
        let started = Date()
        let result = try runCommand([Binary.dbmultiverse] + arguments, environment: environment, input: input, timeout: 30)
        return (result, Date().timeIntervalSince(started))
    }

    static let commands: [[String]] = [
        ["entry"], ["update", "--chapter", "4", "--name", "x", "--progress", "3"], ["watch"], ["watch", "--format", "json", "--next"],
        ["open", "dbmultiverse://chapter/4"], ["activate"], ["activate", "open-chapter", "4"], ["progress", "5"],
    ]

    /// A browser's request, framed as native messaging frames it. (Made at each use: stored in a
    /// static, its buffer was reported as leaked by LeakSanitizer at the test process's exit.)
    static var browserRequest: Data {
        let message = Array(#"{"type":"page","url":"https://www.dragonball-multiverse.com/en/page-1.html"}"#.utf8)
        return Data(withUnsafeBytes(of: UInt32(message.count).littleEndian) { Array($0) } + message)
    }

    /// Issue 30, defect 4: every command waited forever on a socket that accepts and never
    /// answers. Each now fails within seconds, non-zero, with a message naming the bus.
    @Test func everyCommandFailsWithinSecondsOnASilentSocket() throws {
        let silent = try SilentSocket()
        var environment = testEnvironment()
        environment["DBUS_SESSION_BUS_ADDRESS"] = silent.address
        environment["DBMULTIVERSE_DATA_DIR"] = (silent.path as NSString).deletingLastPathComponent + "/data"
        for arguments in Self.commands {
            let (result, seconds) = try timed(arguments, environment: environment)
            #expect(result.status == 1 && !result.timedOut, "\(arguments): \(result)")
            #expect(result.stderr.contains(silent.path), "\(arguments): \(result.stderr)")
            #expect(seconds < 9, "\(arguments) took \(seconds) s")
        }
        let (doctor, seconds) = try timed(["doctor"], environment: environment)
        #expect(doctor.status == 1 && !doctor.timedOut && doctor.stdout.contains(silent.path), "\(doctor)")
        #expect(seconds < 20, "doctor took \(seconds) s")
        let (host, hostSeconds) = try timed(["browser-host"] + HostProcess.chromiumArguments, environment: environment, input: Self.browserRequest)
        #expect(!host.timedOut && host.stdout.contains(silent.path), "\(host)")
        #expect(hostSeconds < 9, "browser-host took \(hostSeconds) s")
    }

    /// Issue 30, defect 4 with the fixture's own bus frozen (SIGSTOP): the commands fail within
    /// seconds naming the bus, and nothing stored is lost once it runs again.
    @Test func aFrozenBusFailsTheCommandsAndLosesNothing() throws {
        let service = try ActivatedService()
        defer { service.stop() }
        #expect(try service.cli("update", "--chapter", "42", "--name", "Vegeta", "--progress", "35").status == 0)
        let daemon = service.bus.processIdentifier
        kill(daemon, SIGSTOP)
        defer { kill(daemon, SIGCONT) }
        let bus = String(service.bus.address.split(separator: ",").first ?? "")
        for arguments in [["entry"], ["watch", "--format", "json", "--next"], ["update", "--chapter", "43", "--name", "x", "--progress", "1"]] {
            let (result, seconds) = try timed(arguments, environment: service.environment)
            #expect(result.status == 1 && !result.timedOut && result.stdout.isEmpty, "\(arguments): \(result)")
            #expect(result.stderr.contains(bus), "\(arguments) names \(bus): \(result.stderr)")
            #expect(seconds < 9, "\(arguments) took \(seconds) s")
        }
        kill(daemon, SIGCONT)
        #expect(try service.cli("entry", "--family", "small").stdout == "Ch. 42 · 35%\n")
    }

    /// Issue 30, defect 4: docs/usage.md promises a peer that never answers costs the doctor 3 s;
    /// with the service's name held by a silent peer it took 10–16 s.
    @Test func doctorGivesASilentServiceThreeSeconds() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let home = try DoctorHome()
        defer { home.remove() }
        try home.standIn("systemctl", "echo 'Failed to connect to bus: No medium found' >&2; exit 1")
        // Owns the service's name, and its loop never runs: calls to it are never read.
        let silent = try BusHost(address: bus.address)
        try silent.own(WidgetBus.busName)
        defer { _ = silent.stop() }

        let started = Date()
        let result = try home.doctor(bus: bus)
        let seconds = Date().timeIntervalSince(started)
        let line = try #require(DoctorLine.parse(result.stdout)["service"], "\(result.stdout)")
        #expect(result.status == 1 && line.detail == "no answer within 3 s (it is running)", "\(line)")
        #expect(seconds < 7, "the doctor took \(seconds) s")
    }

    /// Issue 30, minor: `activate open-chapter 042` was accepted where deep links refuse leading
    /// zeros, and `activate open-chapter -1` said "needs a chapter number".
    @Test func activateReadsNumbersAsDeepLinksDo() throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let cases: [([String], String)] = [
            (["open-chapter", "042"], "leading zero"), (["open-chapter", "-1"], "chapter -1 is out of range 1…99999"),
            (["open-page", "0"], "page 0 is out of range"), (["open-chapter", "4x"], "not a plain decimal number"),
        ]
        for (arguments, message) in cases {
            let result = try runCommand([Binary.dbmultiverse, "activate"] + arguments, environment: service.environment)
            #expect(result.status == 2 && result.stderr.contains(message), "\(arguments): \(result)")
        }
        #expect(try service.tool("busctl", "--address=\(service.bus.address)", "status", "com.nobadi.DBMultiverse").status != 0,
                "nothing reached the bus")
    }

    /// A PNG whose header states `width` × `height` (IHDR only: what the size check reads).
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        CoverImage.pngSignature + [0, 0, 0, 13] + Array("IHDR".utf8)
            + withUnsafeBytes(of: width.bigEndian) { Array($0) } + withUnsafeBytes(of: height.bigEndian) { Array($0) }
            + [8, 6, 0, 0, 0, 0, 0, 0, 0]
    }

    /// Issue 30, defect 7: a 16384×16384 PNG (818 KB) passed the size and magic checks, and
    /// decoding it blocked the notifier's loop ~2.7 s. `UpdateChapter` refuses a cover whose
    /// header states more than 4096 pixels a side (`CoverRejected`), and nothing is stored.
    @Test func aCoverOfTooManyPixelsIsRejected() async throws {
        let service = try ActivatedService()
        defer { service.stop() }
        let client = try await BusClient.connect(.address(service.bus.address))
        do {
            _ = try await client.call(destination: WidgetBus.busName, path: WidgetBus.objectPath, interface: Widget1.name,
                                      member: "UpdateChapter", Int32(42), "Vegeta", Int32(35),
                                      Self.pngHeader(width: 16384, height: 16384), [String: Variant]())
            Issue.record("a 16384×16384 cover was stored")
        } catch let error as DBusError {
            #expect(error.name == Self.widgetError + "CoverRejected", "\(error)")
            #expect(error.message.contains("16384×16384 pixels, more than 4096 a side"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: service.folder + "/currentChapterData.json"))
        #expect(!FileManager.default.fileExists(atPath: service.folder + "/chapterCoverImage.jpg"))
    }
}
