import Foundation
import Glibc

/// A loopback HTTP/1.1 server standing in for the comic's site in tests and the benchmark: it
/// serves what it is given per path, records every request (headers as sent), answers 304 to
/// matching validators, and can misbehave on purpose. Used through
/// `DBMULTIVERSE_SITE_URL=\(site.origin)`. Each connection carries one request (`Connection: close`).
///
/// It answers whatever the `Host` header names, and absolute-form targets (`GET http://host/path`)
/// as an HTTP proxy receives them, so a browser can reach it under the site's real host names
/// (Chromium's `--host-resolver-rules`, or Firefox with it as its proxy).
///
/// `@unchecked Sendable`: the routes and the records are touched only under `lock`; the listening
/// socket is set in `init` and closed once in `stop`.
package final class FixtureSite: @unchecked Sendable {
    /// A request as received.
    package struct Request: Sendable, CustomStringConvertible {
        /// `GET`, `HEAD`, …
        package let method: String
        /// The host asked for: the `Host` header, or the host of an absolute-form target.
        package let host: String
        /// The request target in origin form (path and query), e.g. `/en/page-3.html` or
        /// `/flux.rss.php?lang=en`; an absolute-form `http://host/path` is recorded as `/path`.
        package let target: String
        /// Header names lower-cased, values exactly as sent.
        package let headers: [String: String]

        package var description: String { "\(method) \(host)\(target)" }
    }

    /// What to answer for a path.
    package enum Behaviour: Sendable {
        /// A resource with optional validators (a matching If-None-Match / If-Modified-Since gets
        /// 304); `gzip` compresses it and drops Content-Length.
        case content(body: [UInt8], contentType: String, etag: String? = nil, lastModified: String? = nil, gzip: Bool = false)
        /// A bare status with optional Retry-After.
        case status(Int, retryAfter: String? = nil)
        /// A redirect (302) to `location`.
        case redirect(String)
        /// Headers at once, then one body byte per `interval` seconds.
        case trickle(interval: Double)
        /// `count` bytes of `byte`, streamed without Content-Length; gzip: compressed (a gzip bomb).
        case huge(count: Int, gzip: Bool)
        /// Accept and close without answering.
        case hangUp
    }

    package let port: Int
    package var origin: String { "http://127.0.0.1:\(port)" }

    private let listener: Int32
    private let lock = NSCondition()
    private var routes: [String: Behaviour] = [:]
    private var fallback: (@Sendable (String) -> Behaviour?)?
    private var recorded: [Request] = []
    private var stopped = false

    /// Listens on 127.0.0.1 with an ephemeral port.
    package init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FixtureSiteError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw FixtureSiteError("bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting; connections in progress end at their next write.
    package func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// A port on 127.0.0.1 where nothing listens (for "site down").
    package static func closedPort() throws -> Int {
        let site = try FixtureSite()
        let port = site.port
        site.stop()
        return port
    }

    // MARK: Content

    /// Serves `behaviour` at `target` (path and query, exactly as requested).
    package func serve(_ target: String, _ behaviour: Behaviour) {
        lock.lock()
        routes[target] = behaviour
        lock.unlock()
    }

    /// Answers targets without a route (nil: 404).
    package func serveOthers(_ handler: @escaping @Sendable (String) -> Behaviour?) {
        lock.lock()
        fallback = handler
        lock.unlock()
    }

    /// Every request so far, in arrival order.
    package var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// The requests for `target`.
    package func requests(for target: String) -> [Request] { requests.filter { $0.target == target } }

    /// How many requests came for `target`.
    package func count(_ target: String) -> Int { requests(for: target).count }

    /// Waits at most `seconds` for a request satisfying `predicate`, and returns the first.
    /// - Throws: `FixtureSiteError` naming `what` and the requests seen when none comes in time.
    @discardableResult
    package func waitForRequest(within seconds: Double = 20, _ what: String, where predicate: (Request) -> Bool) throws -> Request {
        let deadline = Date(timeIntervalSinceNow: seconds)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let request = recorded.first(where: predicate) { return request }
            guard lock.wait(until: deadline) else {
                throw FixtureSiteError("no request for \(what) within \(seconds) s; requests: \(recorded)")
            }
        }
    }

    // MARK: Serving

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return // the listener was closed
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            let thread = Thread { [self] in
                handle(connection)
                close(connection)
            }
            thread.start()
        }
    }

    private func handle(_ connection: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        lock.lock()
        recorded.append(request)
        lock.broadcast()
        let behaviour = routes[request.target] ?? fallback?(request.target)
        lock.unlock()
        guard let behaviour else {
            send(connection, status: 404, headers: [("Content-Type", "text/plain")], body: Array("not found".utf8))
            return
        }
        switch behaviour {
        case .content(let body, let contentType, let etag, let lastModified, let gzip):
            var headers = [("Content-Type", contentType)]
            if let etag { headers.append(("ETag", etag)) }
            if let lastModified { headers.append(("Last-Modified", lastModified)) }
            let notModified = (etag != nil && request.headers["if-none-match"] == etag)
                || (etag == nil && lastModified != nil && request.headers["if-modified-since"] == lastModified)
            if notModified {
                send(connection, status: 304, headers: headers, body: nil)
            } else if gzip {
                headers.append(("Content-Encoding", "gzip"))
                send(connection, status: 200, headers: headers, body: Gzip.compress(body), contentLength: false)
            } else {
                send(connection, status: 200, headers: headers, body: body)
            }
        case .status(let status, let retryAfter):
            send(connection, status: status, headers: retryAfter.map { [("Retry-After", $0)] } ?? [], body: Array("status \(status)".utf8))
        case .redirect(let location):
            send(connection, status: 302, headers: [("Location", location)], body: [])
        case .trickle(let interval):
            guard writeAll(connection, Array(head(status: 200, headers: [("Content-Type", "text/html")], contentLength: nil).utf8)) else { return }
            for byte in Array("<html><body>slow</body></html>".utf8) {
                Thread.sleep(forTimeInterval: interval)
                if isStopped || !writeAll(connection, [byte]) { return }
            }
        case .huge(let count, let gzip):
            var headers = [("Content-Type", "text/html")]
            if gzip { headers.append(("Content-Encoding", "gzip")) }
            guard writeAll(connection, Array(head(status: 200, headers: headers, contentLength: nil).utf8)) else { return }
            if gzip {
                _ = writeAll(connection, Gzip.compress([UInt8](repeating: UInt8(ascii: "a"), count: count)))
            } else {
                let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
                var sent = 0
                while sent < count, !isStopped, writeAll(connection, Array(chunk.prefix(count - sent))) { sent += chunk.count }
            }
        case .hangUp:
            return
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while data.firstRange(of: end) == nil {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0, data.count < 64 * 1024 else { return nil }
            data += buffer[0..<count]
        }
        let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var host = headers["host"] ?? "", target = String(requestLine[1])
        if target.hasPrefix("http://") { // absolute form, as a proxy receives it
            let rest = target.dropFirst("http://".count)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            host = String(rest[..<slash])
            target = slash == rest.endIndex ? "/" : String(rest[slash...])
        }
        return Request(method: String(requestLine[0]), host: host, target: target, headers: headers)
    }

    private func head(status: Int, headers: [(String, String)], contentLength: Int?) -> String {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let contentLength { text += "Content-Length: \(contentLength)\r\n" }
        return text + "\r\n"
    }

    private func send(_ connection: Int32, status: Int, headers: [(String, String)], body: [UInt8]?, contentLength: Bool = true) {
        let length = body.map { contentLength ? $0.count : nil } ?? nil
        _ = writeAll(connection, Array(head(status: status, headers: headers, contentLength: length).utf8) + (body ?? []))
    }

    private func writeAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 302: "Found"
        case 304: "Not Modified"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

package struct FixtureSiteError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
