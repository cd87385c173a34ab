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

/// The extension in a real browser (docs/browser-extension.md): Debian's Chromium, headless, with the
/// project's `browser/` loaded unpacked and the host manifest where that browser reads it; the
/// comic's site served by the fixture site under its real host names, the service activated on a
/// private bus. Visiting pages of the site must reach the real host (`dbmultiverse-browser-host`), which stores
/// them (the bus shows the chapter and progress) and brings its reply back to the extension; a
/// page on another host, or a page of the site that is not a comic page, changes nothing.
@Suite(.serialized, .timeLimit(.minutes(10)), .holds(.desktopSession), .holds(.privateBuses, .wholeSuite), .offThePool,
       .enabled(if: HeadlessChromium.isInstalled, "needs Debian's chromium (make test installs it where apt has it)"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.browserHost)))
struct ChromiumEndToEndTests {
    static let extensionName = "DBMultiverse Desktop"

    /// Whether an execution context is our content script's isolated world.
    static func isOurContentScript(_ params: [String: Any]) -> Bool {
        guard let context = params["context"] as? [String: Any], let auxData = context["auxData"] as? [String: Any] else { return false }
        return auxData["type"] as? String == "isolated"
            && (context["name"] as? String == extensionName || (context["origin"] as? String)?.contains(BrowserExtension.chromiumID) == true)
    }

    @Test func readingTheComicInChromiumMovesTheBusAndOtherPagesDoNot() async throws {
        let session = try BrowserSession()
        defer { session.stop() }
        let site = session.site
        let userData = session.home.root.path + "/chromium"
        let client = try await BusClient.connect(.address(session.bus.address))
        let reloads = try await client.signals(MatchRule(path: WidgetBus.objectPath, interface: Widget1.name, member: "TimelinesReloaded"))

        // Headless Chromium reads user-level host manifests only from its --user-data-dir.
        try DesktopHome.write(try DesktopInstall.hostManifest(family: "chromium", binary: Binary.browserHost),
                              to: userData + "/NativeMessagingHosts/com.nobadi.dbmultiverse.json")

        // The site's names (and another host's) to the fixture; every other name to nothing, so
        // the browser's own background requests never leave the machine.
        let rules = (["www.dragonball-multiverse.com", "dragonball-multiverse.com", "example.org"]
            .map { "MAP \($0) 127.0.0.1:\(site.port)" } + ["MAP * ~NOTFOUND"]).joined(separator: ",")
        // The tests run as root (CI, containers), where Chromium refuses to start with its sandbox.
        let sandbox = getuid() == 0 ? ["--no-sandbox"] : []
        let chromium = try HeadlessChromium(arguments: sandbox + [
            "--headless=new",
            "--user-data-dir=\(userData)",
            "--load-extension=\(DesktopInstall.repository.appendingPathComponent("browser").path)",
            "--host-resolver-rules=\(rules)",
            "--disable-features=HttpsUpgrades", // the fixture is http
            "--no-first-run", "--no-default-browser-check", "--disable-sync", "--disable-background-networking",
            "--disable-component-update", "--disable-default-apps", "--window-size=1024,640",
            "--enable-logging=stderr", "--v=0", // extension console messages on stderr
        ], environment: session.environment)
        defer {
            let left = chromium.stop()
            #expect(left.isEmpty, "Chromium processes left after the kill: \(left)")
        }
        let tab = try chromium.openTab()

        // Not comic pages: another host (same path shape), and a page of the site that is not a page.
        try chromium.visit("http://example.org/en/page-7.html", session: tab)
        try chromium.visit("http://www.dragonball-multiverse.com/en/chapters.html", session: tab)
        #expect(site.requests.contains { $0.method == "GET" && $0.host == "example.org" && $0.target == "/en/page-7.html" }, "\(site.requests)")
        let notPages = chromium.eventCount

        // Page 130, in chapter 5 (pages 129–152): the content script runs, the background relays the
        // URL, the real host stores it (the chapter rule: with the cover) and answers.
        var start = chromium.eventCount
        try chromium.visit("http://www.dragonball-multiverse.com/en/page-130.html", session: tab)
        try chromium.waitForEvent("Runtime.executionContextCreated", session: tab, from: start, where: Self.isOurContentScript)
        var reload = try ReloadSignal(try await next(reloads, within: 30, "the chapter-change for page 130"))
        #expect(reload.reason == "chapter-change")
        try expectEntry(reload.entry, chapter: 5, name: "The Tournament Goes On", progress: 8,
                        imagePath: session.dataFolder + "/chapterCoverImage.jpg", latestPage: 152, newPages: 22)
        #expect(try session.property("Chapter", "Progress", "ChapterName") == "i 5\ni 8\ns \"The Tournament Goes On\"\n")
        try chromium.waitForLine("the host's reply in the extension's console") {
            $0.contains(":CONSOLE") && $0.contains("dbmultiverse: en page 130: chapter 5, 8%")
                && $0.contains("chrome-extension://\(BrowserExtension.chromiumID)/background.js")
        }
        try Self.keepScreenshot(try chromium.screenshot(session: tab), named: "chromium-page-130.png")
        // The host noted the visit for `dbmultiverse doctor`, naming the browser that started it.
        let contacts = try jsonObject(at: session.dataFolder + "/browserContacts.json")
        #expect((contacts["chromium"] as? [String: Any])?["browser"] as? String == "chromium", "\(contacts)")

        // A later page of the same chapter, without www and with a fragment: one debounced
        // progress-change (the progress rule), not a chapter-change.
        start = chromium.eventCount
        try chromium.visit("http://dragonball-multiverse.com/en/page-140.html#pagetop", session: tab)
        try chromium.waitForEvent("Runtime.executionContextCreated", session: tab, from: start, where: Self.isOurContentScript)
        reload = try ReloadSignal(try await next(reloads, within: 30, "the progress-change for page 140"))
        #expect(reload.reason == "progress-change")
        try expectEntry(reload.entry, chapter: 5, name: "The Tournament Goes On", progress: 50,
                        imagePath: session.dataFolder + "/chapterCoverImage.jpg", latestPage: 152, newPages: 12)
        #expect(try session.property("Chapter", "Progress") == "i 5\ni 50\n")
        try chromium.waitForLine("the host's reply for page 140") { $0.contains(":CONSOLE") && $0.contains("dbmultiverse: en page 140: chapter 5, 50%") }
        try Self.keepScreenshot(try chromium.screenshot(session: tab), named: "chromium-page-140.png")

        // Another host's page of the same shape, after: nothing is stored, the bus keeps page 140.
        let stored = try session.storedFiles()
        start = chromium.eventCount
        try chromium.visit("http://example.org/en/page-150.html", session: tab)
        #expect(site.requests.contains { $0.host == "example.org" && $0.target == "/en/page-150.html" }, "\(site.requests)")
        #expect(try session.property("Chapter", "Progress") == "i 5\ni 50\n")
        #expect(try session.storedFiles() == stored)

        // The content script ran on the two comic pages only, and the host heard of those two only.
        let ourWorlds = chromium.receivedEvents("Runtime.executionContextCreated").filter(Self.isOurContentScript)
        #expect(ourWorlds.count == 2, "\(ourWorlds)")
        #expect(!chromium.receivedEvents("Runtime.executionContextCreated", before: notPages).contains(where: Self.isOurContentScript))
        let hostLines = chromium.lines.filter { $0.contains("dbmultiverse.browser-host") }
        #expect(hostLines.count == 2, "\(hostLines)")
        #expect(!chromium.lines.contains { $0.contains("example.org") || $0.contains("chapters.html") }, "\(chromium.lines)")
    }

    /// Checks `png` is a PNG of the window's size and keeps it where a person can look at it:
    /// `$TMPDIR/dbmultiverse-browser-tests/<name>` (replaced at each run).
    static func keepScreenshot(_ png: Data, named name: String) throws {
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // IHDR: width and height, big-endian, at bytes 16 and 20.
        let size = png.count >= 24 ? (png[16..<20].reduce(0) { $0 << 8 | Int($1) }, png[20..<24].reduce(0) { $0 << 8 | Int($1) }) : (0, 0)
        #expect(size == (1024, 640), "screenshot of \(size.0)×\(size.1)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbmultiverse-browser-tests")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try png.write(to: folder.appendingPathComponent(name))
    }
}
