import Glibc
import Synchronization

/// Runs an `EventLoop` on a POSIX thread of its own (no Foundation, no libdispatch): for code that
/// drives a loop from other threads, such as an async client, or a test standing in for another
/// process.
///
/// Set up what the loop serves before starting the thread (objects made then are touched only by
/// the loop thread afterwards), hand work over with `execute` or `perform`, and end it with
/// `stop`, which waits for the thread.
///
/// If `EventLoop.run()` throws (its epoll descriptor is broken), the thread ends and `failure`
/// tells why; work handed over after that never runs.
package final class LoopThread: Sendable {
    package let loop: EventLoop
    private let thread: pthread_t
    private let state: Shared

    private final class Shared: Sendable {
        struct State {
            var stopped = false
            var failure: SystemError?
        }
        let mutex = Mutex(State())
    }

    /// Starts a thread running `loop` until it is stopped.
    package init(running loop: EventLoop) throws(SystemError) {
        self.loop = loop
        // The thread holds the loop and the state, not `self`: dropping the last reference to a
        // LoopThread must be able to stop it.
        let state = Shared()
        self.state = state
        thread = try startThread {
            do throws(SystemError) {
                try loop.run()
            } catch {
                state.mutex.withLock { $0.failure = error }
            }
        }
    }

    deinit {
        guard !state.mutex.withLock({ $0.stopped }) else { return }
        loop.stop()
        // The last reference may go on the loop thread itself, which can't wait for itself.
        if pthread_equal(pthread_self(), thread) != 0 { pthread_detach(thread) } else { pthread_join(thread, nil) }
    }

    /// Why the loop ended on its own, if it did.
    package var failure: SystemError? { state.mutex.withLock { $0.failure } }

    /// Runs `work` on the loop thread; callable from any thread.
    package func execute(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }

    /// Runs `body` on the loop thread and returns what it returns.
    package func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            loop.execute { continuation.resume(with: Result(catching: body)) }
        }
    }

    /// Runs `teardown` on the loop thread (closing what it serves), stops the loop and waits for
    /// the thread to end. When the loop had already ended, `teardown` runs on the calling thread,
    /// the only one left. Later calls do nothing. Not for the loop thread itself.
    package func stop(_ teardown: @escaping @Sendable () -> Void = {}) {
        let first = state.mutex.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        let tornDown = Flag()
        // `weak`: should the loop have ended, this work stays queued in it, and a strong capture
        // would be a cycle keeping the loop alive.
        loop.execute { [weak loop] in
            teardown()
            tornDown.set()
            loop?.stop()
        }
        pthread_join(thread, nil)
        if !tornDown.isSet { teardown() }
    }
}

private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

/// Starts a POSIX thread running `body`.
private func startThread(_ body: @escaping @Sendable () -> Void) throws(SystemError) -> pthread_t {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { context in
        guard let context else { return nil }
        Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        return nil
    }, context)
    guard result == 0 else {
        Unmanaged<Box>.fromOpaque(context).release()
        throw SystemError("pthread_create", code: result)
    }
    return thread
}

/// A value only ever touched on its loop's thread, carried between threads inside the closures
/// handed to that loop (`execute`, `LoopThread.perform`).
///
/// `@unchecked Sendable`: the wrapper crosses threads, but whoever holds it promises to read and
/// write `value` only on the loop thread (or before the loop thread starts, or after it ended),
/// where closures run one at a time.
package final class LoopBound<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}
