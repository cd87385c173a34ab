import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Recorder
import Foundation
import SiteTestSupport
import Testing
import TestingTraits

/// The native messaging host storing pages (docs/browser-extension.md, "Storing"): the built binary started with
/// the browsers' exact arguments, framed messages through pipes, the service started by D-Bus
/// activation on a private bus, the fixture site's small comic. Each reply is checked field by
/// field and in its exact text; the bus shows what was stored.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool, .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct BrowserHostStoringTests {
    static func frame(_ text: String) -> [UInt8] { NativeMessageFraming.frame(Array(text.utf8)) }

    static func pageRequest(_ setup: PageSession, _ page: Int, _ language: String = "en") -> [UInt8] {
        frame(#"{"type":"page","url":"\#(setup.site.origin)/\#(language)/page-\#(page).html"}"#)
    }

    /// Checks `reply` is `{"ok":true,"chapter":…,"name":…,"progress":…,"page":…,"language":…}`,
    /// read with Foundation's parser (not the host's writer), with exactly those members in that order.
    static func expectStored(_ reply: [UInt8], chapter: Int, name: String, progress: Int, page: Int, language: String = "en",
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = String(decoding: reply, as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any], "\(text)", sourceLocation: sourceLocation)
        #expect(Set(object.keys) == ["ok", "chapter", "name", "progress", "page", "language"], "\(text)", sourceLocation: sourceLocation)
        #expect(object["ok"] as? Bool == true, "\(text)", sourceLocation: sourceLocation)
        #expect(object["chapter"] as? Int == chapter, "\(text)", sourceLocation: sourceLocation)
        #expect(object["name"] as? String == name, "\(text)", sourceLocation: sourceLocation)
        #expect(object["progress"] as? Int == progress, "\(text)", sourceLocation: sourceLocation)
        #expect(object["page"] as? Int == page, "\(text)", sourceLocation: sourceLocation)
        #expect(object["language"] as? String == language, "\(text)", sourceLocation: sourceLocation)
        let order = ["\"ok\"", "\"chapter\"", "\"name\"", "\"progress\"", "\"page\"", "\"language\""].map { text.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(text)",
                sourceLocation: sourceLocation)
    }

    @Test func chromiumsPageOfAnotherChapterThenFirefoxsPageOfTheSameOne() async throws {
        let setup = try await PageSession()
        let first = try HostProcess.run(arguments: HostProcess.chromiumArguments, input: Self.pageRequest(setup, 130),
                                        environment: setup.environment, timeout: 30)
        #expect(first.status == 0 && first.unframed.isEmpty, "\(first)")
        #expect(first.replyTexts == [#"{"ok":true,"chapter":5,"name":"The Tournament Goes On","progress":8,"page":130,"language":"en"}"#],
                "\(first)")
        if let reply = first.replies.first { try Self.expectStored(reply, chapter: 5, name: "The Tournament Goes On", progress: 8, page: 130) }
        #expect(first.stderr.contains("en page 130: chapter 5, 8%"), "\(first)")
        var reload = try await setup.nextReload("the chapter-change")
        #expect(reload.reason == "chapter-change")
        try expectEntry(reload.entry, chapter: 5, name: "The Tournament Goes On", progress: 8,
                        imagePath: setup.service.folder + "/chapterCoverImage.jpg", latestPage: 152, newPages: 22)
        #expect(try setup.property("Chapter", "Progress") == "i 5\ni 8\n")

        let manifest = setup.service.folder + "/com.nobadi.dbmultiverse.json"
        let next = try HostProcess.run(arguments: HostProcess.firefoxArguments(manifest: manifest), input: Self.pageRequest(setup, 140),
                                       environment: setup.environment, timeout: 30)
        #expect(next.status == 0 && next.unframed.isEmpty, "\(next)")
        #expect(next.replyTexts == [#"{"ok":true,"chapter":5,"name":"The Tournament Goes On","progress":50,"page":140,"language":"en"}"#],
                "\(next)")
        reload = try await setup.nextReload("the debounced progress-change")
        #expect(reload.reason == "progress-change", "the progress rule, not the immediate requested reload")
        #expect(try setup.property("Chapter", "Progress") == "i 5\ni 50\n")
    }

    /// One stream, as a host kept open would get it: a special's page, a chapter whose name needs
    /// escaping in JSON, a page no chapter holds (refused, nothing stored), then a Japanese name.
    @Test func oneStreamOfPagesGetsOneExactReplyEach() async throws {
        let setup = try await PageSession()
        let input = Self.pageRequest(setup, 101) + Self.pageRequest(setup, 30) + Self.pageRequest(setup, 5000) + Self.pageRequest(setup, 96)
        let result = try HostProcess.run(arguments: HostProcess.chromiumArguments, input: input, environment: setup.environment, timeout: 60)
        #expect(result.status == 0 && result.unframed.isEmpty && result.replies.count == 4, "\(result)")
        guard result.replies.count == 4 else { return }
        try Self.expectStored(result.replies[0], chapter: 1, name: "The Special Begins", progress: 50, page: 101)
        try Self.expectStored(result.replies[1], chapter: 2, name: "Vegeta & <Goku>", progress: 25, page: 30)
        try BrowserHostProcessTests.expectRefusal(
            result.replies[2], "en page 5000 was not stored: no chapter of the en catalogue holds page 5000 (its chapters hold pages 1–152)")
        try Self.expectStored(result.replies[3], chapter: 4, name: "超サイヤ人の戦い", progress: 100, page: 96)
        #expect(result.replyTexts[3] == #"{"ok":true,"chapter":4,"name":"超サイヤ人の戦い","progress":100,"page":96,"language":"en"}"#)
        // The last page stored is the bus's position.
        var reasons: [String] = []
        while reasons.count < 3 { reasons.append(try await setup.nextReload("reload \(reasons.count + 1)").reason) }
        #expect(reasons == ["chapter-change", "chapter-change", "chapter-change"])
        #expect(try setup.property("Chapter", "Progress") == "i 4\ni 100\n")
    }

    /// A page of the site the catalogue does not hold, after one was stored: refused with the
    /// site's reason, and nothing the service stored changes.
    @Test func aPageNoChapterHoldsIsRefusedAndChangesNothing() async throws {
        let setup = try await PageSession()
        let first = try HostProcess.run(arguments: HostProcess.chromiumArguments, input: Self.pageRequest(setup, 140),
                                        environment: setup.environment, timeout: 30)
        #expect(first.replies.count == 1, "\(first)")
        _ = try await setup.nextReload("the chapter-change")
        let before = try setup.storedFiles()
        let refused = try HostProcess.run(arguments: HostProcess.chromiumArguments, input: Self.pageRequest(setup, 153),
                                          environment: setup.environment, timeout: 30)
        #expect(refused.status == 0 && refused.replies.count == 1, "\(refused)")
        if let reply = refused.replies.first {
            try BrowserHostProcessTests.expectRefusal(
                reply, "en page 153 was not stored: no chapter of the en catalogue holds page 153 (its chapters hold pages 1–152)")
        }
        #expect(try setup.storedFiles() == before)
        #expect(try setup.property("Chapter", "Progress") == "i 5\ni 50\n")
    }
}
