import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Recorder
import SiteTestSupport
import Testing
import TestingTraits
import Widget

/// The same extension in Firefox ESR (docs/browser-extension.md), headless: the unsigned `.xpi` that
/// `make browser-extension` builds, sideloaded into a temporary profile that allows unsigned
/// add-ons (ESR honours `xpinstall.signatures.required`), the host manifest in
/// `~/.mozilla/native-messaging-hosts/` of a temporary HOME, and the site reached through the
/// fixture site as Firefox's HTTP proxy (so the real host names need no /etc/hosts entry).
/// The background script logs the host's reply, which Firefox prints on stdout.
@Suite(.serialized, .timeLimit(.minutes(10)), .holds(.desktopSession), .holds(.privateBuses, .wholeSuite), .offThePool,
       .enabled(if: FileManager.default.isExecutableFile(atPath: FirefoxESR.binary), "needs Debian's firefox-esr (make test installs it where apt has it)"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.browserHost)))
struct FirefoxEndToEndTests {
    /// A temporary profile's preferences: unsigned add-ons from the profile folder, enabled
    /// without asking; every http(s) request through `proxyPort` on 127.0.0.1; no first-run pages
    /// or background services; console messages on stdout.
    static func preferences(proxyPort: Int) -> String {
        let preferences: [(String, String)] = [
            ("xpinstall.signatures.required", "false"),
            ("extensions.autoDisableScopes", "0"),
            ("extensions.enabledScopes", "15"),
            ("network.proxy.type", "1"),
            ("network.proxy.http", #""127.0.0.1""#), ("network.proxy.http_port", "\(proxyPort)"),
            ("network.proxy.ssl", #""127.0.0.1""#), ("network.proxy.ssl_port", "\(proxyPort)"),
            ("network.proxy.no_proxies_on", #""""#),
            ("network.proxy.allow_hijacking_localhost", "true"),
            ("network.trr.mode", "5"),
            ("network.captive-portal-service.enabled", "false"),
            ("network.connectivity-service.enabled", "false"),
            ("dom.push.connection.enabled", "false"),
            ("dom.security.https_first", "false"),
            ("dom.security.https_only_mode", "false"),
            ("browser.shell.checkDefaultBrowser", "false"),
            ("browser.aboutwelcome.enabled", "false"),
            ("browser.startup.homepage_override.mstone", #""ignore""#),
            ("datareporting.policy.dataSubmissionEnabled", "false"),
            ("toolkit.telemetry.reportingpolicy.firstRun", "false"),
            ("app.update.disabledForTesting", "true"),
            ("devtools.console.stdout.chrome", "true"),
            ("devtools.console.stdout.content", "true"),
        ]
        return preferences.map { "user_pref(\"\($0.0)\", \($0.1));\n" }.joined()
    }

    @Test func theXPIReachesTheRealHostFromFirefox() throws {
        let session = try BrowserSession()
        defer { session.stop() }
        let site = session.site, home = session.home

        // The .xpi as `make browser-extension` builds it, sideloaded under its id.
        let packed = home.root.path + "/dist"
        let pack = try runCommand([DesktopInstall.repository.appendingPathComponent("scripts/build/browser-extension.sh").path, packed])
        #expect(pack.status == 0, "\(pack)")
        let xpi = try #require(try FileManager.default.contentsOfDirectory(atPath: packed).first { $0.hasSuffix(".xpi") })
        let profile = home.root.path + "/profile"
        try FileManager.default.createDirectory(atPath: profile + "/extensions", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packed + "/" + xpi, toPath: profile + "/extensions/\(BrowserExtension.firefoxID).xpi")
        try DesktopHome.write(Self.preferences(proxyPort: site.port), to: profile + "/user.js")
        try DesktopHome.write(try DesktopInstall.hostManifest(family: "firefox", binary: Binary.browserHost),
                              to: home.home + "/.mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json")

        // Tabs in this order: another host, the site's chapter list, then a comic page (chapter 5).
        let firefox = try ProcessGroup(binary: FirefoxESR.binary, arguments: [
            "--headless", "--no-remote", "--profile", profile,
            "http://example.org/en/page-7.html", "http://www.dragonball-multiverse.com/en/chapters.html",
            "http://www.dragonball-multiverse.com/en/page-130.html",
        ], environment: session.environment)
        defer {
            let left = firefox.stop()
            #expect(left.isEmpty, "Firefox processes left after the kill: \(left)")
        }

        try firefox.waitForLine(timeout: 60, "the host's reply for page 130 in the extension's console") {
            $0.hasPrefix("console.info: ") && $0.contains("dbmultiverse: en page 130: chapter 5, 8%")
        }
        #expect(try session.property("Chapter", "Progress") == "i 5\ni 8\n")
        #expect(try jsonObject(at: session.dataFolder + "/currentChapterData.json")["page"] as? Int == 130)
        // The host noted the visit for `dbmultiverse doctor`, naming the browser that started it.
        let contacts = try jsonObject(at: session.dataFolder + "/browserContacts.json")
        #expect((contacts["firefox"] as? [String: Any])?["browser"] as? String == "firefox-esr", "\(contacts)")
        for path in ["/en/page-7.html", "/en/chapters.html"] {
            try site.waitForRequest("\(path) through the proxy") { $0.target == path }
        }
        // Those two pages loaded before the reply came; neither was reported.
        #expect(!firefox.lines.contains { $0.contains("dbmultiverse: http://example.org") || $0.contains("chapters.html: ") }, "\(firefox.tail)")
    }
}

enum FirefoxESR {
    /// The real binary (`/usr/bin/firefox-esr` links to it).
    static let binary = "/usr/lib/firefox-esr/firefox-esr"
}
