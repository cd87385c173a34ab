/// The valid ranges of the shared storage and the widget interface (docs/storage.md).
package enum Limits {
    /// Chapter numbers.
    package static let chapters: ClosedRange<Int> = 1...99999
    /// Read progress in percent.
    package static let progress: ClosedRange<Int> = 0...100
    /// Chapter name length in characters (graphemes), after trimming whitespace and newlines at
    /// both ends.
    package static let nameLength: ClosedRange<Int> = 1...256
    /// Largest chapter name in Unicode scalars and in UTF-8 bytes (after trimming): one character
    /// can hold any number of combining marks, so the character count alone bounds nothing.
    /// Escaped as JSON (at most 6 bytes a scalar) a name stays far below `maxChapterFileBytes`.
    static let maxNameScalars = 1024
    static let maxNameBytes = 4096
    /// Page numbers on the comic's site.
    package static let pages: ClosedRange<Int> = 1...99999
    /// Universes as written in storage and on the bus: 0 is the main story, others a special.
    static let universes: ClosedRange<Int> = 0...99999
    /// Largest `currentChapterData.json` / `widgetSyncState.json` that is read.
    static let maxChapterFileBytes = 64 * 1024
    /// Largest cover image that is stored or served.
    package static let maxCoverBytes = 8 * 1024 * 1024
    /// Longest side of a cover, in pixels, as its header states it (PNG IHDR, JPEG SOF): a small
    /// file can declare a huge image, whose decoding would stall the tray's loop for seconds.
    static let maxCoverSide = 4096

    /// "1…99999" — how ranges are written in messages.
    static func describe(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound)…\(range.upperBound)"
    }
}

extension UInt8 {
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
}

/// `text` in double quotes for an error message: control characters, quotes and backslashes
/// escaped so a hostile value cannot forge log lines, and cut after `limit` characters.
package func quotedForMessage(_ text: String, limit: Int = 80) -> String {
    var out = "\""
    var count = 0
    for scalar in text.unicodeScalars {
        if count == limit {
            out += "…"
            break
        }
        count += 1
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
