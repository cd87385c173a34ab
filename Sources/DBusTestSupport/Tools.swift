public import Foundation

/// The outcome of running a command.
public struct CommandResult: Sendable, CustomStringConvertible {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    public var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs a program to completion (a stock tool such as `dbus-send`, `gdbus`, `busctl`, or our own
/// binary) with `environment`, killing it after `timeout` seconds.
public func runCommand(
    _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil, timeout: TimeInterval = 20
) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe(), stdin = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(input) }
    try? stdin.fileHandleForWriting.close()
    // Read both pipes to the end on other threads so a chatty child never blocks on a full pipe.
    let stdoutData = LockedData(), stderrData = LockedData()
    let group = DispatchGroup()
    for (pipe, sink) in [(out, stdoutData), (err, stderrData)] {
        group.enter()
        Thread.detachNewThread {
            sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
    }
    let deadline = DispatchTime.now() + timeout
    if group.wait(timeout: deadline) == .timedOut {
        kill(process.processIdentifier, SIGKILL) // SIGTERM may be blocked in the child (see PrivateBus.stop)
        _ = group.wait(timeout: .now() + 5)
    }
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus,
                         stdout: String(decoding: stdoutData.get(), as: UTF8.self),
                         stderr: String(decoding: stderrData.get(), as: UTF8.self))
}

/// `@unchecked Sendable`: the data is only touched under the lock.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// Awaits `body`, failing with a timeout error after `seconds`: every wait in a test is bounded.
public func withTimeout<T: Sendable>(
    _ seconds: Double = 10, _ what: String = "operation", _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw FixtureError("timed out after \(seconds) s waiting for \(what)")
        }
        let result = try await group.next()!
        group.cancelAll()
        return result
    }
}

/// The next element of an async sequence, within `seconds`.
public func next<S: AsyncSequence & Sendable>(
    _ sequence: S, within seconds: Double = 10, _ what: String = "an event"
) async throws -> S.Element where S.Element: Sendable {
    try await withTimeout(seconds, what) {
        var iterator = sequence.makeAsyncIterator()
        guard let element = try await iterator.next() else { throw FixtureError("the sequence ended before \(what)") }
        return element
    }
}
