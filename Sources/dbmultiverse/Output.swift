import Glibc

/// Writes straight to the file descriptors, one whole line per write: `watch` output reaches a
/// status bar at once, and no global `FILE*` state is shared.
enum Output {
    static func line(_ text: String) {
        writeAll(1, text + "\n")
    }

    static func error(_ text: String) {
        writeAll(2, "dbmultiverse: " + text + "\n")
    }

    static func errorBlock(_ text: String) {
        writeAll(2, text.hasSuffix("\n") ? text : text + "\n")
    }

    private static func writeAll(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                // The reader went away (a closed status bar): nothing more to say to anyone.
                exit(fd == 1 ? 0 : 1)
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
