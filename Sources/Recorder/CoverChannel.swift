import ComicDomain
import DBus
import Glibc

/// The caller's end of `UpdatePage`'s `cover_channel` (docs/dbus-api.md): a stream socket pair
/// whose other end goes with the call. The service decides whether the page is another chapter's
/// and answers on it, before its reply, whether it wants that chapter's cover; then the cover is
/// written here and the channel closed.
final class CoverChannel {
    /// The end the call carries (the message holds its own duplicate).
    let serviceEnd: UnixFD
    private let ownEnd: Int32

    /// - Throws: why no socket pair could be made.
    init() throws(DBusError) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw DBusError.failed("cannot make the cover channel: \(Posix.describe(errno))")
        }
        serviceEnd = UnixFD(owning: ends[1])
        ownEnd = ends[0]
    }

    deinit { close(ownEnd) }

    /// Whether the service asked for the cover, once its reply is in (the answer came before it):
    /// `1` yes, `0` or nothing (a service that does not know the channel) no.
    func coverWanted() -> Bool {
        var byte: UInt8 = 0
        return recv(ownEnd, &byte, 1, Int32(MSG_DONTWAIT)) == 1 && byte == 0x31
    }

    /// Writes `cover` to the service, which stores it when its end reads the end of it.
    /// - Returns: false when the service went away before it had it all.
    func send(_ cover: [UInt8]) -> Bool {
        var sent = 0
        while sent < cover.count {
            let count = cover.withUnsafeBytes { Glibc.send(ownEnd, $0.baseAddress! + sent, cover.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}
