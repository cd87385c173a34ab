import Glibc
import CLinuxEvents
import Synchronization

/// A single-threaded event loop on epoll, in the manner of sd-event: it waits on file descriptors
/// (a bus connection's sockets, inotify, a signalfd…) and on timers, and does nothing — no
/// wake-ups at all — while nothing happens.
///
/// Everything but `execute(_:)` and `stop()` must be called on the thread running the loop (or
/// before it runs); handlers run on that thread, synchronously, one at a time.
///
/// Failures of the system calls underneath are thrown as `SystemError`: a descriptor epoll can't
/// take (`ENOMEM`, `ENOSPC` past `max_user_watches`) fails `watch`, and a failing `epoll_wait`
/// ends `run()` with its error.
///
/// `@unchecked Sendable`: the source and timer tables are confined to the loop thread; the only
/// state touched from other threads is `crossThreadWork` (guarded by a `Mutex`) and the eventfd,
/// whose writes are atomic in the kernel.
package final class EventLoop: @unchecked Sendable {
    package struct IOEvents: OptionSet, Sendable {
        package let rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        package static let readable = IOEvents(rawValue: UInt32(EPOLLIN.rawValue))
        package static let writable = IOEvents(rawValue: UInt32(EPOLLOUT.rawValue))
        package static let error = IOEvents(rawValue: UInt32(EPOLLERR.rawValue))
        package static let hangup = IOEvents(rawValue: UInt32(EPOLLHUP.rawValue))
    }

    /// A file descriptor being watched. Cancel it before closing the descriptor.
    package final class IOSource {
        package let fd: Int32
        fileprivate let token: UInt64
        fileprivate let handler: (IOEvents) -> Void
        fileprivate weak var loop: EventLoop?
        package private(set) var events: IOEvents

        fileprivate init(fd: Int32, token: UInt64, events: IOEvents, loop: EventLoop, handler: @escaping (IOEvents) -> Void) {
            self.fd = fd
            self.token = token
            self.events = events
            self.loop = loop
            self.handler = handler
        }

        /// Changes the events waited for (an empty set pauses the source). On failure the source
        /// keeps waiting for the events it had.
        package func setEvents(_ newEvents: IOEvents) throws(SystemError) {
            guard newEvents != events, let loop else { return }
            try loop.control(EPOLL_CTL_MOD, fd: fd, token: token, events: newEvents)
            events = newEvents
        }

        /// Stops watching. Safe to call more than once, and from inside the handler.
        package func cancel() {
            guard let loop else { return }
            self.loop = nil
            loop.removeSource(self)
        }
    }

    /// A one-shot timer on the monotonic clock. Re-arm it with `schedule(at:)`.
    package final class Timer {
        fileprivate let handler: () -> Void
        fileprivate weak var loop: EventLoop?
        package fileprivate(set) var deadline: Int64?

        fileprivate init(loop: EventLoop, handler: @escaping () -> Void) {
            self.loop = loop
            self.handler = handler
        }

        /// Arms (or moves) the timer to fire at `deadline` (monotonic nanoseconds).
        package func schedule(at deadline: Int64) {
            guard let loop else { return }
            self.deadline = deadline
            loop.timers[ObjectIdentifier(self)] = self
        }

        /// Disarms the timer; it can be scheduled again later.
        package func cancel() {
            deadline = nil
            loop?.timers[ObjectIdentifier(self)] = nil
        }
    }

    private let epollFD: Int32
    private let wakeFD: Int32
    private static let wakeToken: UInt64 = 0
    private var nextToken: UInt64 = 1
    private var sources: [UInt64: IOSource] = [:]
    private var timers: [ObjectIdentifier: Timer] = [:]
    private var posted: [() -> Void] = []
    private let crossThreadWork = Mutex<[@Sendable () -> Void]>([])
    private let stopRequested = Atomic<Bool>(false)

    package init() throws(SystemError) {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw SystemError.last("epoll_create1") }
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        // epollFD is not closed here: with every property set, a throwing init still runs deinit.
        guard wakeFD >= 0 else { throw SystemError.last("eventfd") }
        try control(EPOLL_CTL_ADD, fd: wakeFD, token: Self.wakeToken, events: .readable)
    }

    deinit {
        if wakeFD >= 0 { _ = close(wakeFD) }
        _ = close(epollFD)
    }

    /// The monotonic clock, in nanoseconds: the time base of timers.
    package static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// The wall clock, in Unix seconds.
    package static func unixTime() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec)
    }

    // MARK: Sources

    /// Watches `fd` for `events`; `handler` gets the events that occurred. Throws when epoll can't
    /// take the descriptor (out of memory, the user's watch limit, or a file epoll can't poll).
    package func watch(fd: Int32, events: IOEvents, handler: @escaping (IOEvents) -> Void) throws(SystemError) -> IOSource {
        let token = nextToken
        nextToken += 1
        try control(EPOLL_CTL_ADD, fd: fd, token: token, events: events)
        let source = IOSource(fd: fd, token: token, events: events, loop: self, handler: handler)
        sources[token] = source
        return source
    }

    fileprivate func removeSource(_ source: IOSource) {
        sources[source.token] = nil
        // The descriptor may already be closed by its owner: ENOENT/EBADF are expected then.
        var event = epoll_event()
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, source.fd, &event)
    }

    fileprivate func control(_ op: Int32, fd: Int32, token: UInt64, events: IOEvents) throws(SystemError) {
        var event = epoll_event()
        event.events = events.rawValue
        event.data.u64 = token
        if epoll_ctl(epollFD, op, fd, &event) != 0 {
            throw SystemError.last("epoll_ctl(\(op == EPOLL_CTL_ADD ? "add" : "modify") fd \(fd))")
        }
    }

    // MARK: Timers

    /// A timer, not yet armed.
    package func makeTimer(_ handler: @escaping () -> Void) -> Timer { Timer(loop: self, handler: handler) }

    /// A timer armed to fire once at `deadline` (monotonic nanoseconds).
    @discardableResult
    package func schedule(at deadline: Int64, _ handler: @escaping () -> Void) -> Timer {
        let timer = makeTimer(handler)
        timer.schedule(at: deadline)
        return timer
    }

    // MARK: Work

    /// Runs `work` on the loop thread after the current handler returns (loop thread only).
    package func post(_ work: @escaping () -> Void) { posted.append(work) }

    /// Runs `work` on the loop thread; callable from any thread.
    package func execute(_ work: @escaping @Sendable () -> Void) {
        crossThreadWork.withLock { $0.append(work) }
        wake()
    }

    /// Makes `run()` return after the current iteration; callable from any thread.
    package func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    // MARK: Running

    /// Runs until `stop()`. Handlers, timers and posted work all run on this thread.
    ///
    /// Throws when `epoll_wait` fails for another reason than a signal (`EINTR`): only a loop
    /// whose epoll descriptor is broken gets there, and it can wait for nothing any more. Work
    /// posted before is run first.
    package func run() throws(SystemError) {
        stopRequested.store(false, ordering: .sequentiallyConsistent)
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while !stopRequested.load(ordering: .sequentiallyConsistent) {
            runPosted()
            if stopRequested.load(ordering: .sequentiallyConsistent) { break }
            // The buffer is never empty, so it has an address (Swift 6.2's Glibc takes it non-optional).
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epollFD, $0.baseAddress!, Int32($0.count), waitTimeoutMilliseconds())
            }
            if count < 0 {
                let failure = SystemError.last("epoll_wait")
                if failure.code == EINTR { continue }
                runPosted()
                throw failure
            }
            for index in 0..<Int(count) {
                let token = events[index].data.u64
                if token == Self.wakeToken {
                    drainWakeups()
                } else if let source = sources[token] {
                    // A source cancelled by an earlier handler in this batch is no longer in the table.
                    source.handler(IOEvents(rawValue: events[index].events))
                }
                runPosted()
            }
            fireDueTimers()
        }
        runPosted()
    }

    private func runPosted() {
        while !posted.isEmpty {
            let work = posted
            posted.removeAll()
            for item in work { item() }
        }
    }

    private func drainWakeups() {
        var value: UInt64 = 0
        _ = read(wakeFD, &value, MemoryLayout<UInt64>.size)
        let work = crossThreadWork.withLock { queue in
            let taken = queue
            queue.removeAll()
            return taken
        }
        for item in work { item() }
    }

    /// -1 (wait indefinitely) without timers; else the time to the earliest deadline, rounded up
    /// so the loop never wakes before it.
    private func waitTimeoutMilliseconds() -> Int32 {
        if !posted.isEmpty { return 0 }
        guard let earliest = timers.values.lazy.compactMap(\.deadline).min() else { return -1 }
        let remaining = earliest - Self.now()
        if remaining <= 0 { return 0 }
        return Int32(clamping: (remaining + 999_999) / 1_000_000)
    }

    private func fireDueTimers() {
        guard !timers.isEmpty else { return }
        let now = Self.now()
        let due = timers.values.compactMap { timer in timer.deadline.map { (timer, $0) } }
            .filter { $0.1 <= now }.sorted { $0.1 < $1.1 }.map(\.0)
        // An earlier timer's handler may cancel or move a later one.
        for timer in due where timer.deadline.map({ $0 <= now }) == true {
            timer.cancel()
            timer.handler()
            runPosted()
        }
    }
}
