import ComicDomain
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Recorder
import Foundation
import Testing
import TestingTraits

/// The native messaging host as the browsers run it (docs/browser-extension.md): the built binary started with
/// Chromium's and Firefox's exact arguments, framed messages through pipes, only framed replies
/// on stdout, the end of input ending it. The bad-input table, each reply asserted exactly.
@Suite(.timeLimit(.minutes(10)), .offThePool, .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct BrowserHostProcessTests {
    /// A session's environment: a temporary home and data folder, no session bus.
    final class Session {
        let home: DesktopHome
        let dataFolder: String
        let firefoxManifest: String

        init() throws {
            home = try DesktopHome()
            dataFolder = home.root.path + "/data"
            firefoxManifest = home.home + "/.mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json"
            try FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
        }

        var environment: [String: String] {
            var environment = home.environment
            environment["DBMULTIVERSE_DATA_DIR"] = dataFolder
            environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(home.root.path)/no-bus"
            return environment
        }

        /// Nothing was stored: the data folder holds at most the record of the browser's visit.
        func expectNothingStored(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let files = try FileManager.default.contentsOfDirectory(atPath: dataFolder).filter { $0 != "browserContacts.json" }
            #expect(files.isEmpty, "\(files)", sourceLocation: sourceLocation)
        }
    }

    static func frame(_ text: String) -> [UInt8] { NativeMessageFraming.frame(Array(text.utf8)) }

    /// Reads a reply with Foundation's JSON parser (not the host's writer) and checks it is exactly
    /// `{"ok":false,"error":<error>}`, in that order.
    static func expectRefusal(_ reply: [UInt8], _ error: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = String(decoding: reply, as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any], "\(text)", sourceLocation: sourceLocation)
        #expect(Set(object.keys) == ["ok", "error"], "\(text)", sourceLocation: sourceLocation)
        #expect(object["ok"] as? Bool == false, "\(text)", sourceLocation: sourceLocation)
        #expect(object["error"] as? String == error, "\(text)", sourceLocation: sourceLocation)
        #expect(text.hasPrefix(#"{"ok":false,"error":""#), "\(text)", sourceLocation: sourceLocation)
    }

    /// Checks `reply` refuses `page` because the session bus cannot be reached (the sessions here
    /// have none).
    static func expectBusRefusal(_ reply: [UInt8], _ page: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let object = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any]
        let error = object?["error"] as? String ?? ""
        #expect(error.hasPrefix("\(page) was not stored: cannot connect to the session bus: org.freedesktop.DBus.Error."),
                "\(String(decoding: reply, as: UTF8.self))", sourceLocation: sourceLocation)
        try expectRefusal(reply, error, sourceLocation: sourceLocation)
    }

    /// Chromium's exchange: one message, the reply read, stdin closed ~3 ms later; the host must
    /// be gone before Chromium's SIGKILL 2 s after that. The host's own executable (what the
    /// manifests name) and the CLI's `browser-host` alike.
    @Test(arguments: [[Binary.browserHost], [Binary.dbmultiverse, "browser-host"]])
    func chromiumsExchangeEndsWhenItsInputDoes(command: [String]) throws {
        let session = try Session()
        let host = try HostProcess(executable: command[0], arguments: Array(command.dropFirst()) + HostProcess.chromiumArguments,
                                   environment: session.environment)
        try host.write(Self.frame(#"{"type":"page","url":"http://www.dragonball-multiverse.com/en/page-42.html"}"#))
        let reply = try host.reply()
        // No session bus here: the page is refused with that reason, before the site is asked.
        try Self.expectBusRefusal(reply, "en page 42")
        host.closeInput()
        let result = try host.waitForExit(timeout: 2)
        #expect(result.status == 0, "\(result)")
        #expect(result.replies.count == 1 && result.unframed.isEmpty, "\(result)")
        #expect(result.stderr.contains("en page 42 was not stored"), "\(result)")
        try session.expectNothingStored()
    }

    /// Each start by our extension is noted in browserContacts.json, per family, with the browser
    /// that started the host (its parent: here the test runner) — what `dbmultiverse doctor` reads.
    @Test func eachStartIsNotedForDoctor() throws {
        let session = try Session()
        let before = Int64(Date().timeIntervalSince1970)
        _ = try HostProcess.run(arguments: HostProcess.chromiumArguments, input: [], environment: session.environment)
        _ = try HostProcess.run(arguments: HostProcess.firefoxArguments(manifest: session.firefoxManifest), input: [],
                                environment: session.environment)
        // Another extension's start is no contact.
        _ = try HostProcess.run(arguments: ["chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"], input: [], environment: session.environment)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: session.dataFolder + "/browserContacts.json"))
        let contacts = try BrowserContacts.decode(Array(bytes))
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().lastPathComponent
        for family in BrowserContacts.Family.allCases {
            let contact = try #require(contacts.contacts[family], "\(family)")
            #expect(contact.browser == runner && (before...before + 60).contains(contact.at), "\(family): \(contact)")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: session.dataFolder + "/browserContacts.json")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// Each row of the bad-input table, one host per message as Chromium does.
    @Test(arguments: BadRequest.table)
    func eachBadRequestIsAnsweredExactly(_ bad: BadRequest) throws {
        let session = try Session()
        let result = try HostProcess.run(arguments: HostProcess.chromiumArguments, input: NativeMessageFraming.frame(bad.message),
                                         environment: session.environment)
        #expect(result.status == 0, "\(bad.name): \(result)")
        #expect(result.replies.count == 1 && result.unframed.isEmpty, "\(bad.name): \(result)")
        if let reply = result.replies.first { try Self.expectRefusal(reply, bad.error) }
        #expect(result.stderr.contains("refused: "), "\(bad.name): \(result)")
        try session.expectNothingStored()
    }

    /// The whole table in one stream with Firefox's arguments: one reply per message, in order.
    @Test func oneStreamOfBadRequestsGetsOneReplyEach() throws {
        let session = try Session()
        let result = try HostProcess.run(arguments: HostProcess.firefoxArguments(manifest: session.firefoxManifest),
                                         input: BadRequest.table.flatMap { NativeMessageFraming.frame($0.message) },
                                         environment: session.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.replies.count == BadRequest.table.count && result.unframed.isEmpty, "\(result)")
        for (reply, bad) in zip(result.replies, BadRequest.table) { try Self.expectRefusal(reply, bad.error) }
        try session.expectNothingStored()
    }

    /// Broken frames: the stream cannot be read further, so the host exits 1 with the reason on
    /// stderr; an oversized length is answered first, since the browser still waits for a reply.
    @Test(arguments: [
        ("oversized", [0x01, 0x00, 0x01, 0x00] as [UInt8], "a message of 65537 bytes announced, more than the 65536 the host accepts", true),
        ("4 GiB", [0xFF, 0xFF, 0xFF, 0xFF], "a message of 4294967295 bytes announced, more than the 65536 the host accepts", true),
        ("truncated length", [0x10, 0x00], "the input ended inside a message's 4-byte length (2 bytes read)", false),
        ("truncated message", [0x40, 0x00, 0x00, 0x00] + Array(#"{"type":"page","#.utf8), "the input ended inside a message: 64 bytes announced, 15 read", false),
    ])
    func aBrokenFrameExits1WithTheReason(name: String, stream: [UInt8], reason: String, answered: Bool) throws {
        let session = try Session()
        let valid = Self.frame(#"{"type":"ping"}"#)
        let result = try HostProcess.run(arguments: HostProcess.chromiumArguments, input: valid + stream, environment: session.environment)
        #expect(result.status == 1, "\(name): \(result)")
        #expect(result.stderr.contains(reason), "\(name): \(result)")
        // The message before the break was answered; nothing but replies reached stdout.
        #expect(result.replies.count == (answered ? 2 : 1) && result.unframed.isEmpty, "\(name): \(result)")
        if let first = result.replies.first { try Self.expectRefusal(first, #"unknown request type "ping": the host answers only "page""#) }
        if answered, result.replies.count == 2 { try Self.expectRefusal(result.replies[1], reason) }
        try session.expectNothingStored()
    }

    @Test func anEmptyInputEndsAtOnceWith0() throws {
        let session = try Session()
        let result = try HostProcess.run(arguments: HostProcess.chromiumArguments, input: [], environment: session.environment, timeout: 2)
        #expect(result.status == 0 && result.replies.isEmpty && result.unframed.isEmpty, "\(result)")
    }

    /// Another extension's origin or id: refused before anything is read, nothing on stdout.
    @Test func anotherExtensionIsRefused() throws {
        let session = try Session()
        for arguments in [["chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"], [session.firefoxManifest, "other@example.com"],
                          ["browser-host", "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"]] {
            let executable = arguments[0] == "browser-host" ? Binary.dbmultiverse : Binary.browserHost
            let result = try HostProcess.run(executable: executable, arguments: arguments, input: Self.frame(#"{"type":"ping"}"#),
                                             environment: session.environment)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.replies.isEmpty && result.unframed.isEmpty, "\(arguments): \(result)")
            #expect(result.stderr.contains("refusing "), "\(arguments): \(result)")
            #expect(result.stderr.contains("only the DBMultiverse extension (chrome-extension://ggedickjhdkhcjapnhgdobjneiagnckh/, dbmultiverse@nobadi.com)"),
                    "\(arguments): \(result)")
        }
    }

    /// `dbmultiverse browser-host` by hand (no browser arguments) serves too; other arguments
    /// are bad usage. The CLI takes a browser's arguments only after `browser-host`: the manifests
    /// name the host's own executable.
    @Test func theSubcommand() throws {
        let session = try Session()
        let cli = Binary.dbmultiverse
        let byHand = try HostProcess.run(executable: cli, arguments: ["browser-host"], input: Self.frame(#"{"type":"ping"}"#),
                                         environment: session.environment)
        #expect(byHand.status == 0 && byHand.replies.count == 1, "\(byHand)")
        let withChromium = try HostProcess.run(executable: cli, arguments: ["browser-host"] + HostProcess.chromiumArguments,
                                               input: Self.frame("[]"), environment: session.environment)
        #expect(withChromium.status == 0 && withChromium.replies.count == 1, "\(withChromium)")
        let bare = try HostProcess.run(executable: cli, arguments: HostProcess.chromiumArguments, input: Self.frame("[]"),
                                       environment: session.environment)
        #expect(bare.status == 2 && bare.replies.isEmpty && bare.unframed.isEmpty, "\(bare)")
        let unexpected = try HostProcess.run(executable: cli, arguments: ["browser-host", "--page", "3"], input: [],
                                             environment: session.environment)
        #expect(unexpected.status == 2 && unexpected.replies.isEmpty && unexpected.unframed.isEmpty, "\(unexpected)")
        let help = try runCommand([Binary.dbmultiverse, "browser-host", "--help"], environment: session.environment)
        #expect(help.status == 0 && help.stdout.contains("native messaging host"), "\(help)")
    }

    /// `$DBMULTIVERSE_SITE_URL`'s pages are pages of the site (a mirror, the test fixture);
    /// an unusable value is the reason every page is refused.
    @Test func theSiteOverride() throws {
        let session = try Session()
        var environment = session.environment
        environment["DBMULTIVERSE_SITE_URL"] = "http://127.0.0.1:8080"
        let mirror = try HostProcess.run(arguments: HostProcess.chromiumArguments,
                                         input: Self.frame(#"{"type":"page","url":"http://127.0.0.1:8080/fr/page-7.html"}"#)
                                            + Self.frame(#"{"type":"page","url":"http://127.0.0.1:8081/fr/page-7.html"}"#),
                                         environment: environment)
        #expect(mirror.status == 0 && mirror.replies.count == 2, "\(mirror)")
        if mirror.replies.count == 2 {
            try Self.expectBusRefusal(mirror.replies[0], "fr page 7")
            try Self.expectRefusal(mirror.replies[1], #"not a page of the comic's site "http://127.0.0.1:8081/fr/page-7.html": the host is not the comic's site"#)
        }
        environment["DBMULTIVERSE_SITE_URL"] = "127.0.0.1:8080"
        let unusable = try HostProcess.run(arguments: HostProcess.chromiumArguments,
                                           input: Self.frame(#"{"type":"page","url":"https://www.dragonball-multiverse.com/en/page-1.html"}"#),
                                           environment: environment)
        #expect(unusable.status == 0 && unusable.replies.count == 1, "\(unusable)")
        if let reply = unusable.replies.first {
            try Self.expectRefusal(reply, #"invalid site URL "127.0.0.1:8080": the scheme must be http or https; expected http(s)://host[:port]"#)
        }
        try session.expectNothingStored()
    }
}
