import ComicDomain
import Testing

/// One row of the bad-input table: a message and the exact `error` of its reply.
package struct BadRequest: Sendable, CustomTestStringConvertible {
    package let name: String
    package let message: [UInt8]
    package let error: String
    package var testDescription: String { name }

    package init(_ name: String, _ message: [UInt8], _ error: String) {
        self.name = name
        self.message = message
        self.error = error
    }

    package init(_ name: String, _ text: String, _ error: String) {
        self.init(name, Array(text.utf8), error)
    }

    /// A page request for `url`.
    package static func page(_ name: String, _ url: String, _ error: String) -> BadRequest {
        BadRequest(name, #"{"type":"page","url":"\#(url)"}"#, error)
    }

    package static let site = "https://www.dragonball-multiverse.com"
    package static let languages = SiteLanguage.all.map(\.code).joined(separator: " ")

    package static let table: [BadRequest] = [
        BadRequest("zero length", [], #"empty message: expected a request such as {"type":"page","url":"…"}"#),
        BadRequest("invalid UTF-8", [0x7B, 0x22, 0xFF, 0x22, 0x7D], "the request is not valid UTF-8 at byte 2: byte 0xFF cannot start a character"),
        BadRequest("overlong UTF-8", [0x22, 0xC0, 0xAF, 0x22], "the request is not valid UTF-8 at byte 1: byte 0xC0 cannot start a character"),
        BadRequest("invalid JSON", #"{"type":"page","#, "the request is malformed JSON at byte 15: expected a string key in an object, found end of input"),
        BadRequest("trailing content", #"{"type":"page"} {}"#, "the request is malformed JSON at byte 16: unexpected '{' after the end of the document"),
        BadRequest("nesting", String(repeating: "[", count: 100), "the request is malformed JSON at byte 64: nesting deeper than 64 levels"),
        BadRequest("not an object", #"["page"]"#, "the request must be a JSON object, found an array"),
        BadRequest("no type", #"{"url":"\#(site)/en/page-1.html"}"#, #"the request has no "type""#),
        BadRequest("type not a string", #"{"type":1}"#, #"the request's "type" must be a string, found the number 1"#),
        BadRequest("unknown type", #"{"type":"history","url":"\#(site)/en/page-1.html"}"#, #"unknown request type "history": the host answers only "page""#),
        BadRequest("no url", #"{"type":"page"}"#, #"the page request has no "url""#),
        BadRequest("url not a string", #"{"type":"page","url":["x"]}"#, #"the page request's "url" must be a string, found an array"#),
        page("other host", "https://example.com/en/page-42.html",
             #"not a page of the comic's site "https://example.com/en/page-42.html": the host is not the comic's site"#),
        page("look-alike host", "https://www.dragonball-multiverse.com.evil.example/en/page-42.html",
             #"not a page of the comic's site "https://www.dragonball-multiverse.com.evil.example/en/page-42.html": the host is not the comic's site"#),
        page("other port", "https://www.dragonball-multiverse.com:8443/en/page-42.html",
             #"not a page of the comic's site "https://www.dragonball-multiverse.com:8443/en/page-42.html": the host is not the comic's site"#),
        page("user info", "https://user@www.dragonball-multiverse.com/en/page-42.html",
             #"not a page of the comic's site "https://user@www.dragonball-multiverse.com/en/page-42.html": the host is not the comic's site"#),
        page("other scheme", "file:///en/page-42.html",
             #"not a page of the comic's site "file:///en/page-42.html": the scheme must be http or https"#),
        page("other path", "\(site)/en/chapters.html",
             #"not a page of the comic's site "https://www.dragonball-multiverse.com/en/chapters.html": the path is not /<language>/page-<N>.html"#),
        page("deeper path", "\(site)/en/x/page-42.html",
             #"not a page of the comic's site "https://www.dragonball-multiverse.com/en/x/page-42.html": the path is not /<language>/page-<N>.html"#),
        page("unknown language", "\(site)/xx/page-42.html", #"unknown site language "xx": the languages are \#(languages)"#),
        page("page 0", "\(site)/en/page-0.html",
             #"not a page of the comic's site "https://www.dragonball-multiverse.com/en/page-0.html": the page number must be 1…99999 without leading zeros"#),
        page("page 100000", "\(site)/en/page-100000.html",
             #"not a page of the comic's site "https://www.dragonball-multiverse.com/en/page-100000.html": the page number must be 1…99999 without leading zeros"#),
        page("leading zero", "\(site)/en/page-042.html",
             #"not a page of the comic's site "https://www.dragonball-multiverse.com/en/page-042.html": the page number must be 1…99999 without leading zeros"#),
        page("negative page", "\(site)/en/page--4.html",
             #"not a page of the comic's site "https://www.dragonball-multiverse.com/en/page--4.html": the page number must be 1…99999 without leading zeros"#),
        page("percent-encoded", "\(site)/en/page-4%32.html",
             #"not a page of the comic's site "https://www.dragonball-multiverse.com/en/page-4%32.html": the page number must be 1…99999 without leading zeros"#),
        BadRequest("control characters", #"{"type":"page","url":"https://example.com/\u001b[2J\n"}"#,
                   #"not a page of the comic's site "https://example.com/\u{1B}[2J\n": the host is not the comic's site"#),
    ]
}
