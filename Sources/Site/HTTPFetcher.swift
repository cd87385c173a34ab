import ComicDomain
import CSiteLibraries

/// One HTTP GET.
struct HTTPRequest: Sendable {
    var url: String
    /// Sent back exactly as received, in `If-None-Match` and `If-Modified-Since`.
    var etag: String?
    var lastModified: String?
    /// The most body bytes accepted, counted after decompression.
    var bodyLimit: Int
}

/// What the server answered (after redirects).
struct HTTPResponse: Sendable {
    var status: Int
    var body: [UInt8]
    /// The final response's headers of interest, as received.
    var etag: String?
    var lastModified: String?
    var retryAfter: String?
    var contentType: String?
}

/// How long and how far a request may go (docs/usage.md#the-comics-site: connect 10 s, total 30 s, 5 redirects).
package struct FetchLimits: Sendable, Equatable {
    var connectTimeoutMilliseconds: Int
    var totalTimeoutMilliseconds: Int
    var maxRedirects: Int

    package static let standard = FetchLimits(connectTimeoutMilliseconds: 10_000, totalTimeoutMilliseconds: 30_000, maxRedirects: 5)

    package init(connectTimeoutMilliseconds: Int, totalTimeoutMilliseconds: Int, maxRedirects: Int) {
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.totalTimeoutMilliseconds = totalTimeoutMilliseconds
        self.maxRedirects = maxRedirects
    }
}

/// HTTP over libcurl, one easy handle per request: the User-Agent, conditional headers, redirects
/// over http(s) only, timeouts, any compression libcurl knows, and the body cap counted after
/// decompression in the write callback (a compressed body may come without Content-Length).
/// Proxies come from the environment as libcurl reads them (`http_proxy`, `https_proxy`, …).
struct HTTPFetcher: Sendable {
    var limits: FetchLimits
    /// `http,https` when the origin is http (the override), else `https`.
    var protocols: String
    var userAgent: String

    /// Performs `request`. Any HTTP status comes back as a response; the transport's failures throw.
    /// - Throws: `network`, `timeout`, `tooLarge`, `badRedirect` or `libraryMissing`, naming the URL.
    func fetch(_ request: HTTPRequest) throws(SiteError) -> HTTPResponse {
        try Libraries.loadCurl()
        guard let handle = csite_curl_easy_init() else { throw SiteError(.network, "\(request.url): libcurl cannot start a transfer") }
        defer { csite_curl_easy_cleanup(handle) }
        let transfer = Transfer(limit: request.bodyLimit)
        let context = Unmanaged.passRetained(transfer)
        defer { context.release() }

        var headers: UnsafeMutablePointer<curl_slist>?
        defer { csite_curl_slist_free_all(headers) }
        if let etag = request.etag { headers = csite_curl_slist_append(headers, "If-None-Match: \(etag)") }
        if let lastModified = request.lastModified { headers = csite_curl_slist_append(headers, "If-Modified-Since: \(lastModified)") }

        var setup = [
            csite_curl_setopt_string(handle, CURLOPT_URL, request.url),
            csite_curl_setopt_string(handle, CURLOPT_USERAGENT, userAgent),
            csite_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, protocols),
            csite_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, protocols),
            csite_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1),
            csite_curl_setopt_long(handle, CURLOPT_MAXREDIRS, limits.maxRedirects),
            csite_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, limits.connectTimeoutMilliseconds),
            csite_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, limits.totalTimeoutMilliseconds),
            csite_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), // no SIGALRM for DNS timeouts: thread-safe
            csite_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""), // every encoding libcurl decodes
            // Refused early when Content-Length says so; the write callback counts the rest.
            csite_curl_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.bodyLimit)),
            csite_curl_setopt_write_callback(handle, writeBody, context.toOpaque()),
            csite_curl_setopt_header_callback(handle, readHeader, context.toOpaque()),
        ]
        if let headers { setup.append(csite_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)) }
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            throw SiteError(.network, "\(request.url): libcurl rejected an option: \(describe(failed))")
        }

        let code = csite_curl_easy_perform(handle)
        if transfer.exceeded || code == CURLE_FILESIZE_EXCEEDED {
            throw SiteError(.tooLarge, "\(request.url): the response is larger than \(request.bodyLimit / 1024 / 1024) MiB")
        }
        guard code == CURLE_OK else { throw failure(code, url: request.url) }
        var status = 0
        csite_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, body: transfer.body, etag: transfer.headers["etag"],
                            lastModified: transfer.headers["last-modified"], retryAfter: transfer.headers["retry-after"],
                            contentType: transfer.headers["content-type"])
    }

    private func failure(_ code: CURLcode, url: String) -> SiteError {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            SiteError(.timeout, "\(url): no complete answer within \(limits.totalTimeoutMilliseconds / 1000) s (connect limit \(limits.connectTimeoutMilliseconds / 1000) s)")
        case CURLE_TOO_MANY_REDIRECTS:
            SiteError(.badRedirect, "\(url): more than \(limits.maxRedirects) redirects (or a redirect loop)")
        case CURLE_UNSUPPORTED_PROTOCOL:
            SiteError(.badRedirect, "\(url): redirected to a URL that is not \(protocols.replacingComma()); refused")
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            SiteError(.network, "\(url): cannot reach the site (\(describe(code)))")
        default:
            SiteError(.network, "\(url): \(describe(code))")
        }
    }

    private func describe(_ code: CURLcode) -> String {
        csite_curl_easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
    }
}

private extension String {
    func replacingComma() -> String { split(separator: ",").joined(separator: " or ") }
}

/// The state of one transfer, reached from libcurl's callbacks through their context pointer.
private final class Transfer {
    let limit: Int
    var body: [UInt8] = []
    var exceeded = false
    /// The last response's headers, lower-cased names (a redirect's headers are dropped when the
    /// next status line comes).
    var headers: [String: String] = [:]

    init(limit: Int) { self.limit = limit }
}

/// libcurl's write callback: appends decompressed body bytes, stops the transfer past the cap.
private let writeBody: csite_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard transfer.body.count + length <= transfer.limit else {
        transfer.exceeded = true
        return 0 // a short write makes libcurl abort with CURLE_WRITE_ERROR
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

/// libcurl's header callback: one header line per call.
private let readHeader: csite_write_callback = { data, size, count, context in
    let length = size * count
    guard let data, let context else { return length }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
        transfer.headers = [:]
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        transfer.headers[name] = value
    }
    return length
}

extension StringProtocol {
    /// The text without whitespace and line breaks at both ends.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
