import DesktopTestSupport
@testable import ComicDomain
@testable import Recorder
import Foundation
import Glibc
import JSON
import Logging
import Testing

/// The native messaging host's pieces in process (docs/browser-extension.md): the framing codec on byte buffers,
/// request decoding and replies, the browsers' arguments, and a session over pipes with a store
/// that records what reaches it. `BrowserHostProcessTests` runs the same through the built binary.
@Suite(.timeLimit(.minutes(1))) struct NativeMessagingTests {
    // MARK: Framing

    @Test func aFrameIsTheLengthInTheMachinesByteOrderThenThePayload() {
        let frame = NativeMessageFraming.frame(Array("{}".utf8))
        #expect(frame.count == 6)
        #expect(frame.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } == 2)
        #expect(Array(frame.suffix(2)) == Array("{}".utf8))
        #expect(NativeMessageFraming.frame([]) == withUnsafeBytes(of: UInt32(0)) { Array($0) })
    }

    @Test func messagesAreFoundWhateverTheReadsCutThem() throws {
        let messages: [[UInt8]] = [Array("first".utf8), [], Array(repeating: 0x61, count: 70_000 / 2), Array("last".utf8)]
        let stream = messages.flatMap(NativeMessageFraming.frame)
        for chunkSize in [1, 3, 4, 5, 4096, stream.count] {
            var decoder = FrameDecoder()
            var found: [[UInt8]] = []
            var offset = 0
            while offset < stream.count {
                decoder.append(stream[offset..<min(offset + chunkSize, stream.count)])
                offset += chunkSize
                while let message = try decoder.nextMessage() { found.append(message) }
            }
            try decoder.finish()
            #expect(found == messages, "chunks of \(chunkSize)")
        }
    }

    @Test func theLimitIs64KiB() throws {
        var decoder = FrameDecoder()
        decoder.append(NativeMessageFraming.frame(Array(repeating: 0x20, count: NativeMessageFraming.maxMessageBytes)))
        #expect(try decoder.nextMessage()?.count == 65_536)

        // Refused from the length alone: nothing of the message needs to arrive.
        var oversized = FrameDecoder()
        oversized.append(withUnsafeBytes(of: UInt32(65_537)) { Array($0) })
        #expect(throws: FrameError(kind: .oversized(length: 65_537))) { try oversized.nextMessage() }
        var huge = FrameDecoder()
        huge.append([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: FrameError(kind: .oversized(length: UInt32.max))) { try huge.nextMessage() }
        #expect(FrameError(kind: .oversized(length: 65_537)).description
            == "a message of 65537 bytes announced, more than the 65536 the host accepts")
    }

    @Test func aStreamEndingInsideAMessageIsTruncated() throws {
        var insideLength = FrameDecoder()
        insideLength.append([0x05, 0x00])
        #expect(try insideLength.nextMessage() == nil)
        #expect(throws: FrameError(kind: .truncatedLength(received: 2))) { try insideLength.finish() }

        var insideMessage = FrameDecoder()
        insideMessage.append(NativeMessageFraming.frame(Array("complete".utf8)) + NativeMessageFraming.frame(Array("0123456789".utf8)).prefix(7))
        #expect(try insideMessage.nextMessage() == Array("complete".utf8))
        #expect(try insideMessage.nextMessage() == nil)
        #expect(throws: FrameError(kind: .truncatedMessage(announced: 10, received: 3))) { try insideMessage.finish() }
        #expect(FrameError(kind: .truncatedMessage(announced: 10, received: 3)).description
            == "the input ended inside a message: 10 bytes announced, 3 read")

        let empty = FrameDecoder()
        try empty.finish()
    }

    // MARK: Requests and replies

    /// Every way a page URL of the site may be written reaches the store as the same page.
    @Test(arguments: [
        ("https://www.dragonball-multiverse.com/en/page-42.html", "en", 42),
        ("http://www.dragonball-multiverse.com/fr/page-980.html", "fr", 980),
        ("https://dragonball-multiverse.com/pt_BR/page-1.html#pagetop", "pt_BR", 1),
        ("HTTP://WWW.DRAGONBALL-MULTIVERSE.COM/en/page-99999.html?x=1", "en", 99_999),
        ("http://127.0.0.1:8080/es/page-7.html", "es", 7),
    ])
    func aValidPageIsStoredAndAnswered(url: String, language: String, number: Int) throws {
        let store = RecordingStore()
        let host = BrowserHost(origin: .success(try SiteOrigin(parsing: "http://127.0.0.1:8080")), store: store)
        let reply = host.reply(to: Array(#"{"type":"page","url":"\#(url)"}"#.utf8))
        let page = try SitePage(language: SiteLanguage(validating: language), number: number)
        #expect(store.pages == [page])
        #expect(reply == .stored(RecordingStore.position(page)))
    }

    @Test func theRepliesAreTheContractsJSON() throws {
        let page = try SitePage(language: SiteLanguage(validating: "fr"), number: 980)
        let stored = BrowserReply.stored(StoredPosition(chapter: 42, name: #"Vegeta & "Goku""#, progress: 35, page: page))
        #expect(stored.json.jsonText == #"{"ok":true,"chapter":42,"name":"Vegeta & \"Goku\"","progress":35,"page":980,"language":"fr"}"#)
        let refused = BrowserReply.refused(BrowserHostError("line\nbreak"))
        #expect(refused.json.jsonText == #"{"ok":false,"error":"line\nbreak"}"#)
        #expect(refused.frame == NativeMessageFraming.frame(refused.json.serialized()))
    }

    /// What a bad message is answered with, and that none reaches the store (the whole table, as
    /// the binary answers it, is in `BrowserHostProcessTests`).
    @Test(arguments: BadRequest.table)
    func aBadRequestIsRefusedWithoutStoring(_ bad: BadRequest) {
        let store = RecordingStore()
        let reply = BrowserHost(origin: .success(.site), store: store).reply(to: bad.message)
        #expect(reply == .refused(BrowserHostError(bad.error)), "\(bad.name)")
        #expect(store.pages.isEmpty)
    }

    @Test func anUnusableSiteOverrideRefusesEveryPage() throws {
        let store = RecordingStore()
        let origin = Result { () throws(ComicError) in try SiteOrigin.resolve(environment: ["DBMULTIVERSE_SITE_URL": "ftp://mirror"]) }
        let reply = BrowserHost(origin: origin, store: store).reply(to: Array(#"{"type":"page","url":"https://www.dragonball-multiverse.com/en/page-1.html"}"#.utf8))
        #expect(reply == .refused(BrowserHostError(#"invalid site URL "ftp://mirror": the scheme must be http or https; expected http(s)://host[:port]"#)))
        #expect(store.pages.isEmpty)
    }

    @Test func aStoreFailureIsTheReplysError() {
        let store = RecordingStore(failure: BrowserHostError("the service is not running"))
        let reply = BrowserHost(origin: .success(.site), store: store)
            .reply(to: Array(#"{"type":"page","url":"https://www.dragonball-multiverse.com/en/page-3.html"}"#.utf8))
        #expect(reply == .refused(BrowserHostError("the service is not running")))
        #expect(store.pages.count == 1)
    }

    // MARK: The browsers' arguments

    @Test func theBrowsersArgumentsAreRecognisedAndOnlyOurExtensionServed() {
        let chromium = BrowserCaller(arguments: ["chrome-extension://ggedickjhdkhcjapnhgdobjneiagnckh/"])
        #expect(chromium == .chromium(origin: "chrome-extension://ggedickjhdkhcjapnhgdobjneiagnckh/"))
        #expect(chromium?.isOurExtension == true)
        #expect(BrowserCaller(arguments: ["chrome-extension://ggedickjhdkhcjapnhgdobjneiagnckh/", "--parent-window=0"])?.isOurExtension == true)
        #expect(BrowserCaller(arguments: ["chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"])?.isOurExtension == false)

        let firefox = BrowserCaller(arguments: ["/home/u/.mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json", "dbmultiverse@nobadi.com"])
        #expect(firefox == .firefox(manifest: "/home/u/.mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json",
                                    extensionID: "dbmultiverse@nobadi.com"))
        #expect(firefox?.isOurExtension == true)
        #expect(BrowserCaller(arguments: ["/usr/lib/mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json", "other@example.com"])?
            .isOurExtension == false)

        // The CLI's own subcommands are never mistaken for a browser.
        for arguments in [[], ["service"], ["open", "chrome-extension://x/"], ["update", "--page", "3"], ["relative.json", "id"],
                          ["chrome-extension://x/", "extra"], ["/a.json", ""]] {
            #expect(BrowserCaller(arguments: arguments) == nil, "\(arguments)")
        }
    }

    // MARK: A session

    /// Over pipes: each valid page is stored before its reply is written (a host killed between the
    /// two has stored the page), replies come in request order, and the end of input ends it with 0.
    @Test func aSessionStoresFirstThenRepliesAndEndsWithItsInput() throws {
        let input = try HostPipe(), output = try HostPipe()
        let store = RecordingStore(outputProbe: output.readEnd)
        let requests = [
            #"{"type":"page","url":"https://www.dragonball-multiverse.com/en/page-5.html"}"#,
            #"{"type":"ping"}"#,
            #"{"type":"page","url":"https://www.dragonball-multiverse.com/en/page-6.html"}"#,
        ].map { Array($0.utf8) }
        try input.write(requests.flatMap(NativeMessageFraming.frame))
        input.closeWriteEnd()

        let status = BrowserHost(origin: .success(.site), store: store).serve(input: input.readEnd, output: output.writeEnd, logger: .silent)
        output.closeWriteEnd()
        #expect(status == 0)
        let replies = try output.readAllMessages()
        let expected: [BrowserReply] = try [
            .stored(RecordingStore.position(SitePage(language: .english, number: 5))),
            .refused(BrowserHostError(#"unknown request type "ping": the host answers only "page""#)),
            .stored(RecordingStore.position(SitePage(language: .english, number: 6))),
        ]
        #expect(replies == expected.map { $0.json.serialized() })
        // When page 6 was stored, the first two replies were written and its own was not.
        #expect(store.pendingOutputAtStore == [0, Int32(expected[0].frame.count + expected[1].frame.count)])
    }

    @Test func aBrokenFrameEndsTheSessionWith1() throws {
        for (stream, answered) in [(withUnsafeBytes(of: UInt32(70_000)) { Array($0) }, true), ([0x10, 0x00, 0x00, 0x00, 0x7B], false)] {
            let input = try HostPipe(), output = try HostPipe()
            try input.write(stream)
            input.closeWriteEnd()
            let status = BrowserHost(origin: .success(.site), store: RecordingStore()).serve(input: input.readEnd, output: output.writeEnd, logger: .silent)
            output.closeWriteEnd()
            #expect(status == 1)
            // The browser still waits after sending an oversized length, so it gets the reason.
            let expected = answered ? [Array(#"{"ok":false,"error":"a message of 70000 bytes announced, more than the 65536 the host accepts"}"#.utf8)] : []
            #expect(try output.readAllMessages() == expected)
        }
    }
}

/// A store that records the pages it is given and answers a fixed position for each (or fails).
/// Optionally notes how many reply bytes were waiting on the output when it was called.
private final class RecordingStore: PageStore, @unchecked Sendable { // used on one thread per test
    private(set) var pages: [SitePage] = []
    private(set) var pendingOutputAtStore: [Int32] = []
    private let failure: BrowserHostError?
    private let outputProbe: Int32?

    init(failure: BrowserHostError? = nil, outputProbe: Int32? = nil) {
        self.failure = failure
        self.outputProbe = outputProbe
    }

    static func position(_ page: SitePage) -> StoredPosition {
        StoredPosition(chapter: page.number / 100 + 1, name: "Chapter for \(page)", progress: page.number % 101, page: page)
    }

    func store(_ page: SitePage) throws(BrowserHostError) -> StoredPosition {
        pages.append(page)
        if let outputProbe {
            var pending: Int32 = 0
            _ = ioctl(outputProbe, UInt(FIONREAD), &pending)
            pendingOutputAtStore.append(pending)
        }
        if let failure { throw failure }
        return Self.position(page)
    }
}

/// A pipe for an in-process session.
private final class HostPipe {
    let readEnd: Int32
    let writeEnd: Int32
    private var writeOpen = true

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        closeWriteEnd()
    }

    /// Writes `bytes` (less than a pipe's buffer, so the session can read them later).
    func write(_ bytes: [UInt8]) throws {
        guard Glibc.write(writeEnd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    func closeWriteEnd() {
        if writeOpen { close(writeEnd) }
        writeOpen = false
    }

    /// Everything written, cut into messages (the write end must be closed).
    func readAllMessages() throws -> [[UInt8]] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = read(readEnd, &chunk, chunk.count), count > 0 { bytes += chunk[..<count] }
        var decoder = FrameDecoder()
        decoder.append(bytes)
        var messages: [[UInt8]] = []
        while let message = try decoder.nextMessage() { messages.append(message) }
        try decoder.finish()
        return messages
    }
}

extension Logger {
    /// A logger that drops everything, for sessions whose output is checked otherwise.
    static let silent = Logger(label: "test.silent") { _ in SwiftLogNoOpLogHandler() }
}
