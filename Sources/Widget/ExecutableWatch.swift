package import EventLoop
import Glibc

/// Watches the file a long-running process was started from (docs/install.md, "Upgrades"): dpkg
/// replaces it at an upgrade (it renames the new file over it) and deletes it at a removal, while
/// the old process would go on running the old code until logout. Told so, the service ends (the
/// bus starts the installed one at the next call) and the notifier runs itself again.
///
/// The watch is on the executable's folder (inotify on the loop: no wake-up while nothing changes
/// there), and only events naming the executable lead to a look at it: the other files of that
/// folder change as they like. The file is compared with the running one by device and inode: a
/// file that is still the running one (touched, its mode changed) is no change. A file that is
/// gone is given `removalGrace` to come back (`make install` unlinks before it writes); a new file
/// counts once it is executable.
package final class ExecutableWatch {
    package enum Change: Sendable, Equatable {
        /// Another executable file is at the path now (its path).
        case replaced(String)
        /// Nothing is at the path (it was).
        case removed(String)
    }

    /// How long a removed executable is waited for before the removal counts.
    static let removalGrace: Int64 = 2_000_000_000

    private let path: String
    private let name: String
    private let running: (device: UInt64, inode: UInt64)
    private var watcher: FolderWatcher?
    private var grace: EventLoop.Timer?
    private let changed: (Change) -> Void

    /// Watches the running executable (`/proc/self/exe`); nil when it cannot be told or watched
    /// (no /proc, a file already replaced before this started, a folder inotify cannot watch):
    /// `problem` says why. `changed` is called once.
    package init?(loop: EventLoop, problem: (String) -> Void, changed: @escaping (Change) -> Void) {
        let path = ProcessStart.executablePath()
        var status = stat()
        guard !path.isEmpty, !path.hasSuffix(" (deleted)"), stat("/proc/self/exe", &status) == 0,
              let slash = path.lastIndex(of: "/")
        else {
            problem("its executable cannot be told (\(path.isEmpty ? "no /proc/self/exe" : path))")
            return nil
        }
        self.path = path
        name = String(path[path.index(after: slash)...])
        running = (UInt64(status.st_dev), UInt64(status.st_ino))
        self.changed = changed
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        do {
            watcher = try FolderWatcher(path: folder, loop: loop, includeCreated: true) { [unowned self] batch in
                if batch.folderGone || batch.names.contains(name) { look() }
            }
        } catch {
            problem("cannot watch \(folder) for its executable's replacement: \(error)")
            return nil
        }
        grace = loop.makeTimer { [unowned self] in look(graceOver: true) }
    }

    deinit { grace?.cancel() }

    /// What is at the path now: the running file (nothing to do), another executable file (it
    /// replaced this one), or nothing (after the grace period, a removal).
    private func look(graceOver: Bool = false) {
        guard watcher != nil else { return } // told already
        var status = stat()
        if stat(path, &status) == 0 {
            if (UInt64(status.st_dev), UInt64(status.st_ino)) == running {
                grace?.cancel()
                return
            }
            if status.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 { return tell(.replaced(path)) }
        }
        if graceOver { return tell(.removed(path)) }
        if grace?.deadline == nil { grace?.schedule(at: EventLoop.now() + Self.removalGrace) }
    }

    private func tell(_ change: Change) {
        watcher = nil
        grace?.cancel()
        changed(change)
    }
}
