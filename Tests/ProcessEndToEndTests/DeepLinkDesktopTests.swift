import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Widget
import Foundation
import Glibc
import SiteTestSupport
import Testing
import TestingTraits

/// Deep links end to end, as a desktop delivers them (docs/deep-links.md, docs/install.md): `make install` into a
/// temporary HOME, a private bus whose service directory holds the installed activation file,
/// the stock `xdg-open` / `gdbus` / the installed `dbmultiverse open`, the service started by bus
/// activation, and a fake browser (`DBMULTIVERSE_BROWSER`) that reports each start on a FIFO.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct DeepLinkDesktopTests {
    static let chapterList = "https://www.dragonball-multiverse.com/en/chapters.html?comic=page&chaptersmode=1"

    @Test func xdgOpenRunsTheHandlerWhichOpensTheChapterThroughTheActivatedService() async throws {
        let session = try await DesktopLinkSession.start()
        defer { session.stop() }
        let query = try runCommand(["xdg-mime", "query", "default", "x-scheme-handler/dbmultiverse"], environment: session.environment)
        #expect(query.stdout == "com.nobadi.DBMultiverse.desktop\n", "\(query)")
        await #expect(throws: (any Error).self, "nothing runs before the first link") { try await session.serviceExecutable() }

        let opened = try runCommand(["xdg-open", "dbmultiverse://chapter/42"], environment: session.environment)
        #expect(opened.status == 0 && opened.stdout.isEmpty, "\(opened)")
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList]))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 42, uri: "dbmultiverse://chapter/42"))
        // The installed binary answered, started by the bus from the installed activation file.
        #expect(try await session.serviceExecutable() == session.home.prefix + "/libexec/dbmultiverse/dbmultiverse-service")

        let update = try session.dbmultiverse(["update", "--chapter", "42", "--name", "X", "--progress", "10",
                                               "--page", "980", "--language", "fr"])
        #expect(update.status == 0, "\(update)")
        // (xdg-open 1.1 looks the handler up by the scheme as written: browsers hand over the
        // scheme lower-cased, and the service itself accepts any case, as the parser's tests show.)
        let again = try runCommand(["xdg-open", "dbmultiverse://chapter/42/"], environment: session.environment)
        #expect(again.status == 0, "\(again)")
        #expect(try session.browser.next() == BrowserLaunch(arguments: ["https://www.dragonball-multiverse.com/fr/page-980.html"]))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 42, uri: "dbmultiverse://chapter/42"))
    }

    /// GIO (what GNOME uses) sees DBusActivatable=true and calls Open on the bus itself rather
    /// than running Exec: the service is started by activation with no `dbmultiverse open` involved.
    @Test func gioOpenCallsOpenOnTheBusDirectly() async throws {
        let session = try await DesktopLinkSession.start()
        defer { session.stop() }
        // Proof that Exec is not run: point it at /bin/false.
        let desktopFile = session.home.dataHome + "/applications/com.nobadi.DBMultiverse.desktop"
        let text = try String(contentsOfFile: desktopFile, encoding: .utf8)
        try text.replacingOccurrences(of: "Exec=" + session.home.prefix + "/bin/dbmultiverse", with: "Exec=/bin/false")
            .write(toFile: desktopFile, atomically: true, encoding: .utf8)
        let opened = try runCommand(["gio", "open", "dbmultiverse://chapter/42"], environment: session.environment)
        #expect(opened.status == 0, "\(opened)")
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList]))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 42, uri: "dbmultiverse://chapter/42"))
        #expect(try await session.serviceExecutable() == session.home.prefix + "/libexec/dbmultiverse/dbmultiverse-service")
    }

    @Test func gdbusOpenHandsTheActivationTokenToTheBrowser() async throws {
        let session = try await DesktopLinkSession.start()
        defer { session.stop() }
        let result = try session.gdbus("Open", "['dbmultiverse://chapter/42']", "{'activation-token': <'tok123'>}")
        #expect(result.status == 0 && result.stdout == "()\n", "\(result)")
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList], activationToken: "tok123"))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 42, uri: "dbmultiverse://chapter/42"))

        // X11's startup id travels the same way; two links open two pages, in order.
        let two = try session.gdbus("Open", "['dbmultiverse://chapter/1', 'dbmultiverse://chapter/2']",
                                    "{'desktop-startup-id': <'id-7'>}")
        #expect(two.status == 0, "\(two)")
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList], startupID: "id-7"))
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList], startupID: "id-7"))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 1, uri: "dbmultiverse://chapter/1"))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 2, uri: "dbmultiverse://chapter/2"))

        // The handler's Exec passes the token it was started with.
        var environment = session.environment
        environment["XDG_ACTIVATION_TOKEN"] = "tok456"
        let handler = try runCommand([session.home.prefix + "/bin/dbmultiverse", "open", "dbmultiverse://chapter/3"], environment: environment)
        #expect(handler.status == 0, "\(handler)")
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList], activationToken: "tok456"))
    }

    @Test func badLinksOpenNothing() async throws {
        let session = try await DesktopLinkSession.start()
        defer { session.stop() }
        // Rejected before the bus: exit 2, a message naming the link, no service started.
        let bad = try session.dbmultiverse(["open", "dbmultiverse://chapter/0"])
        #expect(bad.status == 2 && bad.stdout.isEmpty, "\(bad)")
        #expect(bad.stderr.contains("invalid deep link") && bad.stderr.contains("dbmultiverse://chapter/0"), "\(bad)")
        await #expect(throws: (any Error).self, "no service was activated") { try await session.serviceExecutable() }
        let viaXdgOpen = try runCommand(["xdg-open", "dbmultiverse://chapter/042"], environment: session.environment)
        #expect(viaXdgOpen.status != 0 && viaXdgOpen.stderr.contains("dbmultiverse://chapter/042"), "\(viaXdgOpen)")
        await #expect(throws: (any Error).self, "still no service") { try await session.serviceExecutable() }

        // Chapter 1 is the current one with a known page, so opening it would show page-100.
        let update = try session.dbmultiverse(["update", "--chapter", "1", "--name", "One", "--progress", "5", "--page", "100"])
        #expect(update.status == 0, "\(update)")
        let mixed = try session.gdbus("Open", "['dbmultiverse://chapter/1', 'http://x']", "{}")
        #expect(mixed.status != 0 && mixed.stdout.isEmpty, "\(mixed)")
        #expect(mixed.stderr.contains("com.nobadi.DBMultiverse.Error.InvalidDeepLink") && mixed.stderr.contains("http://x"), "\(mixed)")
        // Calls are served in order and the signal precedes each browser start, so if the failed
        // call had opened chapter 1, its OpenRequested would come before this one's.
        let good = try session.gdbus("Open", "['dbmultiverse://chapter/2']", "{}")
        #expect(good.status == 0, "\(good)")
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 2, uri: "dbmultiverse://chapter/2"))
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList]))
        // And the browser's next start is the next good call's, not a late one for chapter 1.
        #expect(try session.gdbus("Open", "['dbmultiverse://chapter/1']", "{}").status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: ["https://www.dragonball-multiverse.com/en/page-100.html"]))
    }

    /// `dbmultiverse://page/N` (docs/deep-links.md): the page on the site, in the reader's language;
    /// `OpenRequested` names the main-story chapter holding it when the catalogue knows it, else 0.
    @Test func pageLinksOpenThePageInTheReadersLanguage() async throws {
        let session = try await DesktopLinkSession.start()
        defer { session.stop() }
        let bad = try session.dbmultiverse(["open", "dbmultiverse://page/0"])
        #expect(bad.status == 2 && bad.stdout.isEmpty, "\(bad)")
        #expect(bad.stderr.contains("invalid deep link \"dbmultiverse://page/0\"") && bad.stderr.contains("1…99999"), "\(bad)")
        await #expect(throws: (any Error).self, "no service was activated") { try await session.serviceExecutable() }

        let opened = try runCommand(["xdg-open", "dbmultiverse://page/130"], environment: session.environment)
        #expect(opened.status == 0, "\(opened)")
        #expect(try session.browser.next() == BrowserLaunch(arguments: ["https://www.dragonball-multiverse.com/en/page-130.html"]))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 0, uri: "dbmultiverse://page/130"), "no catalogue: 0")

        // A French reader with the French catalogue.
        let french = try SiteLanguage(validating: "fr")
        try storeCatalogue(of: .small, language: french, in: session.home.root.path + "/data")
        let update = try session.dbmultiverse(["update", "--chapter", "5", "--name", "Cinq", "--progress", "8", "--page", "130", "--language", "fr"])
        #expect(update.status == 0, "\(update)")
        #expect(try session.dbmultiverse(["open", "dbmultiverse://page/131"]).status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: ["https://www.dragonball-multiverse.com/fr/page-131.html"]))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 5, uri: "dbmultiverse://page/131"))
        #expect(try session.gdbus("ActivateAction", "open-page", "[<int32 100>]", "{'activation-token': <'p1'>}").status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: ["https://www.dragonball-multiverse.com/fr/page-100.html"],
                                                            activationToken: "p1"))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 0, uri: "dbmultiverse://page/100"), "a special's page")
        let outOfRange = try session.gdbus("ActivateAction", "open-page", "[<int32 100000>]", "{}")
        #expect(outOfRange.status != 0 && outOfRange.stderr.contains("com.nobadi.DBMultiverse.Error.InvalidPage"), "\(outOfRange)")
    }

    @Test func activateAndTheActions() async throws {
        let session = try await DesktopLinkSession.start()
        defer { session.stop() }
        // No current chapter: Activate and open-current show the chapter list.
        #expect(try session.gdbus("Activate", "{}").status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList]))
        #expect(try session.gdbus("ActivateAction", "open-current", "[]", "{'activation-token': <'a1'>}").status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList], activationToken: "a1"))
        #expect(try session.gdbus("ActivateAction", "open-chapter", "[<int32 7>]", "{}").status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList]))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 7, uri: "dbmultiverse://chapter/7"))
        #expect(try session.gdbus("ActivateAction", "open-chapter-list", "[]", "{'activation-token': <'a2'>}").status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [Self.chapterList], activationToken: "a2"))

        let unknown = try session.gdbus("ActivateAction", "frobnicate", "[]", "{}")
        #expect(unknown.status != 0 && unknown.stderr.contains("com.nobadi.DBMultiverse.Error.UnknownAction"), "\(unknown)")
        #expect(unknown.stderr.contains("frobnicate"), "\(unknown)")
        let wrongParameter = try session.gdbus("ActivateAction", "open-chapter", "[<'7'>]", "{}")
        #expect(wrongParameter.status != 0 && wrongParameter.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(wrongParameter)")
        let outOfRange = try session.gdbus("ActivateAction", "open-chapter", "[<int32 0>]", "{}")
        #expect(outOfRange.status != 0, "\(outOfRange)")

        // With a current chapter (French, page 300), every way of "continuing" opens its page.
        let update = try session.dbmultiverse(["update", "--chapter", "5", "--name", "Five", "--progress", "50",
                                               "--page", "300", "--language", "fr"])
        #expect(update.status == 0, "\(update)")
        let page = "https://www.dragonball-multiverse.com/fr/page-300.html"
        #expect(try session.gdbus("Activate", "{}").status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [page]), "the failed actions started nothing")
        #expect(try session.gdbus("ActivateAction", "open-current", "[]", "{}").status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [page]))
        // The desktop action's Exec fallback, and the launcher's Exec without a link.
        #expect(try session.dbmultiverse(["open", "--current"]).status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [page]))
        #expect(try session.dbmultiverse(["open"]).status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [page]))
        // Another chapter has no known page: the chapter list, in the reader's language.
        let frenchChapterList = "https://www.dragonball-multiverse.com/fr/chapters.html?comic=page&chaptersmode=1"
        #expect(try session.gdbus("ActivateAction", "open-chapter", "[<int32 6>]", "{}").status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [frenchChapterList]))
        #expect(try session.gdbus("ActivateAction", "open-chapter-list", "[]", "{}").status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [frenchChapterList]))
        let both = try session.dbmultiverse(["open", "--current", "dbmultiverse://chapter/5"])
        #expect(both.status == 2, "\(both)")
    }
}

/// One start of the fake browser: its arguments and the focus hand-over variables.
struct BrowserLaunch: Equatable, CustomStringConvertible {
    var arguments: [String]
    var activationToken: String?
    var startupID: String?
    var description: String { "\(arguments) token=\(activationToken ?? "-") startup-id=\(startupID ?? "-")" }
}

/// The fake browser: a script that writes one line per start to a FIFO this object reads with a
/// bounded wait (`poll` with a timeout: the wait ends when the line arrives, never by sleeping).
/// The FIFO is held open read-write so the script's open never blocks and reads never see EOF.
final class FakeBrowser: @unchecked Sendable { // used from one test at a time
    let script: String
    private let fifo: String
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(directory: String) throws {
        fifo = directory + "/browser.fifo"
        script = directory + "/fake-browser"
        guard mkfifo(fifo, 0o600) == 0 else { throw FixtureError("mkfifo \(fifo): \(String(cString: strerror(errno)))") }
        fd = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FixtureError("open \(fifo): \(String(cString: strerror(errno)))") }
        // One printf of one line (well under PIPE_BUF): concurrent starts never interleave.
        let text = """
            #!/bin/sh
            # Fake browser for the tests: token, startup id, then each argument, tab-separated.
            line="${XDG_ACTIVATION_TOKEN-<unset>}\t${DESKTOP_STARTUP_ID-<unset>}"
            for argument in "$@"; do line="$line\t$argument"; done
            printf '%s\\n' "$line" > '\(fifo)'

            """
        try writeExecutable(text, to: script)
    }

    deinit { close(fd) }

    /// The next start, within `timeout` seconds.
    func next(timeout: Double = 15) throws -> BrowserLaunch {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.count >= 2 else { throw FixtureError("malformed browser line '\(line)'") }
                return BrowserLaunch(arguments: Array(fields.dropFirst(2)),
                                     activationToken: fields[0] == "<unset>" ? nil : fields[0],
                                     startupID: fields[1] == "<unset>" ? nil : fields[1])
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw FixtureError("the browser was not started within \(timeout) s") }
            var pollfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollfd, 1, Int32(remaining * 1000) + 1)
            if ready < 0, errno != EINTR { throw FixtureError("poll: \(String(cString: strerror(errno)))") }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 { buffer += chunk[0..<count] }
        }
    }
}

/// A desktop session in a temporary HOME with DBMultiverse installed (`make install`), a private
/// bus that activates the installed service, the fake browser, and a client watching
/// `OpenRequested`.
final class DesktopLinkSession: @unchecked Sendable { // immutable after start
    let home: DesktopHome
    let bus: PrivateBus
    let browser: FakeBrowser
    let client: BusClient
    private let openRequests: AsyncStream<Message>

    private init(home: DesktopHome, bus: PrivateBus, browser: FakeBrowser, client: BusClient, openRequests: AsyncStream<Message>) {
        self.home = home
        self.bus = bus
        self.browser = browser
        self.client = client
        self.openRequests = openRequests
    }

    static func start() async throws -> DesktopLinkSession {
        let home = try DesktopHome()
        let install = try home.install()
        guard install.status == 0 else { throw FixtureError("make install failed: \(install)") }
        let browser = try FakeBrowser(directory: home.root.path)
        let dataDirectory = home.root.path + "/data"
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        var activation = home.environment
        activation["DBMULTIVERSE_DATA_DIR"] = dataDirectory
        activation["DBMULTIVERSE_BROWSER"] = browser.script
        let bus = try PrivateBus(activationEnvironment: activation)
        // The installed activation file, as `make install` rewrote it.
        let activationFile = "com.nobadi.DBMultiverse.service"
        try FileManager.default.copyItem(atPath: home.dataHome + "/dbus-1/services/" + activationFile,
                                         toPath: bus.serviceDirectory.appendingPathComponent(activationFile).path)
        let client = try await BusClient.connect(.address(bus.address))
        let openRequests = try await client.signals(MatchRule(path: WidgetBus.objectPath, interface: Widget1.name,
                                                              member: "OpenRequested"))
        return DesktopLinkSession(home: home, bus: bus, browser: browser, client: client, openRequests: openRequests)
    }

    func stop() { bus.stop() }

    /// The session's environment: the temporary HOME, the private bus, and a display name so that
    /// xdg-open's generic path consults the scheme handlers (it skips them without DISPLAY or
    /// WAYLAND_DISPLAY; nothing here connects to it).
    var environment: [String: String] {
        var environment = home.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["DISPLAY"] = ":dbmultiverse-test"
        return environment
    }

    func dbmultiverse(_ arguments: [String]) throws -> CommandResult {
        try runCommand([home.prefix + "/bin/dbmultiverse"] + arguments, environment: environment)
    }

    /// `gdbus call` of an org.freedesktop.Application method on the widget's object.
    func gdbus(_ method: String, _ arguments: String...) throws -> CommandResult {
        try runCommand(["gdbus", "call", "--session", "--timeout", "15", "--dest", WidgetBus.busName.rawValue,
                        "--object-path", WidgetBus.objectPath.rawValue, "--method", "org.freedesktop.Application.\(method)"] + arguments,
                       environment: environment)
    }

    func nextOpenRequested() async throws -> OpenRequest {
        let signal = try await next(openRequests, within: 15, "OpenRequested")
        let (chapter, uri) = try signal.decode(Int32.self, String.self)
        return OpenRequest(chapter: chapter, uri: uri)
    }

    /// The executable of the process owning the bus name (throws when there is none).
    func serviceExecutable() async throws -> String {
        let pid = try await client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                        member: "GetConnectionUnixProcessID", WidgetBus.busName.rawValue, timeout: .seconds(5))
            .decode(UInt32.self)
        return try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
    }
}
