package import ComicDomain
import EventLoop
import Glibc

/// The service's view of time: the clock the sync rules read, and the one deadline they need
/// armed. Injected, so tests drive the debounce and the hourly refresh without waiting.
package protocol ServiceClock: AnyObject {
    func monotonicNow() -> MonotonicInstant
    func unixSeconds() -> Int64
    /// The wall clock in Unix milliseconds (the sync folder's stamps).
    func unixMilliseconds() -> Int64
    /// Arms the single deadline (replacing the previous one); nil disarms it.
    func setDeadline(_ deadline: MonotonicInstant?, _ fire: @escaping () -> Void)
}

/// Real time: the deadline is a timer of the event loop (no thread, no `Task.sleep`), so an idle
/// service has nothing armed but the hourly refresh.
final class LoopClock: ServiceClock {
    private let loop: EventLoop
    private var timer: EventLoop.Timer?

    init(loop: EventLoop) { self.loop = loop }

    func monotonicNow() -> MonotonicInstant { MonotonicInstant(nanoseconds: EventLoop.now()) }
    func unixSeconds() -> Int64 { EventLoop.unixTime() }
    func unixMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    func setDeadline(_ deadline: MonotonicInstant?, _ fire: @escaping () -> Void) {
        timer?.cancel()
        timer = nil
        guard let deadline else { return }
        // MonotonicInstant and the loop both count CLOCK_MONOTONIC nanoseconds.
        timer = loop.schedule(at: deadline.nanoseconds, fire)
    }
}
