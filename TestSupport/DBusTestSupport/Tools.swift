package import Foundation
import Synchronization

/// The outcome of running a command.
package struct CommandResult: Sendable, CustomStringConvertible {
    package let status: Int32
    package let stdout: String
    package let stderr: String
    /// Whether the command was killed for running past its timeout.
    package let timedOut: Bool
    package var description: String {
        "exit \(status)\(timedOut ? " (killed: timed out)" : "")\nstdout: \(stdout)\nstderr: \(stderr)"
    }
}

/// Runs a program to completion (a stock tool such as `dbus-send`, `gdbus`, `busctl`, or our own
/// binary) with `environment`, killing it after `timeout` seconds. Every wait is bounded, also for
/// a child that leaves a process behind holding its output open.
package func runCommand(
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
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    if let input { stdin.fileHandleForWriting.write(input) }
    try? stdin.fileHandleForWriting.close() // the child may be gone already: its end is closed then
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
    // Both the output and the exit within the timeout; else SIGKILL (SIGTERM may be blocked in
    // the child, see PrivateBus.stop), but not after its exit, when its pid may be reused.
    let deadline = DispatchTime.now() + timeout
    let timedOut = group.wait(timeout: deadline) == .timedOut || exited.wait(timeout: deadline) == .timedOut
    if timedOut {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = group.wait(timeout: .now() + 5)
        // Only waitUntilExit drops the Process's run-loop source (which retains the Process), and
        // it never returns if Foundation misses the exit (seen under ASan): call it once seen.
        guard exited.wait(timeout: .now() + 10) == .success else {
            throw FixtureError("\(arguments.joined(separator: " ")): no exit seen 10 s after SIGKILL")
        }
    }
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus,
                         stdout: String(decoding: stdoutData.get(), as: UTF8.self),
                         stderr: String(decoding: stderrData.get(), as: UTF8.self),
                         timedOut: timedOut)
}

/// `@unchecked Sendable`: the data is only touched under the lock.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// Awaits `body`, failing with a timeout error after `seconds`: every wait in a test is bounded.
///
/// Bounded even when `body` ignores cancellation (a continuation that is never resumed, a task's
/// `value`): it runs in a task of its own, which is cancelled and left behind at the deadline,
/// not awaited. Cancelling the caller (a suite's time limit) ends the wait too.
package func withTimeout<T: Sendable>(
    _ seconds: Double = 10, _ what: String = "operation", _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = FirstOutcome<T>()
    let work = Task {
        do { outcome.settle(.success(try await body())) } catch { outcome.settle(.failure(error)) }
    }
    let timer = Task {
        try await Task.sleep(for: .seconds(seconds))
        outcome.settle(.failure(FixtureError("timed out after \(seconds) s waiting for \(what)")))
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    return try await withTaskCancellationHandler {
        try await outcome.value()
    } onCancel: {
        outcome.settle(.failure(CancellationError()))
    }
}

/// The first result settled, for one waiter.
private final class FirstOutcome<T: Sendable>: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<T, any Error>)
        case settled(Result<T, any Error>)
    }
    private let state = Mutex(State.pending)

    /// Records `result` unless one came first, and resumes the waiter.
    func settle(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            switch state {
            case .settled: return nil
            case .pending:
                state = .settled(result)
                return nil
            case .waiting(let continuation):
                state = .settled(result)
                return continuation
            }
        }
        waiter?.resume(with: result)
    }

    /// The first result, once there is one.
    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let result = state.withLock { state -> Result<T, any Error>? in
                if case .settled(let result) = state { return result }
                state = .waiting(continuation)
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }
}

/// The next element of an async sequence, within `seconds`.
package func next<S: AsyncSequence & Sendable>(
    _ sequence: S, within seconds: Double = 10, _ what: String = "an event"
) async throws -> S.Element where S.Element: Sendable {
    try await withTimeout(seconds, what) {
        var iterator = sequence.makeAsyncIterator()
        guard let element = try await iterator.next() else { throw FixtureError("the sequence ended before \(what)") }
        return element
    }
}

/// Reads one line (without its newline) from `handle` within `seconds`; the end of the file ends
/// the line too.
/// - Throws: `FixtureError` naming `what` when neither comes in time.
package func readLine(_ handle: FileHandle, within seconds: Double, _ what: String) throws -> String {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(seconds))
    let fd = handle.fileDescriptor
    var line: [UInt8] = []
    while true {
        let remaining = clock.now.duration(to: deadline)
        guard remaining > .zero else { throw FixtureError("no \(what) within \(seconds) s") }
        let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(clamping: milliseconds))
        guard ready > 0 else {
            if ready < 0, errno != EINTR { throw FixtureError("reading \(what): poll: \(String(cString: strerror(errno)))") }
            continue
        }
        var byte: UInt8 = 0
        let count = read(fd, &byte, 1)
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { continue }
            throw FixtureError("reading \(what): \(String(cString: strerror(errno)))")
        }
        if count == 0 || byte == 0x0A { return String(decoding: line, as: UTF8.self) }
        line.append(byte)
    }
}

/// Waits at most `seconds` for `finished`, which a thread the fixture started signals as it
/// ends. Returns nil, or an error naming `what` when it did not end: a thread stuck in the code
/// under test is then reported, not waited for until the test run is killed.
package func join(_ finished: DispatchSemaphore, _ what: String, within seconds: Double = 30) -> FixtureError? {
    finished.wait(timeout: .now() + seconds) == .success ? nil : FixtureError("\(what) did not end within \(seconds) s")
}

/// Writes `text` to `path` as an executable (mode 0755), through a child process: a file this
/// process had open for writing could be inherited by a process another test starts meanwhile,
/// and running it would then fail with ETXTBSY ("Text file busy").
package func writeExecutable(_ text: String, to path: String) throws {
    let result = try runCommand(["sh", "-c", #"cat > "$1" && chmod 755 "$1""#, "sh", path], input: Data(text.utf8))
    guard result.status == 0 else { throw FixtureError("writing \(path): \(result)") }
}
