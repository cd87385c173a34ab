import DBusTestSupport
package import Foundation
import Glibc

package extension NSCondition {
    /// Makes `change` under the lock, then wakes the waiters.
    @discardableResult
    func publish<Value>(_ change: () -> Value) -> Value {
        lock()
        defer {
            broadcast()
            unlock()
        }
        return change()
    }

    /// Under the lock, evaluates `find` until it gives a value, waiting for a broadcast between
    /// tries. Throws `failure()` once `timeout` passes, or at once when `isOver()` says nothing
    /// more will come (the producer ended).
    func waitForValue<Value>(timeout: TimeInterval, isOver: () -> Bool = { false }, failure: () -> String,
                             _ find: () -> Value?) throws -> Value {
        let deadline = Date().addingTimeInterval(timeout)
        lock()
        defer { unlock() }
        while true {
            if let value = find() { return value }
            guard !isOver(), wait(until: deadline) else { throw FixtureError(failure()) }
        }
    }
}

/// Reads `fd` to its end, giving `record` each piece that `separator` ends, then closes it.
package func readRecords(from fd: Int32, separator: UInt8, _ record: ([UInt8]) -> Void) {
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while case let count = read(fd, &chunk, chunk.count), count > 0 {
        pending += chunk[..<count]
        while let end = pending.firstIndex(of: separator) {
            record(Array(pending[..<end]))
            pending.removeSubrange(...end)
        }
    }
    close(fd)
}

/// Runs `body` on a new thread that takes no signals: the test support's I/O threads end right as
/// the processes they read from exit, and a process-wide SIGCHLD or SIGPIPE delivered to a
/// finishing thread trips ThreadSanitizer ("CHECK failed: thr->slot"); such signals belong to
/// the threads that wait for them.
package func detachIOThread(_ body: @escaping @Sendable () -> Void) {
    Thread.detachNewThread {
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        body()
    }
}

/// The next event of `events` satisfying `predicate` (others are skipped), waiting at most
/// `seconds`; `source` names whose events they are, for the failure.
package func nextEvent<Event: Sendable>(of events: AsyncStream<Event>, from source: String, _ what: String, within seconds: Double,
                                _ predicate: @escaping @Sendable (Event) -> Bool) async throws -> Event {
    try await withTimeout(seconds, what) {
        for await event in events where predicate(event) { return event }
        throw FixtureError("\(source)'s events ended before \(what)")
    }
}

/// What `observer` is told from now on, as a stream.
package func observe<Event: Sendable>(_ observer: inout ((Event) -> Void)?) -> AsyncStream<Event> {
    let (events, continuation) = AsyncStream<Event>.makeStream()
    observer = { continuation.yield($0) }
    return events
}

/// Temporary folders, one per prefix, removed with this value (for tests that need several).
package final class TemporaryFolders {
    package let paths: [String]

    package init(_ prefixes: String...) throws {
        var made: [String] = []
        do {
            for prefix in prefixes { made.append(try makeTemporaryDirectory(prefix)) }
        } catch {
            for path in made { try? FileManager.default.removeItem(atPath: path) } // undoing a half-made set: the first error is the one thrown
            throw error
        }
        paths = made
    }

    deinit {
        for path in paths { try? FileManager.default.removeItem(atPath: path) } // teardown of temporary folders: best effort
    }
}
