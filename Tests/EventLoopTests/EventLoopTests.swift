import EventLoop
import Glibc
import Synchronization
import Testing

/// The loop's failures are thrown as `SystemError` (never trapped on), and `LoopThread` runs a
/// loop and ends it cleanly.
@Suite(.timeLimit(.minutes(1)))
struct EventLoopTests {
    /// A temporary regular file, which epoll refuses (EPERM), removed by the caller.
    func regularFile() throws -> (path: String, fd: Int32) {
        var template = Array("/tmp/dbm-loop-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        return (String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self), fd)
    }

    @Test func aDescriptorEpollRefusesIsAnErrorNotATrap() throws {
        let loop = try EventLoop()
        let (path, fd) = try regularFile()
        defer { close(fd); unlink(path) }
        #expect(throws: SystemError("epoll_ctl(add fd \(fd))", code: EPERM)) {
            _ = try loop.watch(fd: fd, events: .readable) { _ in }
        }
        // The loop still works.
        let pipeEnds = try makePipe()
        defer { close(pipeEnds.0); close(pipeEnds.1) }
        var seen: EventLoop.IOEvents = []
        let source = try loop.watch(fd: pipeEnds.0, events: .readable) { events in
            seen = events
            loop.stop()
        }
        #expect(write(pipeEnds.1, "x", 1) == 1)
        try loop.run()
        #expect(seen.contains(.readable))
        source.cancel()
    }

    @Test func aChangeOfEventsEpollRefusesKeepsTheOldOnes() throws {
        let loop = try EventLoop()
        let pipeEnds = try makePipe()
        let source = try loop.watch(fd: pipeEnds.0, events: .readable) { _ in }
        // The descriptor is closed behind the loop's back: epoll no longer knows it.
        close(pipeEnds.0)
        close(pipeEnds.1)
        #expect(throws: SystemError.self) { try source.setEvents([.readable, .writable]) }
        #expect(source.events == .readable)
        source.cancel()
    }

    @Test func aFolderThatIsNotThereIsAnError() throws {
        let loop = try EventLoop()
        let missing = "/tmp/dbm-loop-missing-\(getpid())/inner"
        #expect(throws: SystemError("inotify_add_watch \(missing)", code: ENOENT)) {
            _ = try FolderWatcher(path: missing, loop: loop) { _ in }
        }
    }

    @Test func theErrorSaysWhatFailedAndWhy() {
        let error = SystemError("inotify_add_watch /x", code: ENOSPC)
        #expect(error.description == "inotify_add_watch /x: No space left on device")
    }

    @Test func aLoopThreadRunsWorkAndStopsWithItsTeardown() async throws {
        let thread = try LoopThread(running: EventLoop())
        let onLoop = try await thread.perform { pthread_self() }
        #expect(pthread_equal(onLoop, pthread_self()) == 0, "the work ran on the loop's own thread")
        let tornDown = Mutex(false)
        thread.stop { tornDown.withLock { $0 = true } }
        #expect(tornDown.withLock { $0 })
        #expect(thread.failure == nil)
        thread.stop { Issue.record("a second stop runs nothing") }
    }

    @Test func aLoopThatEndedRunsTheTeardownOnTheCaller() async throws {
        let loop = try EventLoop()
        let thread = try LoopThread(running: loop)
        // Ends the loop from inside, behind the LoopThread's back: it takes no more work.
        try await thread.perform { loop.stop() }
        let ranHere = Mutex(false)
        let caller = pthread_self()
        thread.stop { ranHere.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 } }
        #expect(ranHere.withLock { $0 })
    }

    func makePipe() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }
}
