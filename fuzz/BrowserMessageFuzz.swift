// libFuzzer target `browsermessage` (scripts/dev/fuzz.sh): what a browser writes to the native
// messaging host's stdin, cut into messages and decoded as requests (Sources/Desktop/BrowserHost).
//
// The first input byte sets the size of the reads the stream arrives in (1…256 bytes); the rest
// is the stream. Invariants, checked with preconditions so libFuzzer reports a violation as a
// crash: nothing traps; the messages found do not depend on how the reads cut the stream; none
// is over the limit; a stream that broke did so at a length over the limit; an accepted request
// is a page in range whose URL on the site reads back as the same page; every reply, accepted or
// refused, is one frame holding a JSON object with "ok".

@testable import ComicDomain
import JSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let stream = Array(bytes.dropFirst())
    let chunked = readMessages(stream, readSize: Int(first) + 1)
    let whole = readMessages(stream, readSize: max(stream.count, 1))
    precondition(chunked.messages == whole.messages && chunked.broken == whole.broken, "the reads' sizes changed the messages")
    precondition(chunked.messages.reduce(0) { $0 + 4 + $1.count } <= stream.count, "more bytes in messages than in the stream")
    if let broken = chunked.broken {
        guard case .oversized(let length) = broken.kind, length > NativeMessageFraming.maxMessageBytes else {
            preconditionFailure("broke on \(broken) before the end of the stream")
        }
    }
    let origin = (try? SiteOrigin(parsing: "http://127.0.0.1:8080")) ?? .site
    for message in chunked.messages {
        precondition(message.count <= NativeMessageFraming.maxMessageBytes, "a message of \(message.count) bytes")
        let reply: BrowserReply
        do {
            switch try BrowserRequest(message: message, origin: origin) {
            case .page(let page):
                precondition(Limits.pages.contains(page.number), "page \(page.number) accepted")
                precondition((try? SitePage(url: SiteOrigin.site.url(path: page.path))) == page, "\(page) does not read back")
                reply = .stored(StoredPosition(chapter: 1, name: "n", progress: 0, page: page))
            }
        } catch {
            precondition(!error.message.isEmpty, "a refusal without a reason")
            reply = .refused(error)
        }
        var decoder = FrameDecoder()
        decoder.append(reply.frame)
        guard let replied = try? decoder.nextMessage(), (try? decoder.nextMessage()) == nil, (try? decoder.finish()) != nil,
              let json = try? JSONValue.parse(replied), case .bool = json["ok"] else {
            preconditionFailure("the reply is not one frame holding a JSON object with \"ok\"")
        }
    }
    return 0
}

/// The messages of `stream` as a host reading it `readSize` bytes at a time finds them, and the
/// framing error that stopped it, if any.
func readMessages(_ stream: [UInt8], readSize: Int) -> (messages: [[UInt8]], broken: FrameError?) {
    var decoder = FrameDecoder()
    var messages: [[UInt8]] = []
    var offset = 0
    while offset < stream.count {
        decoder.append(stream[offset..<min(offset + readSize, stream.count)])
        offset += readSize
        do {
            while let message = try decoder.nextMessage() { messages.append(message) }
        } catch {
            return (messages, error)
        }
    }
    return (messages, nil)
}
