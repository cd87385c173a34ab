package import DBusTestSupport
package import DesktopTestSupport
import Foundation
package import SiteTestSupport

/// What the end-to-end tests run a browser in: the comic's site on the fixture server (the small
/// comic, whose catalogue the host fetches through `$DBMULTIVERSE_SITE_URL`), a private bus that
/// activates the real service (never the developer's session bus), a temporary home, and the
/// environment the browser gets (and passes on to the native messaging hosts it starts).
package final class BrowserSession {
    package let site: FixtureSite
    package let service: ActivatedService
    package let home: DesktopHome

    package init() throws {
        site = try FixtureSite()
        site.publish(.small)
        // Whatever the host: the browsers ask for the site's real host names. These routes come
        // before the comic's own pages.
        for (path, html) in Self.pages {
            site.serve(path, .content(body: Array(html.utf8), contentType: "text/html; charset=utf-8"))
        }
        service = try ActivatedService()
        home = try DesktopHome()
    }

    deinit { stop() }

    package func stop() {
        site.stop()
        service.stop()
    }

    package var bus: PrivateBus { service.bus }
    package var dataFolder: String { service.folder }

    package var environment: [String: String] {
        var environment = home.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["DBMULTIVERSE_DATA_DIR"] = dataFolder
        environment["DBMULTIVERSE_SITE_URL"] = site.origin
        return environment
    }

    /// What was stored, file by file (the site's request log aside: it records every attempt).
    package func storedFiles() throws -> [String: String] { try DesktopTestSupport.storedFiles(in: dataFolder) }

    /// The service's properties, as `busctl get-property` prints them.
    package func property(_ names: String...) throws -> String {
        let result = try runCommand(["busctl", "--address=\(bus.address)", "get-property", PageSession.dest,
                                     PageSession.path, PageSession.widget] + names, environment: environment)
        guard result.status == 0 else { throw FixtureError("busctl get-property: \(result)") }
        return result.stdout
    }

    /// The pages the browsers visit, served in place of the small comic's plain ones (by path,
    /// whatever the host): two pages of chapter 5, the chapter list (a page of the site that is not
    /// a comic page) and a page for another host.
    package static let pages = [
        "/en/page-130.html": page("Dragon Ball Multiverse — page 130", "Chapter 5 · page 130 (fixture)"),
        "/en/page-140.html": page("Dragon Ball Multiverse — page 140", "Chapter 5 · page 140 (fixture)"),
        "/en/chapters.html": page("Dragon Ball Multiverse — chapters", "Chapter list (fixture)"),
        "/en/page-7.html": page("Another site — page 7", "Not the comic's site"),
    ]

    /// Plain HTML worth a screenshot.
    package static func page(_ title: String, _ body: String) -> String {
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
