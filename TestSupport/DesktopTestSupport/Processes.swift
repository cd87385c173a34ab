import Foundation

/// The processes (pid and command line, arguments joined by spaces) whose command line contains
/// `text`: what a test left running, or what a program under test must not leave behind.
package func processes(containing text: String) -> [(pid: Int32, commandLine: String)] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> (pid: Int32, commandLine: String)? in
        guard let pid = Int32(entry), pid != getpid(),
              let bytes = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !bytes.isEmpty
        else { return nil }
        let commandLine = String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return commandLine.contains(text) ? (pid, commandLine) : nil
    }
}

/// The executable a process runs, as the kernel shows it (`PATH (deleted)` once that file was
/// replaced or removed), nil when the process is gone.
package func runningExecutable(_ pid: Int32) -> String? {
    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
}

/// The device and inode of the file at `path` (following links): which file a path names now.
package func fileIdentity(_ path: String) -> (device: UInt64, inode: UInt64)? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return (UInt64(status.st_dev), UInt64(status.st_ino))
}

/// The device and inode of the file process `pid` runs (the replaced one too, through /proc).
package func runningIdentity(_ pid: Int32) -> (device: UInt64, inode: UInt64)? { fileIdentity("/proc/\(pid)/exe") }

/// `processes(containing:)` once they are gone, or after `seconds` those still there: a process
/// sent SIGKILL dies when the kernel next runs it, which on a loaded machine is not at once.
package func processesLeft(containing text: String, within seconds: Double = 5) -> [(pid: Int32, commandLine: String)] {
    let deadline = Date().addingTimeInterval(seconds)
    var left = processes(containing: text)
    while !left.isEmpty, Date() < deadline {
        usleep(20_000)
        left = processes(containing: text)
    }
    return left
}
