import CImageDecoding
import ComicDomain
import Glibc

/// The cover as the tray's tooltip shows it: the JPEG or PNG file decoded and scaled down to fit
/// `maxSide × maxSide`, as an ARGB32 pixmap. Decoding loads libjpeg or libpng for its own
/// duration only (see CImageDecoding.h), so a notifier whose cover never changes never maps them.
enum CoverPixmap {
    /// The longest side of the pixmap: large enough for a tooltip, 64 KiB at most.
    static let maxSide = 128

    /// The pixmap of the cover at `path`.
    /// - Throws: `coverRejected` saying why: the file can't be opened, is not a regular file, is
    ///   over `Limits.maxCoverBytes`, states more than `Limits.maxCoverSide` pixels a side, or
    ///   does not decode.
    static func decode(path: String, maxSide: Int = maxSide) throws(ComicError) -> IconPixmap {
        // Non-blocking: a FIFO put in the cover's place must not hang the notifier's loop.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ComicError(.coverRejected, "cannot open the cover \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw ComicError(.coverRejected, "the cover \(path) is not a regular file")
        }
        guard status.st_size <= Limits.maxCoverBytes else {
            throw ComicError(.coverRejected, "the cover \(path) is \(status.st_size) bytes, more than \(Limits.maxCoverBytes)")
        }
        // The pixel limit from the header, without decoding: a small file can declare an image
        // whose decoding would stall the loop for seconds.
        switch Posix.readUpTo(fd, limit: Limits.maxCoverBytes) {
        case .success(let bytes):
            do throws(ComicError) {
                try CoverImage.validateSize(bytes)
            } catch {
                throw ComicError(.coverRejected, "the cover \(path): \(error.message)")
            }
        case .failure(let error):
            throw ComicError(.coverRejected, "cannot read the cover \(path): \(error.text)")
        }
        guard lseek(fd, 0, SEEK_SET) == 0 else {
            throw ComicError(.coverRejected, "cannot read the cover \(path): \(String(cString: strerror(errno)))")
        }
        var image = cimage_pixmap()
        var reason = [CChar](repeating: 0, count: 256)
        let decoded = reason.withUnsafeMutableBufferPointer { cimage_decode(fd, Int32(maxSide), &image, $0.baseAddress, $0.count) }
        guard decoded == 0, let pixels = image.pixels else {
            let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ComicError(.coverRejected, "cannot decode the cover \(path): \(text)")
        }
        defer { cimage_free(pixels) }
        let count = Int(image.width) * Int(image.height) * 4
        return IconPixmap(width: image.width, height: image.height, argb: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }
}
