import DBusTestSupport
import Desktop
import Foundation
import Glibc
import SiteTestSupport
import Testing
import TestingTraits

/// The extension in a real browser (DESIGN §12): Debian's Chromium, headless, with the
/// project's `browser/` loaded unpacked and the host manifest where that browser reads it; the
/// comic's site served by the fixture site under its real host names. Visiting pages of the site
/// must reach the real `dbmultiverse` host and bring its reply back to the extension; a page on
/// another host, or a page of the site that is not a comic page, must not reach it.
@Suite(.serialized, .timeLimit(.minutes(3)), .offThePool,
       .enabled(if: HeadlessChromium.isInstalled, "needs Debian's chromium (.ci/run installs it)"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct ChromiumEndToEndTests {
    static let extensionName = "DBMultiverse Desktop"

    /// Whether an execution context is our content script's isolated world.
    static func isOurContentScript(_ params: [String: Any]) -> Bool {
        guard let context = params["context"] as? [String: Any], let auxData = context["auxData"] as? [String: Any] else { return false }
        return auxData["type"] as? String == "isolated"
            && (context["name"] as? String == extensionName || (context["origin"] as? String)?.contains(BrowserExtension.chromiumID) == true)
    }

    @Test func visitingTheComicsPagesReachesTheRealHostAndOtherPagesDoNot() throws {
        let session = try BrowserSession()
        defer { session.stop() }
        let site = session.site
        let userData = session.home.root.path + "/chromium"

        // Headless Chromium reads user-level host manifests only from its --user-data-dir.
        try DesktopHome.write(try DesktopInstall.hostManifest(family: "chromium", binary: Binary.dbmultiverse),
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

        // A comic page: the content script runs, the background relays the URL, the real host
        // answers (this build refuses to store it, saying why) and the reply reaches the extension.
        var start = chromium.eventCount
        try chromium.visit("http://www.dragonball-multiverse.com/en/page-42.html", session: tab)
        try chromium.waitForEvent("Runtime.executionContextCreated", session: tab, from: start, where: Self.isOurContentScript)
        let refusal = "en page 42 was not stored: this build of dbmultiverse cannot map a page to its chapter yet (no site catalogue)"
        try chromium.waitForLine("the host's diagnostics for page 42") {
            $0.contains("dbmultiverse.browser-host") && $0.contains(refusal)
        }
        try chromium.waitForLine("the host's reply in the extension's console") {
            $0.contains(":CONSOLE") && $0.contains("dbmultiverse: http://www.dragonball-multiverse.com/en/page-42.html: \(refusal)")
                && $0.contains("chrome-extension://\(BrowserExtension.chromiumID)/background.js")
        }
        try Self.keepScreenshot(try chromium.screenshot(session: tab), named: "chromium-page-42.png")

        // Without www, with a query and a fragment.
        start = chromium.eventCount
        try chromium.visit("http://dragonball-multiverse.com/fr/page-3.html?lang=fr#pagetop", session: tab)
        try chromium.waitForEvent("Runtime.executionContextCreated", session: tab, from: start, where: Self.isOurContentScript)
        try chromium.waitForLine("the host's diagnostics for fr page 3") {
            $0.contains("dbmultiverse.browser-host") && $0.contains("fr page 3 was not stored")
        }

        // The content script ran on the two comic pages only, and the host heard of those two only.
        let ourWorlds = chromium.receivedEvents("Runtime.executionContextCreated").filter(Self.isOurContentScript)
        #expect(ourWorlds.count == 2, "\(ourWorlds)")
        #expect(!chromium.receivedEvents("Runtime.executionContextCreated", before: notPages).contains(where: Self.isOurContentScript))
        let hostLines = chromium.lines.filter { $0.contains("dbmultiverse.browser-host") }
        #expect(hostLines.count == 2, "\(hostLines)")
        #expect(!chromium.lines.contains { $0.contains("example.org") || $0.contains("chapters.html") }, "\(chromium.lines)")
        #expect(try session.storedFiles().isEmpty)
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
