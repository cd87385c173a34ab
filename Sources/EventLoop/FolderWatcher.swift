import CLinuxEvents
import Glibc

/// Watches one folder with inotify, on the event loop, and reports the names of files that were
/// written, moved in, or removed there (an atomic rename shows up as a move in), and when the
/// folder itself goes away (removed, moved, or its file system unmounted: the watch ends then).
package final class FolderWatcher {
    /// What one read of queued events found.
    package struct Batch {
        /// The names touched (deduplicated).
        package var names: Set<String> = []
        /// The folder was removed or moved away: no more events will come.
        package var folderGone = false
    }

    private let fd: Int32
    private var source: EventLoop.IOSource?

    /// `includeCreated` also reports names created there (a new folder, which is never written
    /// or moved). `changed` receives each batch of events.
    package init(path: String, loop: EventLoop, includeCreated: Bool = false, changed: @escaping (Batch) -> Void) throws(SystemError) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError.last("inotify_init1") }
        var mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        if includeCreated { mask |= UInt32(IN_CREATE) }
        guard inotify_add_watch(fd, path, mask) >= 0 else {
            // Not closed here: a throwing init of a fully initialised object still runs deinit,
            // which closes it; a second close could hit another thread's new descriptor.
            throw SystemError.last("inotify_add_watch \(path)")
        }
        source = try loop.watch(fd: fd, events: .readable) { [fd] _ in
            changed(Self.drain(fd))
        }
    }

    deinit {
        source?.cancel()
        if fd >= 0 { _ = close(fd) }
    }

    /// Reads every queued event and collects the file names.
    private static func drain(_ fd: Int32) -> Batch {
        var batch = Batch()
        // IN_IGNORED: the watch was removed (the folder is gone or unmounted). A moved folder keeps
        // its watch but no longer is the path we serve.
        let gone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED)
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let headerSize = MemoryLayout<inotify_event>.size
                while offset + headerSize <= count {
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = offset + headerSize
                    let nameEnd = min(nameStart + length, count)
                    if mask & gone != 0 { batch.folderGone = true }
                    if length > 0 {
                        let raw = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
                        batch.names.insert(String(decoding: raw, as: UTF8.self))
                    }
                    offset = nameStart + length
                }
            }
        }
        return batch
    }
}
