import CLinuxEvents
import Glibc

extension EventLoop {
    /// Delivers `signals` (e.g. SIGTERM, SIGINT) to `handler` on the loop thread through a signalfd.
    /// Blocks them for the calling thread: call it before starting other threads, which inherit
    /// the mask (a signalfd only sees a signal that every thread blocks).
    ///
    /// Meant to be called once per process: the signals stay blocked and the descriptor open for its life.
    package func handleSignals(_ signals: [Int32], _ handler: @escaping (Int32) -> Void) throws(SystemError) -> IOSource {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        let blocked = pthread_sigmask(SIG_BLOCK, &mask, nil)
        guard blocked == 0 else { throw SystemError("pthread_sigmask", code: blocked) }
        let fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else { throw SystemError.last("signalfd") }
        do {
            return try watch(fd: fd, events: .readable) { _ in
                var info = signalfd_siginfo()
                while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                    handler(Int32(info.ssi_signo))
                }
            }
        } catch {
            _ = close(fd)
            throw error
        }
    }
}
