import DBusTestSupport
import Desktop
import Foundation
import Glibc

/// The built `dbmultiverse` started the way a browser starts its native messaging host: the
/// browser's arguments, framed messages on stdin, replies read from stdout as they come.
///
/// `@unchecked Sendable`: `stdoutBytes`, `stderrBytes` and `ended` are only touched under `lock`.
final class HostProcess: @unchecked Sendable {
    /// What Chromium passes: the extension's origin.
    static let chromiumArguments = [BrowserExtension.chromiumOrigin]

    /// What Firefox passes: the manifest's path and the extension's id.
    static func firefoxArguments(manifest: String) -> [String] { [manifest, BrowserExtension.firefoxID] }

    private let process = Process()
    private let input = Pipe()
    private let lock = NSCondition()
    private var stdoutBytes: [UInt8] = []
    private var stderrBytes: [UInt8] = []
    private var readersDone = 0
    private var inputOpen = true

    init(arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: Binary.dbmultiverse)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        for (pipe, isStdout) in [(output, true), (errors, false)] {
            Thread.detachNewThread { [self] in
                let handle = pipe.fileHandleForReading
                while case let data = handle.availableData, !data.isEmpty {
                    lock.publish { if isStdout { stdoutBytes += data } else { stderrBytes += data } }
                }
                lock.publish { readersDone += 1 }
            }
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs the host on `input` (then end of input) and returns how it ended, within `timeout`.
    static func run(arguments: [String], input: [UInt8], environment: [String: String], timeout: TimeInterval = 10) throws -> HostResult {
        let host = try HostProcess(arguments: arguments, environment: environment)
        try host.write(input)
        host.closeInput()
        return try host.waitForExit(timeout: timeout)
    }

    func write(_ bytes: [UInt8]) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(bytes))
    }

    /// Ends the host's input, as a browser does after the reply.
    func closeInput() {
        if inputOpen { try? input.fileHandleForWriting.close() }
        inputOpen = false
    }

    /// Waits for the next complete reply after the `already` replies seen, within `timeout`.
    func reply(after already: Int = 0, timeout: TimeInterval = 10) throws -> [UInt8] {
        try lock.waitForValue(timeout: timeout, isOver: { readersDone == 2 },
                              failure: { "no reply \(already + 1) within \(timeout) s; stderr: \(String(decoding: stderrBytes, as: UTF8.self))" }) {
            let messages = Self.messages(in: stdoutBytes).messages
            return messages.count > already ? messages[already] : nil
        }
    }

    /// Waits for the exit and for both outputs to end, within `timeout` (then kills the host).
    func waitForExit(timeout: TimeInterval) throws -> HostResult {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        while readersDone < 2 {
            guard lock.wait(until: deadline) else {
                lock.unlock()
                kill(process.processIdentifier, SIGKILL)
                throw FixtureError("the host did not exit within \(timeout) s of its input ending")
            }
        }
        let stdout = stdoutBytes, stderr = String(decoding: stderrBytes, as: UTF8.self)
        lock.unlock()
        process.waitUntilExit()
        let (messages, rest) = Self.messages(in: stdout)
        return HostResult(status: process.terminationStatus, replies: messages, unframed: rest, stderr: stderr)
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
struct HostResult: CustomStringConvertible {
    let status: Int32
    let replies: [[UInt8]]
    let unframed: [UInt8]
    let stderr: String

    var replyTexts: [String] { replies.map { String(decoding: $0, as: UTF8.self) } }

    var description: String { "exit \(status)\nreplies: \(replyTexts)\nunframed stdout: \(unframed)\nstderr: \(stderr)" }
}
