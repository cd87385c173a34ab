import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// `dbmultiverse activate [ACTION [NUMBER]]`: the application's actions from the command line, as
/// the Plasma card's buttons run them — the installed binary, a service started by bus activation,
/// the fake browser (DeepLinkDesktopTests' session).
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct ActivateCommandTests {
    @Test func eachActionOpensWhatTheTrayMenuOpens() async throws {
        let session = try await DesktopLinkSession.start()
        defer { session.stop() }
        let update = try session.dbmultiverse(["update", "--chapter", "42", "--name", "X", "--progress", "10", "--page", "980"])
        #expect(update.status == 0, "\(update)")

        var environment = session.environment
        environment["XDG_ACTIVATION_TOKEN"] = "tok-42"
        let current = try runCommand([session.home.prefix + "/bin/dbmultiverse", "activate", "open-current"], environment: environment)
        #expect(current.status == 0 && current.stdout.isEmpty && current.stderr.isEmpty, "\(current)")
        #expect(try session.browser.next() == BrowserLaunch(arguments: ["https://www.dragonball-multiverse.com/en/page-980.html"],
                                                            activationToken: "tok-42"))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 42, uri: "dbmultiverse://chapter/42"))

        environment["XDG_ACTIVATION_TOKEN"] = nil
        environment["DESKTOP_STARTUP_ID"] = "id-7"
        let chapter = try runCommand([session.home.prefix + "/bin/dbmultiverse", "activate", "open-chapter", "43"], environment: environment)
        #expect(chapter.status == 0, "\(chapter)")
        #expect(try session.browser.next() == BrowserLaunch(arguments: [DeepLinkDesktopTests.chapterList], startupID: "id-7"))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 43, uri: "dbmultiverse://chapter/43"))

        #expect(try session.dbmultiverse(["activate", "open-page", "981"]).status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: ["https://www.dragonball-multiverse.com/en/page-981.html"]))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 0, uri: "dbmultiverse://page/981"))

        #expect(try session.dbmultiverse(["activate", "open-chapter-list"]).status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: [DeepLinkDesktopTests.chapterList]))

        // No action: Activate, the chapter being read.
        #expect(try session.dbmultiverse(["activate"]).status == 0)
        #expect(try session.browser.next() == BrowserLaunch(arguments: ["https://www.dragonball-multiverse.com/en/page-980.html"]))
        #expect(try await session.nextOpenRequested() == OpenRequest(chapter: 42, uri: "dbmultiverse://chapter/42"))
    }

    @Test func badUsageExitsTwoAndOpensNothing() async throws {
        let session = try await DesktopLinkSession.start()
        defer { session.stop() }
        let cases: [([String], String)] = [
            (["bogus"], "unknown action 'bogus'"),
            (["open-chapter"], "open-chapter needs a chapter number"),
            (["open-page"], "open-page needs a page number"),
            (["open-chapter", "0"], "chapter 0 is out of range 1…99999"),
            (["open-page", "100000"], "page 100000 is out of range 1…99999"),
            (["open-chapter", "x"], "x"),
            (["open-current", "3"], "open-current takes no number"),
            (["open-chapter-list", "1"], "open-chapter-list takes no number"),
            (["open-chapter", "1", "2"], "2"),
        ]
        for (arguments, message) in cases {
            let run = try session.dbmultiverse(["activate"] + arguments)
            #expect(run.status == 2 && run.stdout.isEmpty, "\(arguments): \(run)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        // Nothing reached the bus: the service was never started.
        await #expect(throws: (any Error).self, "no service runs") { try await session.serviceExecutable() }
    }
}
