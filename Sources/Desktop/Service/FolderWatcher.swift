internal import CLinuxEvents
public import DBus
internal import Glibc

/// Watches one folder with inotify, on the event loop, and reports the names of files that were
/// written, moved in, or removed there (an atomic rename shows up as a move in).
public final class FolderWatcher {
    private let fd: Int32
    private var source: EventLoop.IOSource?

    /// `changed` receives the file names touched in one batch of events (deduplicated).
    public init(path: String, loop: EventLoop, changed: @escaping (Set<String>) -> Void) throws(DBusError) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw DBusError.failed("inotify_init1: \(String(cString: strerror(errno)))") }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB)
        guard inotify_add_watch(fd, path, mask) >= 0 else {
            let reason = String(cString: strerror(errno))
            _ = close(fd)
            throw DBusError.failed("cannot watch \(path): \(reason)")
        }
        source = loop.watch(fd: fd, events: .readable) { [fd] _ in
            changed(Self.drain(fd))
        }
    }

    deinit {
        source?.cancel()
        _ = close(fd)
    }

    /// Reads every queued event and collects the file names.
    private static func drain(_ fd: Int32) -> Set<String> {
        var names = Set<String>()
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let headerSize = MemoryLayout<inotify_event>.size
                while offset + headerSize <= count {
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = offset + headerSize
                    let nameEnd = min(nameStart + length, count)
                    if length > 0 {
                        let raw = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
                        names.insert(String(decoding: raw, as: UTF8.self))
                    }
                    offset = nameStart + length
                }
            }
        }
        return names
    }
}
