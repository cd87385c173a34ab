import DBusTestSupport
import Foundation
import SiteTestSupport

/// What the end-to-end tests run a browser in: the comic's site on the fixture server, a private
/// bus (never the developer's session bus), a temporary home and data folder, and the environment
/// the browser gets (and passes on to the native messaging hosts it starts).
final class BrowserSession {
    let site: FixtureSite
    let bus: PrivateBus
    let home: DesktopHome
    let dataFolder: String

    init() throws {
        site = try FixtureSite()
        // Whatever the host and query: the browsers ask for the site's real host names.
        site.serveOthers { target in
            let path = String(target.prefix { $0 != "?" })
            return Self.pages[path].map { .content(body: Array($0.utf8), contentType: "text/html; charset=utf-8") }
        }
        bus = try PrivateBus()
        home = try DesktopHome()
        dataFolder = home.root.path + "/data"
        try FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
    }

    deinit { stop() }

    func stop() {
        site.stop()
        bus.stop()
    }

    var environment: [String: String] {
        var environment = home.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["DBMULTIVERSE_DATA_DIR"] = dataFolder
        return environment
    }

    /// What the host stored (nothing, in this build).
    func storedFiles() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dataFolder) }

    /// The pages served (by path, whatever the host): two comic pages, the chapter list (a page of
    /// the site that is not a comic page) and a page for another host.
    static let pages = [
        "/en/page-42.html": page("Dragon Ball Multiverse — page 42", "Page 42 (fixture)"),
        "/fr/page-3.html": page("Dragon Ball Multiverse — page 3 (fr)", "Page 3 (fixture)"),
        "/en/chapters.html": page("Dragon Ball Multiverse — chapters", "Chapter list (fixture)"),
        "/en/page-7.html": page("Another site — page 7", "Not the comic's site"),
    ]

    /// Plain HTML worth a screenshot.
    static func page(_ title: String, _ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
        <style>
          body { font-family: sans-serif; background: #1d2b53; color: #fff1e8; margin: 40px; }
          h1 { color: #ffa300; }
          .panel { background: #fff1e8; color: #1d2b53; border: 6px solid #ff004d; height: 260px;
                   display: flex; align-items: center; justify-content: center; font-size: 56px; }
        </style></head>
        <body><h1>\(title)</h1><div class="panel">\(body)</div>
        <p>Served by the test's fixture site; the browser reaches it under the site's host names.</p></body></html>
        """
    }
}
