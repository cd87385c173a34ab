import Foundation

/// Runs `body` on the threads of `BlockingWorkExecutor` instead of Swift's cooperative pool: for
/// test code that blocks (it waits for a process, a browser, a socket). The pool has one thread
/// per core, so a test blocking one stalls every other test's task, and the suite's timing tests
/// then fail.
///
/// `body` stays in the calling task (through a task executor preference), so task-locals such as
/// the current test are kept and `#expect` inside it records against that test.
package func offThePool<T>(_ body: () async throws -> T) async throws -> T {
    try await withTaskExecutorPreference(BlockingWorkExecutor.shared) { try await body() }
}

/// A task executor with threads of its own for blocking test code, at most `width` of them: twice
/// the cores, at least 4, so that blocking tests still run side by side but do not start more
/// processes at once than the machine can serve. Threads start as work comes and then stay.
///
/// `@unchecked Sendable`: `jobs`, `threads` and `idle` are touched only under `condition`.
final class BlockingWorkExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = BlockingWorkExecutor(width: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    private let width: Int
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var threads = 0
    private var idle = 0

    init(width: Int) { self.width = width }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        // More jobs waiting than threads waiting for them: one more thread, while under the width.
        if jobs.count > idle, threads < width {
            threads += 1
            Thread.detachNewThread { [self] in work() }
        }
        condition.signal()
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            idle += 1
            while jobs.isEmpty { condition.wait() }
            idle -= 1
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
