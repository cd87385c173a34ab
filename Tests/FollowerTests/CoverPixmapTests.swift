@testable import ComicDomain
import DBusTestSupport
import DesktopTestSupport
@testable import Follower
import Foundation
import Testing

/// The cover as the tooltip's pixmap: JPEG and PNG decoded (libjpeg, libpng loaded for the
/// decode), scaled down to fit 128 × 128, as ARGB32 in network byte order; bad files rejected
/// with a reason, never decoded past their limits.
@Suite(.timeLimit(.minutes(1))) final class CoverPixmapTests {
    let directory: String

    init() throws { directory = try makeTemporaryDirectory("dbm-covers") }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Writes `bytes` to a file of the test's folder and returns its path.
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The pixel at x, y as A R G B.
    static func pixel(_ pixmap: IconPixmap, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * Int(pixmap.width) + x) * 4
        return Array(pixmap.argb[offset..<offset + 4])
    }

    static func close(_ a: [UInt8], _ b: [UInt8], within tolerance: Int = 6) -> Bool {
        zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    @Test func aSmallJPEGKeepsItsSize() throws {
        let pixmap = try CoverPixmap.decode(path: try file("red.jpg", ImageFixtures.redJPEG))
        #expect(pixmap.width == 60 && pixmap.height == 80)
        #expect(pixmap.argb.count == 60 * 80 * 4)
        #expect(Self.close(Self.pixel(pixmap, 0, 0), [255, 254, 0, 0]), "\(Self.pixel(pixmap, 0, 0))")
        #expect(Self.close(Self.pixel(pixmap, 59, 79), [255, 254, 0, 0]))
    }

    @Test func aLargeJPEGIsScaledToFitKeepingItsShape() throws {
        let pixmap = try CoverPixmap.decode(path: try file("tall.jpg", ImageFixtures.tallGreenJPEG))
        #expect(pixmap.width == 64 && pixmap.height == 128, "300×600 fits 128×128 as 64×128")
        #expect(pixmap.argb.count == 64 * 128 * 4)
        #expect(Self.close(Self.pixel(pixmap, 31, 64), [255, 0, 255, 1]), "\(Self.pixel(pixmap, 31, 64))")
        let small = try CoverPixmap.decode(path: try file("tall2.jpg", ImageFixtures.tallGreenJPEG), maxSide: 10)
        #expect(small.width == 5 && small.height == 10)
    }

    @Test func aGrayscaleJPEGBecomesGrayARGB() throws {
        let pixmap = try CoverPixmap.decode(path: try file("gray.jpg", ImageFixtures.grayJPEG))
        #expect(pixmap.width == 128 && pixmap.height == 64)
        let top = Self.pixel(pixmap, 64, 0), bottom = Self.pixel(pixmap, 64, 63)
        #expect(top[0] == 255 && top[1] == top[2] && top[2] == top[3] && top[1] < 20, "\(top)")
        #expect(bottom[1] == bottom[2] && bottom[2] == bottom[3] && bottom[1] > 235, "\(bottom)")
    }

    @Test func aPalettePNGWithTransparencyKeepsItsAlpha() throws {
        let pixmap = try CoverPixmap.decode(path: try file("half.png", ImageFixtures.halfBluePNG))
        #expect(pixmap.width == 40 && pixmap.height == 20)
        #expect(Self.pixel(pixmap, 0, 0) == [255, 0, 0, 255])
        #expect(Self.pixel(pixmap, 19, 19) == [255, 0, 0, 255])
        #expect(Self.pixel(pixmap, 20, 0) == [0, 0, 0, 0])
        // Scaled by half, each pixel averages two by two: the edge stays sharp here.
        let half = try CoverPixmap.decode(path: try file("half2.png", ImageFixtures.halfBluePNG), maxSide: 20)
        #expect(half.width == 20 && half.height == 10)
        #expect(Self.pixel(half, 9, 5) == [255, 0, 0, 255] && Self.pixel(half, 10, 5) == [0, 0, 0, 0])
    }

    @Test func badCoversAreRejectedWithTheirReason() throws {
        func reason(_ path: String) -> String {
            do {
                _ = try CoverPixmap.decode(path: path)
                return "decoded"
            } catch {
                #expect(error.kind == .coverRejected)
                return error.message
            }
        }
        #expect(reason(directory + "/missing.jpg").contains("cannot open"))
        #expect(reason(directory).contains("not a regular file"))
        #expect(reason(try file("text.jpg", Array("not an image at all".utf8))).contains("neither JPEG nor PNG"))
        #expect(reason(try file("short.png", [0x89, 0x50])).contains("too short"))
        #expect(reason(try file("interlaced.png", ImageFixtures.interlacedPNG)).contains("interlaced"))
        // A JPEG whose markers are garbage and a PNG whose data is damaged: libjpeg's and
        // libpng's errors, not a crash. (A JPEG cut short decodes: libjpeg fills in the rest.)
        let garbage = reason(try file("garbage.jpg", [0xFF, 0xD8, 0xFF] + Array(repeating: 0x17, count: 64)))
        #expect(garbage.hasPrefix("cannot decode the cover") && garbage.contains("damaged JPEG"), "\(garbage)")
        let cut = try CoverPixmap.decode(path: try file("cut.jpg", Array(ImageFixtures.tallGreenJPEG.prefix(600))))
        #expect(cut.width == 64 && cut.height == 128)
        var damaged = ImageFixtures.halfBluePNG
        damaged[damaged.count - 20] ^= 0xFF
        #expect(reason(try file("damaged.png", damaged)).contains("PNG"))
        // An image too large to decode is refused from its header: 20000 × 8 in the IHDR.
        var huge = ImageFixtures.halfBluePNG
        huge.replaceSubrange(16..<24, with: [0x00, 0x00, 0x4E, 0x20, 0x00, 0x00, 0x00, 0x08])
        #expect(reason(try file("huge.png", huge)).contains("20000×8 pixels, more than 4096 a side"))
        // A FIFO in the cover's place does not block.
        let fifo = directory + "/fifo.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(reason(fifo).contains("not a regular file"))
        // Over the cover size limit: refused before reading.
        let big = directory + "/big.jpg"
        #expect(FileManager.default.createFile(atPath: big, contents: Data(ImageFixtures.redJPEG)))
        #expect(truncate(big, off_t(Limits.maxCoverBytes + 1)) == 0)
        #expect(reason(big).contains("more than"))
    }

    @Test func theFileIdentityChangesWhenTheCoverIsReplaced() throws {
        let path = try file("cover.jpg", ImageFixtures.redJPEG)
        let first = try #require(FileIdentity(path: path))
        #expect(FileIdentity(path: path) == first)
        // As the service stores a cover: a new file renamed over the old one.
        let next = try file("cover.new", ImageFixtures.tallGreenJPEG)
        #expect(rename(next, path) == 0)
        #expect(FileIdentity(path: path) != first)
        #expect(FileIdentity(path: "") == nil && FileIdentity(path: directory + "/none") == nil)
    }

    /// Issue 30, defect 7: the tray decoded whatever the cover file declared (a 16384×16384 PNG
    /// stalled its loop ~2.7 s). The header's size is checked first, without decoding.
    @Test func aCoverStatingTooManyPixelsIsNotDecoded() throws {
        let png = CoverImage.pngSignature + [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0x40, 0, 0, 0, 0x40, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        let error = #expect(throws: ComicError.self) { try CoverPixmap.decode(path: try self.file("huge.png", png)) }
        #expect(error?.kind == .coverRejected && error?.message.contains("16384×16384 pixels, more than 4096 a side") == true,
                "\(String(describing: error))")
    }
}
