import Glibc

/// Which file a path names, cheaply: its device, inode, size and change time. A file put in its
/// place (an atomic rewrite renames a new inode over it) or rewritten in place reads as another
/// identity; an untouched file keeps its identity, across restarts too.
package struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    package let device: UInt64
    package let inode: UInt64
    package let size: Int64
    let changedSeconds: Int
    let changedNanoseconds: Int

    /// The identity of the file at `path` (symlinks followed), or nil when there is none.
    package init?(path: String) {
        guard !path.isEmpty, case .success(let status) = Posix.pathStatus(path) else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        changedSeconds = status.st_ctim.tv_sec
        changedNanoseconds = status.st_ctim.tv_nsec
    }

    /// `device:inode:size:seconds.nanoseconds`.
    package var description: String { "\(device):\(inode):\(size):\(changedSeconds).\(changedNanoseconds)" }
}
