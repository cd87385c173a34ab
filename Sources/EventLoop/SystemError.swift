import Glibc

/// A failed system call: what was attempted and the `errno` it failed with.
///
/// The loop's own failures (epoll, eventfd, signalfd, inotify, a thread that can't be created)
/// are runtime conditions — `ENOMEM`, `ENOSPC` when a watch limit is reached, `EMFILE` — not
/// programming errors, so they are thrown, never trapped on.
package struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was attempted, e.g. `inotify_add_watch /home/me/data`.
    package let operation: String
    /// The `errno` value.
    package let code: Int32

    package init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// The failure of `operation` with the current `errno` (read at once, before anything can change it).
    static func last(_ operation: String) -> SystemError { SystemError(operation, code: errno) }

    /// `inotify_add_watch /home/me/data: No such file or directory`
    package var description: String { "\(operation): \(reason)" }

    /// The C library's text for `code`.
    package var reason: String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
