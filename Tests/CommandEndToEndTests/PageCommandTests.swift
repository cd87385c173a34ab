import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Widget
import Foundation
import SiteTestSupport
import Testing
import TestingTraits

/// `dbmultiverse update --page` and the reading position end to end (docs/usage.md, docs/usage.md#the-comics-site, docs/notifications.md): the
/// built binary as the command and as the service (started by D-Bus activation on a private bus),
/// the fixture site, and the stock clients. Timing (the 2 s debounce) is the real clock's here;
/// `ReadingPositionTests` checks it to the millisecond with a manual one.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool, .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct PageCommandTests {
    @Test func updatePageMovesTheBusChapterChangeThenOneDebouncedProgressChange() async throws {
        let setup = try await PageSession()
        let first = try setup.cli("update", "--page", "130")
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first)")
        #expect(first.stdout == "en page 130: Chapter 5: The Tournament Goes On, 8% (another chapter, with its cover)\n")
        var reload = try await setup.nextReload("the chapter-change")
        #expect(reload.reason == "chapter-change")
        try expectEntry(reload.entry, chapter: 5, name: "The Tournament Goes On", progress: 8,
                        imagePath: setup.service.folder + "/chapterCoverImage.jpg", latestPage: 152, newPages: 22)
        #expect(try setup.property("Chapter", "Progress", "LatestPage", "NewPages") == "i 5\ni 8\ni 152\ni 22\n")

        let next = try setup.cli("update", "--page", "140")
        #expect(next.stdout == "en page 140: Chapter 5: The Tournament Goes On, 50% (same chapter)\n", "\(next)")
        reload = try await setup.nextReload("the progress-change, 2 s later")
        #expect(reload.reason == "progress-change", "one debounced reload, not the immediate requested")
        try expectEntry(reload.entry, chapter: 5, name: "The Tournament Goes On", progress: 50,
                        imagePath: setup.service.folder + "/chapterCoverImage.jpg", latestPage: 152, newPages: 12)

        // A special's page: its universe and the page link, on the bus and in every format.
        let special = try setup.cli("update", "--page", "101")
        #expect(special.stdout == "en page 101: Special Universe 3 · Chapter 1: The Special Begins, 50% (another chapter, with its cover)\n",
                "\(special)")
        reload = try await setup.nextReload("the special's chapter-change")
        #expect(reload.reason == "chapter-change")
        try expectEntry(reload.entry, chapter: 1, name: "The Special Begins", progress: 50,
                        imagePath: setup.service.folder + "/chapterCoverImage.jpg", universe: 3, latestPage: 152,
                        deepLink: "dbmultiverse://page/101")
        #expect(try setup.property("Chapter", "DeepLink", "NewPages") == "i 1\ns \"dbmultiverse://page/101\"\ni 0\n")
        let json = try setup.cli("entry", "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        #expect(object["deep-link"] as? String == "dbmultiverse://page/101" && object["universe"] as? Int == 3
                    && object["latest-page"] as? Int == 152 && object["new-pages"] as? Int == 0 && object["next-chapter"] as? Int == 0
                    && object["first-unread-page"] as? Int == 0 && object["next-chapter-name"] as? String == ""
                    && object["title"] as? String == "Special Universe 3 · Chapter 1", "\(json)")
        #expect(try jsonObject(at: setup.service.folder + "/currentChapterData.json")["universe"] as? Int == 3)
    }

    @Test func pagesPublishedThenSyncIsPagesPublishedWithTheCounts() async throws {
        let setup = try await PageSession()
        #expect(try setup.cli("update", "--page", "140").status == 0)
        _ = try await setup.nextReload("the chapter-change")

        setup.site.publish(FixtureComic.small.publishing(3))
        let sync = try setup.cli("sync")
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.stdout == "en: 8 chapters, pages 1–152, latest page 155 (3 new pages)\n", "the list was asked minutes ago: \(sync)")
        var reload = try await setup.nextReload("pages-published")
        #expect(reload.reason == "pages-published")
        try expectEntry(reload.entry, chapter: 5, name: "The Tournament Goes On", progress: 50,
                        imagePath: setup.service.folder + "/chapterCoverImage.jpg", latestPage: 155, newPages: 15)
        #expect(try setup.property("LatestPage", "NewPages") == "i 155\ni 15\n")
        #expect(try setup.cli("entry", "--family", "small").stdout == "Ch. 5 · 50% · 15 new\n")
        #expect(try setup.cli("entry", "--format", "waybar", "--family", "small").stdout
                == #"{"text":"Ch. 5 · 50% · 15 new","tooltip":"Chapter 5: The Tournament Goes On — 50% read","class":"new-pages","percentage":50}"# + "\n")

        // The site rolls back to page 138, before the reader's: no publication, no negative count,
        // and the latest page is the reader's (page 140 was published: it was read).
        try storeCatalogue(of: FixtureComic.small.rolledBack(to: 138), in: setup.service.folder)
        reload = try await setup.nextReload("the rollback's reload")
        #expect(reload.reason == "requested")
        try expectEntry(reload.entry, chapter: 5, name: "The Tournament Goes On", progress: 50,
                        imagePath: setup.service.folder + "/chapterCoverImage.jpg", latestPage: 140, newPages: 0)
        #expect(try setup.cli("entry", "--format", "waybar").stdout.contains(#""class":"reading""#))
    }

    @Test func badUsageExitsTwoAndFailuresExitOneChangingNothing() async throws {
        let setup = try await PageSession()
        #expect(try setup.cli("update", "--page", "140").status == 0)
        _ = try await setup.nextReload("the chapter-change")
        let before = try setup.storedFiles()
        let entryBefore = try setup.busctl("call", PageSession.dest, PageSession.path, PageSession.widget, "GetCurrentEntry").stdout
        #expect(entryBefore.hasPrefix("a{sv} 25 "), "\(entryBefore)")

        let usage: [([String], [String])] = [
            (["update", "--page", "0"], ["page 0 is out of range 1…99999"]),
            (["update", "--page", "100000"], ["page 100000 is out of range 1…99999"]),
            (["update", "--page", "130", "--language", "xx"], ["unknown site language \"xx\"", "en fr it"]),
            (["update", "--page", "130", "--cover", "/etc/hostname"], ["--cover goes with --chapter"]),
            (["update", "--chapter", "5", "--page", "130"], ["missing --name, --progress"]),
            (["update"], ["give --page N"]),
        ]
        for (arguments, texts) in usage {
            let result = try runCommand([Binary.dbmultiverse] + arguments, environment: setup.environment)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(arguments): \(result)")
            for text in texts { #expect(result.stderr.contains(text), "\(arguments): \(result.stderr)") }
        }
        let missing = try setup.cli("update", "--page", "5000")
        #expect(missing.status == 1 && missing.stderr == "dbmultiverse: no chapter of the en catalogue holds page 5000 (its chapters hold pages 1–152)\n",
                "\(missing)")
        setup.environment["DBMULTIVERSE_SITE_URL"] = "http://127.0.0.1:\(try FixtureSite.closedPort())"
        let down = try setup.cli("update", "--page", "5000")
        #expect(down.status == 1 && down.stderr.hasPrefix("dbmultiverse: ") && down.stderr.contains("cannot reach the site"), "\(down)")
        #expect(down.stderr.split(separator: "\n").count == 1)

        #expect(try setup.storedFiles() == before, "storage byte for byte")
        #expect(try setup.busctl("call", PageSession.dest, PageSession.path, PageSession.widget, "GetCurrentEntry").stdout == entryBefore, "the service's entry")
    }

    /// Every new error through the stock clients (gdbus prints the error's name, busctl its
    /// message), with storage left byte for byte as it was.
    @Test func theNewErrorsThroughTheStockClients() async throws {
        let setup = try await PageSession()
        #expect(try setup.cli("update", "--page", "140").status == 0)
        _ = try await setup.nextReload("the chapter-change")
        let before = try setup.storedFiles()
        // gdbus converts messages to the locale's charset: in a UTF-8 one, as the bus carries them
        // (under LC_ALL=POSIX the range's "…" would come out escaped).
        func gdbus(_ method: String, _ arguments: String...) throws -> CommandResult {
            try runCommand(["gdbus", "call", "--session", "--dest", PageSession.dest, "--object-path", PageSession.path, "--method", method] + arguments,
                           environment: setup.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 })
        }
        let rejected: [(CommandResult, [String])] = [
            (try gdbus("\(PageSession.widget).UpdatePage", "0", "en", "5", "Five", "8", "[]", "{}"),
             ["com.nobadi.DBMultiverse.Error.InvalidPage", "page 0 is out of range 1…99999"]),
            (try gdbus("\(PageSession.widget).UpdatePage", "130", "xx", "5", "Five", "8", "[]", "{}"),
             ["com.nobadi.DBMultiverse.Error.InvalidLanguage", "unknown site language"]),
            (try gdbus("\(PageSession.widget).UpdatePage", "130", "en", "5", "Five", "8", "[]", "{'universe': <'3'>}"),
             ["org.freedesktop.DBus.Error.InvalidArgs", "universe"]),
            (try gdbus("org.freedesktop.Application.ActivateAction", "open-page", "[<int32 0>]", "{}"),
             ["com.nobadi.DBMultiverse.Error.InvalidPage"]),
            (try gdbus("org.freedesktop.Application.Open", "['dbmultiverse://page/0']", "{}"),
             ["com.nobadi.DBMultiverse.Error.InvalidDeepLink", "dbmultiverse://page/0"]),
            (try setup.busctl("call", PageSession.dest, PageSession.path, PageSession.widget, "UpdatePage", "isisiaya{sv}", "130", "xx", "5", "Five", "8", "0", "0"),
             ["Call failed: unknown site language \"xx\""]),
            (try setup.busctl("call", PageSession.dest, PageSession.path, PageSession.widget, "UpdatePage", "isisiaya{sv}", "100000", "en", "5", "Five", "8", "0", "0"),
             ["Call failed: page 100000 is out of range 1…99999"]),
            (try setup.busctl("call", "--", PageSession.dest, PageSession.path, PageSession.widget, "UpdatePage", "isisiaya{sv}", "130", "en", "5", "Five", "8",
                              "0", "1", "universe", "i", "-2"),
             ["Call failed: universe -2 is out of range 0…99999"]),
        ]
        for (result, texts) in rejected {
            #expect(result.status != 0 && result.stdout.isEmpty, "\(result)")
            for text in texts { #expect(result.stderr.contains(text), "\(result.stderr)") }
        }
        #expect(try setup.storedFiles() == before, "storage byte for byte")

        // And a good call with busctl, which can write the a{sv}: a special's page.
        let good = try setup.busctl("call", PageSession.dest, PageSession.path, PageSession.widget, "UpdatePage", "isisiaya{sv}",
                                    "101", "en", "1", "The Special Begins", "50", "0", "1", "universe", "i", "3")
        #expect(good.status == 0 && good.stdout.isEmpty, "\(good)")
        #expect(try setup.property("Chapter", "DeepLink") == "i 1\ns \"dbmultiverse://page/101\"\n")
    }
}
