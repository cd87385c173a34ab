package import ComicDomain
import EventLoop

/// Everything a site command needs to know: where the site is, where state is kept, the limits,
/// the clock and where warnings go. Tests inject the clock and short limits.
package struct SiteConfiguration: Sendable {
    package var origin: SiteOrigin
    package var folder: DataFolder
    package var limits: FetchLimits
    /// The wall clock, Unix seconds (by default the system's).
    package var now: @Sendable () -> Int64
    /// Non-fatal problems (a corrupt request log, a rejected cover); one line each.
    package var warn: @Sendable (String) -> Void

    package init(origin: SiteOrigin, folder: DataFolder, limits: FetchLimits = .standard,
                now: (@Sendable () -> Int64)? = nil,
                warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.origin = origin
        self.folder = folder
        self.limits = limits
        self.now = now ?? { EventLoop.unixTime() }
        self.warn = warn
    }

    /// The test-only variable that shortens the total timeout (milliseconds), so a test of a
    /// trickling server does not wait 30 s. Documented in README's Development section.
    static let totalTimeoutVariable = "DBMULTIVERSE_SITE_TIMEOUT_MS"

    /// The configuration of a command run with `environment`: the site or its override, the data
    /// folder, the standard limits (the total timeout overridable for tests).
    /// - Throws: `invalidOption` for an invalid `$DBMULTIVERSE_SITE_URL` or timeout value.
    package static func resolve(environment: [String: String], warn: @escaping @Sendable (String) -> Void) throws(ComicError) -> SiteConfiguration {
        var limits = FetchLimits.standard
        if let value = environment[totalTimeoutVariable], !value.isEmpty {
            guard let milliseconds = Int(value), (1...FetchLimits.standard.totalTimeoutMilliseconds).contains(milliseconds) else {
                throw ComicError(.invalidOption, "\(totalTimeoutVariable) must be 1…\(FetchLimits.standard.totalTimeoutMilliseconds) milliseconds")
            }
            limits.totalTimeoutMilliseconds = milliseconds
            limits.connectTimeoutMilliseconds = min(limits.connectTimeoutMilliseconds, milliseconds)
        }
        return SiteConfiguration(origin: try SiteOrigin.resolve(environment: environment),
                                 folder: try DataFolder.resolve(environment: environment), limits: limits, warn: warn)
    }
}

/// Requests to the comic's site with its politeness rules (docs/usage.md#the-comics-site): the identifying
/// User-Agent, at most one request per URL per 15 minutes unless a caller may skip that, and no
/// request at all before a Retry-After deadline has passed (remembered across runs). One per command.
final class SiteClient {
    /// The shortest time between two requests for one URL.
    static let minimumInterval: Int64 = 15 * 60
    /// The longest Retry-After honoured: a site that asks for more is asked again after a day.
    static let maximumRetryAfter: Int64 = 24 * 60 * 60
    /// Body caps, counted after decompression.
    static let markupLimit = 4 * 1024 * 1024
    static let imageLimit = Limits.maxCoverBytes

    enum Rate {
        /// The 15-minute rule applies.
        case polite
        /// `--force`, or a page past the catalogue's end: only Retry-After holds it back.
        case skipInterval
    }

    enum Outcome {
        case fetched(HTTPResponse)
        case notModified
        /// Not asked: it was asked `secondsAgo` seconds ago.
        case askedRecently(secondsAgo: Int64)
    }

    let configuration: SiteConfiguration
    private let fetcher: HTTPFetcher
    private(set) var log: RequestLog
    /// How many requests went out (for the summary and the benchmark).
    private(set) var requestCount = 0

    init(_ configuration: SiteConfiguration) {
        self.configuration = configuration
        fetcher = HTTPFetcher(limits: configuration.limits,
                              protocols: configuration.origin.scheme == "http" ? "http,https" : "https",
                              userAgent: ProjectInfo.userAgent)
        log = RequestLog.load(from: configuration.folder, warn: configuration.warn)
    }

    func url(_ path: String) -> String { configuration.origin.url(path: path) }

    /// GETs `url` (absolute) under the politeness rules, with the validators given.
    /// - Throws: `retryLater` before a Retry-After deadline or on 429/503; `httpStatus` on any
    ///   status but 200 and 304; the transport's errors.
    func get(_ url: String, etag: String? = nil, lastModified: String? = nil, bodyLimit: Int, rate: Rate) throws(SiteError) -> Outcome {
        let now = configuration.now()
        if let entry = log.entries[url] {
            if let deadline = entry.retryAfter, deadline > now {
                throw SiteError(.retryLater, "\(url): the site asked us to wait until \(utcTime(deadline)) (Retry-After); not asking before then")
            }
            if rate == .polite, now >= entry.lastRequest, now - entry.lastRequest < Self.minimumInterval {
                return .askedRecently(secondsAgo: now - entry.lastRequest)
            }
        }
        let response = try fetcher.fetch(HTTPRequest(url: url, etag: etag, lastModified: lastModified, bodyLimit: bodyLimit))
        requestCount += 1
        var entry = log.entries[url] ?? RequestLog.Entry(lastRequest: now)
        entry.lastRequest = now
        entry.retryAfter = nil
        var waitNote = ""
        if response.status == 429 || response.status == 503, let header = response.retryAfter,
           let deadline = Self.retryDeadline(header, now: now) {
            entry.retryAfter = min(deadline, now + Self.maximumRetryAfter)
            waitNote = "; the site asks to wait until \(utcTime(entry.retryAfter ?? now)) (Retry-After)"
        }
        log.entries[url] = entry
        log.prune()
        saveLog()
        switch response.status {
        case 200: return .fetched(response)
        case 304: return .notModified
        case 429, 503: throw SiteError(.retryLater, "\(url): HTTP \(response.status)\(waitNote)")
        default: throw SiteError(.httpStatus, "\(url): HTTP \(response.status)")
        }
    }

    /// The validators stored for `url` (the feed's), and records new ones after its content was used.
    func validators(for url: String) -> (etag: String?, lastModified: String?) {
        (log.entries[url]?.etag, log.entries[url]?.lastModified)
    }

    func remember(_ response: HTTPResponse, for url: String) {
        guard var entry = log.entries[url] else { return }
        entry.etag = response.etag.flatMap(Self.usableValidator)
        entry.lastModified = response.lastModified.flatMap(Self.usableValidator)
        log.entries[url] = entry
        saveLog()
    }

    /// A validator worth sending back: short, printable, no line breaks (header injection).
    static func usableValidator(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= Catalogue.maxURLBytes, text.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return nil }
        return text
    }

    private func saveLog() {
        do {
            try log.save(to: configuration.folder)
        } catch {
            configuration.warn("cannot record the site requests: \(error.message)")
        }
    }

    /// The deadline a Retry-After value names: delay-seconds, or an HTTP date (IMF-fixdate).
    static func retryDeadline(_ value: String, now: Int64) -> Int64? {
        let text = value.trimmingWhitespace()
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard text.utf8.count <= 9, let seconds = Int64(text) else { return now + maximumRetryAfter }
            return now + seconds
        }
        return HTTPDate.parse(text)
    }
}

/// "2026-11-23 18:05 UTC".
func utcTime(_ unixSeconds: Int64) -> String { UTCTime(unixSeconds: unixSeconds).description }

/// HTTP dates in the IMF-fixdate form, `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110).
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Unix seconds, or nil when `text` is not an IMF-fixdate.
    static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int64(parts[1]), (1...31).contains(day),
              let month = months.firstIndex(of: parts[2].lowercased()),
              let year = Int64(parts[3]), (1970...9999).contains(year) else { return nil }
        let time = parts[4].split(separator: ":")
        guard time.count == 3, let hour = Int64(time[0]), let minute = Int64(time[1]), let second = Int64(time[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        return days(year: year, month: Int64(month) + 1, day: day) * 86400 + hour * 3600 + minute * 60 + second
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}
