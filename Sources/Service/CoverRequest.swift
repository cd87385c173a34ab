import ComicDomain
import DBus
import EventLoop
import Glibc

/// The cover of another chapter, asked of the program that read its page (`UpdatePage`'s
/// `cover_channel`, docs/dbus-api.md): the service decides that the page is another chapter's and
/// says so on the channel, one byte, before it replies — `1` "send its cover", `0` "none needed" —
/// then reads the cover the caller writes (JPEG or PNG, at most `Limits.maxCoverBytes`) until the
/// caller closes its end, driven by the loop. A caller that sends nothing within `deadline`, or
/// too much, is given up on; the chapter stays stored without a cover.
final class CoverRequest {
    /// How long the caller has to send the cover: two polite requests to the site (its first
    /// page, then the image), each with the site code's own time limit.
    static let deadline: Int64 = 90 * 1_000_000_000

    /// The chapter whose cover is asked for.
    let chapter: ChapterID
    private let channel: UnixFD
    private var bytes: [UInt8] = []
    private var source: EventLoop.IOSource?
    private var timer: EventLoop.Timer?
    private var finished: ((Result<[UInt8], ComicError>) -> Void)?

    /// Answers the caller on `channel`: `wanted` (`1`) or not (`0`, and the channel is done with).
    /// - Returns: the request, reading the cover, when `wanted` and the answer could be written.
    static func answer(_ channel: UnixFD, wanted: Bool, chapter: ChapterID) -> CoverRequest? {
        var byte: UInt8 = wanted ? 0x31 : 0x30
        guard send(channel.fd, &byte, 1, Int32(MSG_NOSIGNAL)) == 1, wanted else { return nil }
        return CoverRequest(channel: channel, chapter: chapter)
    }

    private init(channel: UnixFD, chapter: ChapterID) {
        self.channel = channel
        self.chapter = chapter
    }

    /// Reads the cover on `loop`; `finished` gets its bytes (empty: the caller had none) or why not.
    func start(on loop: EventLoop, finished: @escaping (Result<[UInt8], ComicError>) -> Void) {
        self.finished = finished
        let flags = fcntl(channel.fd, F_GETFL)
        guard flags >= 0, fcntl(channel.fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            return finish(.failure(ComicError(.storageFailed, "cannot read the cover channel: \(Posix.describe(errno))")))
        }
        do {
            source = try loop.watch(fd: channel.fd, events: [.readable]) { [unowned self] _ in readable() }
        } catch {
            return finish(.failure(ComicError(.storageFailed, "cannot watch the cover channel: \(error)")))
        }
        timer = loop.schedule(at: EventLoop.now() + Self.deadline) { [unowned self] in
            finish(.failure(ComicError(.storageFailed, "no cover within \(Self.deadline / 1_000_000_000) s")))
        }
    }

    /// Stops reading; `finished` is not called.
    func cancel() {
        finished = nil
        source?.cancel()
        timer?.cancel()
        (source, timer) = (nil, nil)
    }

    private func readable() {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            switch Posix.readSome(channel.fd, into: &chunk) {
            case .success(0):
                return finish(.success(bytes))
            case .success(let count):
                bytes += chunk[..<count]
                guard bytes.count <= Limits.maxCoverBytes else {
                    return finish(.failure(ComicError(.coverRejected, "the cover sent is over \(Limits.maxCoverBytes) bytes")))
                }
            case .failure(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK:
                return
            case .failure(let error):
                return finish(.failure(ComicError(.storageFailed, "cannot read the cover channel: \(error.text)")))
            }
        }
    }

    private func finish(_ result: Result<[UInt8], ComicError>) {
        let finished = self.finished
        cancel()
        finished?(result)
    }
}
