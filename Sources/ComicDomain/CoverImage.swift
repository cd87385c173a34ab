internal import Glibc

/// The checks a cover image passes before it is stored.
public enum CoverImage {
    /// The JPEG start-of-image marker followed by the start of the next marker.
    public static let jpegMagic: [UInt8] = [0xFF, 0xD8, 0xFF]
    /// The PNG file signature.
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Accepts JPEG or PNG bytes (by magic number) of at most `Limits.maxCoverBytes`.
    ///
    /// Empty bytes are rejected here: callers treat an empty cover as "keep none" before
    /// validating.
    /// - Throws: `coverRejected` saying why.
    public static func validate(_ bytes: [UInt8]) throws(ComicError) {
        guard !bytes.isEmpty else {
            throw ComicError(.coverRejected, "cover is empty")
        }
        guard bytes.count <= Limits.maxCoverBytes else {
            throw ComicError(.coverRejected, "cover is \(bytes.count) bytes, more than \(Limits.maxCoverBytes)")
        }
        guard bytes.starts(with: jpegMagic) || bytes.starts(with: pngSignature) else {
            throw ComicError(.coverRejected, "cover is neither JPEG nor PNG")
        }
    }

    /// Reads a cover from a file (at most one byte past the limit, so an oversized file is
    /// recognised without reading it all) and validates it.
    /// - Throws: `coverRejected` naming the file and saying why.
    public static func read(path: String) throws(ComicError) -> [UInt8] {
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
