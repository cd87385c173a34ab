import DBusTestSupport
import Foundation
import Glibc

/// A minimal HTTP/1.1 server on 127.0.0.1 standing in for the comic's site in browser tests: the
/// browsers reach it under the real host names (Chromium's `--host-resolver-rules`, or Firefox's
/// proxy settings, which send absolute-form targets such as `GET http://host/path`).
///
/// Serves `pages` (path → HTML) with 200 and everything else with 404; records every request.
/// One thread per connection, each read bounded by a timeout; `stop()` ends them all.
/// (To be replaced by the site fixture server, `SiteTestSupport`, once it lands.)
///
/// `@unchecked Sendable`: `requests`, `connections` and `stopped` are only touched under `lock`.
final class LoopbackSite: @unchecked Sendable {
    /// One request as the server saw it.
    struct Request: Sendable, Equatable, CustomStringConvertible {
        let method: String
        /// The `Host` header (for an absolute-form target, the target's host).
        let host: String
        /// The path and query.
        let path: String
        var description: String { "\(method) \(host)\(path)" }
    }

    let port: UInt16
    private let listener: Int32
    private let pages: [String: String]
    private let lock = NSCondition()
    private var recorded: [Request] = []
    private var connections: Set<Int32> = []
    private var acceptorDone = false
    private var stopped = false

    init(pages: [String: String]) throws {
        self.pages = pages
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw FixtureError("bind/listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        detachIOThread { [self] in acceptConnections() }
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>`.
    var origin: String { "http://127.0.0.1:\(port)" }

    /// The requests so far.
    var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Waits until a request satisfies `predicate`, within `timeout`.
    @discardableResult
    func waitForRequest(timeout: TimeInterval = 20, _ what: String, where predicate: (Request) -> Bool) throws -> Request {
        try lock.waitForValue(timeout: timeout, failure: { "no request for \(what) within \(timeout) s; requests: \(recorded)" }) {
            recorded.first(where: predicate)
        }
    }

    /// Stops accepting, ends open connections and waits for the acceptor thread.
    func stop() {
        lock.lock()
        guard !stopped else {
            lock.unlock()
            return
        }
        stopped = true
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        lock.unlock()
        // Wakes the blocked accept(), which then fails and ends its loop.
        shutdown(listener, Int32(SHUT_RDWR))
        let deadline = Date().addingTimeInterval(5)
        lock.lock()
        while !acceptorDone, lock.wait(until: deadline) {}
        lock.unlock()
        close(listener)
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0, errno == EINTR { continue }
            if connection >= 0 { _ = fcntl(connection, F_SETFD, FD_CLOEXEC) }
            lock.lock()
            guard connection >= 0, !stopped else {
                if connection >= 0 { close(connection) }
                acceptorDone = true
                lock.broadcast()
                lock.unlock()
                return
            }
            connections.insert(connection)
            lock.unlock()
            detachIOThread { [self] in
                serve(connection)
                lock.lock()
                connections.remove(connection)
                lock.unlock()
                close(connection)
            }
        }
    }

    /// Answers requests on one connection until the peer closes it, goes quiet for 10 s, or stop().
    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            guard let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) else {
                let count = read(connection, &chunk, chunk.count)
                guard count > 0, pending.count < 64 * 1024 else { return }
                pending += chunk[..<count]
                continue
            }
            let head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
            pending.removeSubrange(..<end.upperBound)
            guard respond(to: head, on: connection) else { return }
        }
    }

    /// Writes the response to one request head; false when the connection should close.
    private func respond(to head: String, on connection: Int32) -> Bool {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count == 3 else { return false }
        let method = String(parts[0])
        var target = String(parts[1])
        var host = lines.dropFirst().first { $0.lowercased().hasPrefix("host:") }
            .map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) } ?? ""
        // Absolute form, as sent to a proxy: http://host[:port]/path.
        if target.hasPrefix("http://") {
            let rest = target.dropFirst(7)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            host = String(rest[..<slash])
            target = slash == rest.endIndex ? "/" : String(rest[slash...])
        }
        lock.publish { recorded.append(Request(method: method, host: host, path: target)) }

        let path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        let page = method == "GET" ? pages[path] : nil
        let status = page != nil ? "200 OK" : (method == "GET" ? "404 Not Found" : "405 Method Not Allowed")
        let body = Array((page ?? "not found\n").utf8)
        let type = page != nil ? "text/html; charset=utf-8" : "text/plain; charset=utf-8"
        let response = Array("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nCache-Control: no-store\r\n\r\n".utf8) + body
        var written = 0
        while written < response.count {
            let count = response[written...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            written += count
        }
        return method == "GET"
    }
}
