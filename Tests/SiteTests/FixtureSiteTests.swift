import Foundation
import Glibc
import SiteTestSupport
import Testing
import TestingTraits

/// The fixture site as the browser tests use it: under any host name, and as an HTTP proxy.
@Suite(.timeLimit(.minutes(10)), .offThePool)
struct FixtureSiteTests {
    private struct SocketFailure: Error {
        let call: String
        let code: Int32
    }

    /// Sends `head` (a request without body) on a new connection and returns the whole response.
    private func exchange(_ head: String, port: Int) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketFailure(call: "socket", code: errno) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw SocketFailure(call: "connect", code: errno) }
        let request = Array(head.utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw SocketFailure(call: "send", code: errno)
        }
        var response: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            response += buffer[..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }

    @Test func anyHostAndAbsoluteFormTargetsAreServedAndRecorded() throws {
        let site = try FixtureSite()
        defer { site.stop() }
        site.serve("/en/page-42.html", .content(body: Array("page 42".utf8), contentType: "text/html"))

        let direct = try exchange("GET /en/page-42.html HTTP/1.1\r\nHost: www.dragonball-multiverse.com\r\n\r\n", port: site.port)
        #expect(direct.hasPrefix("HTTP/1.1 200 OK\r\n") && direct.hasSuffix("\r\n\r\npage 42"), "\(direct)")
        let proxied = try exchange("GET http://dragonball-multiverse.com/en/page-42.html HTTP/1.1\r\nHost: dragonball-multiverse.com\r\n\r\n",
                                   port: site.port)
        #expect(proxied.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(proxied)")
        let other = try exchange("HEAD http://example.org HTTP/1.1\r\n\r\n", port: site.port)
        #expect(other.hasPrefix("HTTP/1.1 404 Not Found\r\n"), "\(other)")

        #expect(site.requests.map(\.description) == [
            "GET www.dragonball-multiverse.com/en/page-42.html",
            "GET dragonball-multiverse.com/en/page-42.html",
            "HEAD example.org/",
        ])
        #expect(site.count("/en/page-42.html") == 2)
        let found = try site.waitForRequest(within: 1, "example.org") { $0.host == "example.org" }
        #expect(found.method == "HEAD")
    }

    @Test func waitingForARequestThatNeverComesEndsWithTheRequestsSeen() throws {
        let site = try FixtureSite()
        defer { site.stop() }
        _ = try exchange("GET /flux.rss.php?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: site.port)
        let error = #expect(throws: FixtureSiteError.self) {
            try site.waitForRequest(within: 0.2, "page 7") { $0.target == "/en/page-7.html" }
        }
        #expect(error?.description == "no request for page 7 within 0.2 s; requests: [GET 127.0.0.1/flux.rss.php?lang=en]")
    }
}
