/// Small URL helpers for what the site's markup links to.
enum SiteURL {
    /// The page number of a link to `page-N.html` (relative or absolute, any query or fragment
    /// after it), or nil. N is decimal without sign, 1…99999.
    static func pageNumber(inLink link: String) -> Int? {
        let bytes = Array(link.utf8)
        let pathEnd = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let path = bytes[..<pathEnd]
        let fileStart = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? path.startIndex
        let file = path[fileStart...]
        let prefix = Array("page-".utf8), suffix = Array(".html".utf8)
        guard file.starts(with: prefix), file.count > prefix.count + suffix.count, file.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        return number(file.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// A plain decimal page number (no sign, no leading zero, at most 5 digits), or nil.
    static func number<Digits: Collection<UInt8>>(_ digits: Digits) -> Int? {
        guard !digits.isEmpty, digits.count <= 5, digits.first != UInt8(ascii: "0"),
              digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// The integers written in `text` (runs of ASCII digits, at most 9 digits each), in order.
    static func integers(in text: String) -> [Int] {
        var result: [Int] = []
        var current = 0, digits = 0
        for byte in text.utf8 {
            if (0x30...0x39).contains(byte) {
                if digits < 9 { current = current * 10 + Int(byte - 0x30) }
                digits += 1
            } else if digits > 0 {
                if digits <= 9 { result.append(current) }
                current = 0
                digits = 0
            }
        }
        if digits > 0, digits <= 9 { result.append(current) }
        return result
    }

    /// `reference` resolved against the page at `base` (an absolute http(s) URL): absolute
    /// http(s) references are kept, `//host/…`, `/path` and relative paths are resolved. Anything
    /// else (`javascript:`, `data:`, control characters) gives nil.
    static func resolve(_ reference: String, against base: String) -> String? {
        let trimmed = reference.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 2048, !trimmed.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return trimmed }
        guard let schemeEnd = base.firstRange(of: "://") else { return nil }
        let scheme = base[..<schemeEnd.lowerBound]
        let afterScheme = base[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let origin = base[..<authorityEnd]
        if trimmed.hasPrefix("//") { return scheme + ":" + trimmed }
        if trimmed.hasPrefix("/") { return origin + trimmed }
        // A scheme of its own ("javascript:", "data:", "mailto:") before any '/': not a page resource.
        if let colon = trimmed.firstIndex(of: ":"), !trimmed[..<colon].contains("/") { return nil }
        let path = afterScheme[authorityEnd...]
        let pathOnly = path.prefix { $0 != "?" && $0 != "#" }
        let directory = pathOnly.lastIndex(of: "/").map { pathOnly[...$0] } ?? "/"
        return origin + directory + trimmed
    }
}
