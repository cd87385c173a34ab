import DBusTestSupport
import Glibc

/// A UNIX stream socket bound at `path` and listening with `backlog`: where the hostile-input tests'
/// stand-ins for a bus (a silent one, one that answers only Hello) take connections.
func listeningUnixSocket(at path: String, backlog: Int32) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var name = sockaddr_un()
    name.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &name.sun_path) { buffer in
        for (i, byte) in path.utf8.enumerated() { buffer[i] = byte }
    }
    let bound = withUnsafePointer(to: &name) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard fd >= 0, bound == 0, listen(fd, backlog) == 0 else {
        let failure = errno
        if fd >= 0 { close(fd) }
        throw FixtureError("cannot listen on \(path): errno \(failure)")
    }
    return fd
}
