import Glibc

/// The mount table of this process's namespace, followed with epoll: the kernel reports an
/// exceptional condition on `/proc/self/mountinfo` at each mount and unmount (proc(5)). Only that
/// is waited for (the file is always readable, which would spin the loop).
package final class MountTableWatcher {
    private let fd: Int32
    private var source: EventLoop.IOSource?

    /// Calls `changed` (on the loop) after each mount or unmount in this process's namespace.
    package init(loop: EventLoop, changed: @escaping () -> Void) throws(SystemError) {
        fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError.last("open /proc/self/mountinfo") }
        source = try loop.watch(fd: fd, events: .error) { _ in changed() }
    }

    deinit {
        source?.cancel()
        if fd >= 0 { close(fd) }
    }
}
