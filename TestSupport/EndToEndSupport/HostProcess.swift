import DBusTestSupport
import DesktopTestSupport
package import Foundation
import Glibc
import Recorder
import Widget

/// The built `dbmultiverse` started the way a browser starts its native messaging host: the
/// browser's arguments, framed messages on stdin, replies read from stdout as they come.
///
/// `@unchecked Sendable`: `stdoutBytes`, `stderrBytes`, `readersDone` and `exited` are only
/// touched under `lock`; `input` only by the test's thread.
package final class HostProcess: @unchecked Sendable {
    /// What Chromium passes: the extension's origin.
    package static let chromiumArguments = [BrowserExtension.chromiumOrigin]

    /// What Firefox passes: the manifest's path and the extension's id.
    package static func firefoxArguments(manifest: String) -> [String] { [manifest, BrowserExtension.firefoxID] }

    private let pid: pid_t
    private var input: Int32
    private let lock = NSCondition()
    private var stdoutBytes: [UInt8] = []
    private var stderrBytes: [UInt8] = []
    private var readersDone = 0
    private var exited = false

    /// `executable`: the host's own executable, which the host manifests name, or the CLI (its
    /// `browser-host` command runs the same host).
    package init(executable: String = Binary.browserHost, arguments: [String], environment: [String: String]) throws {
        _ = Self.pipeSignalIgnored
        let stdin = try Spawn.pipe(), stdout = try Spawn.pipe(), stderr = try Spawn.pipe()
        defer { [stdin.read, stdout.write, stderr.write].forEach { close($0) } }
        do {
            pid = try Spawn.start(executable, arguments, environment: environment,
                                  descriptors: [0: stdin.read, 1: stdout.write, 2: stderr.write])
        } catch {
            [stdin.write, stdout.read, stderr.read].forEach { close($0) }
            throw error
        }
        input = stdin.write
        for (fd, isStdout) in [(stdout.read, true), (stderr.read, false)] {
            detachIOThread { [self] in
                var chunk = [UInt8](repeating: 0, count: 16 * 1024)
                while case let count = read(fd, &chunk, chunk.count), count > 0 {
                    lock.publish { if isStdout { stdoutBytes += chunk[..<count] } else { stderrBytes += chunk[..<count] } }
                }
                close(fd)
                lock.publish { readersDone += 1 }
            }
        }
    }

    deinit {
        closeInput()
        if !exited {
            kill(pid, SIGKILL)
            _ = Spawn.wait(for: pid, timeout: 10)
        }
    }

    /// A write to a host that has exited fails with EPIPE instead of killing the test process.
    private static let pipeSignalIgnored: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs the host on `input` (then end of input) and returns how it ended, within `timeout`.
    package static func run(executable: String = Binary.browserHost, arguments: [String], input: [UInt8], environment: [String: String],
                            timeout: TimeInterval = 10) throws -> HostResult {
        let host = try HostProcess(executable: executable, arguments: arguments, environment: environment)
        try host.write(input)
        host.closeInput()
        return try host.waitForExit(timeout: timeout)
    }

    /// Writes to the host's input. A host that has already exited (one that refuses its caller
    /// does, before reading) is not an error here: the test checks how it ended.
    package func write(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EPIPE { return }
            guard count > 0 else { throw FixtureError("writing to the host: \(String(cString: strerror(errno)))") }
            written += count
        }
    }

    /// Ends the host's input, as a browser does after the reply.
    package func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Waits for the next complete reply after the `already` replies seen, within `timeout`.
    package func reply(after already: Int = 0, timeout: TimeInterval = 10) throws -> [UInt8] {
        try lock.waitForValue(timeout: timeout, isOver: { readersDone == 2 },
                              failure: { "no reply \(already + 1) within \(timeout) s; stderr: \(String(decoding: stderrBytes, as: UTF8.self))" }) {
            let messages = Self.messages(in: stdoutBytes).messages
            return messages.count > already ? messages[already] : nil
        }
    }

    /// Waits for both outputs to end and the exit, within `timeout` (then kills the host).
    package func waitForExit(timeout: TimeInterval) throws -> HostResult {
        let deadline = Date().addingTimeInterval(timeout)
        try lock.waitForValue(timeout: timeout, failure: { "the host did not close its output within \(timeout) s" }) {
            readersDone == 2 ? () : nil
        }
        guard let status = Spawn.wait(for: pid, timeout: max(0, deadline.timeIntervalSinceNow)) else {
            throw FixtureError("the host did not exit within \(timeout) s of its input ending")
        }
        exited = true
        let (stdout, stderr) = lock.publish { (stdoutBytes, String(decoding: stderrBytes, as: UTF8.self)) }
        let (messages, rest) = Self.messages(in: stdout)
        return HostResult(status: Spawn.exitStatus(status), replies: messages, unframed: rest, stderr: stderr)
    }

    /// The complete messages at the start of `bytes`, and the bytes left after them.
    private static func messages(in bytes: [UInt8]) -> (messages: [[UInt8]], rest: [UInt8]) {
        var messages: [[UInt8]] = []
        var offset = 0
        while bytes.count - offset >= 4 {
            let length = Int(bytes[offset..<(offset + 4)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
            guard bytes.count - offset - 4 >= length else { break }
            messages.append(Array(bytes[(offset + 4)..<(offset + 4 + length)]))
            offset += 4 + length
        }
        return (messages, Array(bytes[offset...]))
    }
}

/// How a host process ended: its status, its replies, whatever else it wrote to stdout (must
/// be nothing), and its diagnostics.
package struct HostResult: CustomStringConvertible {
    package let status: Int32
    package let replies: [[UInt8]]
    package let unframed: [UInt8]
    package let stderr: String

    package var replyTexts: [String] { replies.map { String(decoding: $0, as: UTF8.self) } }

    package var description: String { "exit \(status)\nreplies: \(replyTexts)\nunframed stdout: \(unframed)\nstderr: \(stderr)" }
}
