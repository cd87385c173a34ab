import Glibc

/// The checks a cover image passes before it is stored.
package enum CoverImage {
    /// The JPEG start-of-image marker followed by the start of the next marker.
    static let jpegMagic: [UInt8] = [0xFF, 0xD8, 0xFF]
    /// The PNG file signature.
    package static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Accepts JPEG or PNG bytes (by magic number) of at most `Limits.maxCoverBytes`, whose
    /// header states no side over `Limits.maxCoverSide` pixels.
    ///
    /// Empty bytes are rejected here: callers treat an empty cover as "keep none" before
    /// validating.
    /// - Throws: `coverRejected` saying why.
    package static func validate(_ bytes: [UInt8]) throws(ComicError) {
        guard !bytes.isEmpty else {
            throw ComicError(.coverRejected, "cover is empty")
        }
        guard bytes.count <= Limits.maxCoverBytes else {
            throw ComicError(.coverRejected, "cover is \(bytes.count) bytes, more than \(Limits.maxCoverBytes)")
        }
        guard bytes.starts(with: jpegMagic) || bytes.starts(with: pngSignature) else {
            throw ComicError(.coverRejected, "cover is neither JPEG nor PNG")
        }
        try validateSize(bytes)
    }

    /// - Throws: `coverRejected` when the header states a side over `Limits.maxCoverSide` pixels.
    ///   A header that states none passes: the decoder refuses such a file on its own.
    package static func validateSize(_ bytes: [UInt8]) throws(ComicError) {
        guard let (width, height) = dimensions(bytes), max(width, height) > Limits.maxCoverSide else { return }
        throw ComicError(.coverRejected, "cover is \(width)×\(height) pixels, more than \(Limits.maxCoverSide) a side")
    }

    /// The width and height a PNG's IHDR or a JPEG's first SOF marker states, read from the
    /// header without decoding; nil when the bytes state none.
    static func dimensions(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        func big16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func big32(_ at: Int) -> Int { big16(at) << 16 | big16(at + 2) }
        if bytes.starts(with: pngSignature) {
            // Signature, then the IHDR chunk: length (4), "IHDR", width (4), height (4).
            guard bytes.count >= 24, bytes[12...15].elementsEqual("IHDR".utf8) else { return nil }
            return (big32(16), big32(20))
        }
        guard bytes.starts(with: jpegMagic) else { return nil }
        var i = 2
        while i + 1 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            switch marker {
            case 0xFF: i += 1 // fill byte
            case 0x01, 0xD0...0xD7: i += 2 // no length
            case 0xD9, 0xDA: return nil // end of image, or the scan began without a frame header
            default:
                guard i + 3 < bytes.count else { return nil }
                let length = big16(i + 2)
                // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    guard length >= 7, i + 8 < bytes.count else { return nil }
                    return (big16(i + 7), big16(i + 5))
                }
                guard length >= 2 else { return nil }
                i += 2 + length
            }
        }
        return nil
    }

    /// Reads a cover from a file (at most one byte past the limit, so an oversized file is
    /// recognised without reading it all) and validates it.
    /// - Throws: `coverRejected` naming the file and saying why.
    package static func read(path: String) throws(ComicError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ComicError(.coverRejected, "cannot read the cover \(path): \(Posix.describe(errno))")
        }
        defer { _ = close(fd) }
        let bytes: [UInt8]
        switch Posix.readUpTo(fd, limit: Limits.maxCoverBytes + 1) {
        case .success(let read): bytes = read
        case .failure(let error): throw ComicError(.coverRejected, "cannot read the cover \(path): \(error.text)")
        }
        do {
            try validate(bytes)
        } catch {
            throw ComicError(.coverRejected, "\(path): \(error.message)")
        }
        return bytes
    }
}
