import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing

/// The pictures of README.md and docs/*.md (issue 25): each one a page links is there, a PNG small
/// enough for a page (at most 200 KiB, a crop rather than a whole screen), and one `make screenshots`
/// makes — listed in docs/images/MANIFEST, which scripts/real-hosts/screenshots.sh reads, with a check that takes
/// its screenshot and a crop it knows — so that no picture goes stale where nobody can make it again;
/// and each one it makes is linked from a page.
@Suite(.timeLimit(.minutes(1))) struct DocumentationImageTests {
    static let images = repositoryRoot.appendingPathComponent("docs/images")
    static let limit = 200 * 1024

    /// A picture `make screenshots` makes: a MANIFEST line.
    struct Made {
        let picture: String, check: String, screenshot: String, crop: String
    }

    /// The MANIFEST's lines (comments and blank lines left out).
    static func manifest() throws -> [Made] {
        let text = try String(contentsOf: images.appendingPathComponent("MANIFEST"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }.map { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            return Made(picture: fields[0], check: fields.count > 1 ? fields[1] : "", screenshot: fields.count > 2 ? fields[2] : "",
                        crop: fields.count > 3 ? fields[3] : "")
        }
    }

    /// Every picture in docs/images/ a page links (Markdown `](…)` or HTML `src="…"`, relative to the
    /// page): the picture's file name, with the page that links it.
    static func linkedPictures() throws -> [(picture: String, page: String)] {
        var linked: [(String, String)] = []
        for page in try DocumentationPages.all() {
            let text = try String(contentsOf: page, encoding: .utf8)
            for match in text.matches(of: /(?:\]\(|src=")([^)"\s]+)/) {
                let target = page.deletingLastPathComponent().appendingPathComponent(String(match.1)).standardizedFileURL
                if target.deletingLastPathComponent().path == images.standardizedFileURL.path {
                    linked.append((target.lastPathComponent, page.lastPathComponent))
                }
            }
        }
        return linked
    }

    @Test func everyLinkedPictureIsASmallPNGThatMakeScreenshotsMakes() throws {
        let made = Set(try Self.manifest().map(\.picture))
        let linked = try Self.linkedPictures()
        #expect(linked.count >= made.count, "the pages link \(linked.count) pictures")
        for (picture, page) in linked {
            let path = Self.images.appendingPathComponent(picture).path
            guard let bytes = FileManager.default.contents(atPath: path) else {
                Issue.record("\(page) links images/\(picture), which is not there (make screenshots makes it)")
                continue
            }
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(picture), linked from \(page), is not a PNG")
            #expect(bytes.count <= Self.limit, "\(picture) has \(bytes.count) bytes: more than 200 KiB")
            // IHDR's width, big-endian at bytes 16…19: a crop of what matters, not a whole screen.
            if bytes.count >= 24 {
                let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
                #expect((100...800).contains(width), "\(picture) is \(width) px wide")
            }
            #expect(made.contains(picture), "\(page) links images/\(picture), which docs/images/MANIFEST does not list: make screenshots cannot make it again")
        }
    }

    @Test func everyPictureMakeScreenshotsMakesIsThereAndLinked() throws {
        let made = try Self.manifest()
        let linked = Set(try Self.linkedPictures().map(\.picture))
        #expect(made.count >= 8, "docs/images/MANIFEST lists \(made.count) pictures")
        let script = try String(contentsOf: repositoryRoot.appendingPathComponent("scripts/real-hosts/screenshots.sh"), encoding: .utf8)
        for entry in made {
            #expect(linked.contains(entry.picture), "no page links images/\(entry.picture)")
            #expect(FileManager.default.fileExists(atPath: Self.images.appendingPathComponent(entry.picture).path), "\(entry.picture) is not in docs/images")
            // SCRIPT@RELEASE: the check run in that release's chroot (scripts/real-hosts/release-check.sh).
            let (name, release) = (entry.check.split(separator: "@").first.map(String.init) ?? "", entry.check.split(separator: "@").dropFirst().first)
            let check = repositoryRoot.appendingPathComponent("scripts/real-hosts/" + name).path
            #expect(FileManager.default.isExecutableFile(atPath: check), "\(entry.picture): no check scripts/real-hosts/\(name)")
            if let release {
                #expect(["bookworm", "trixie", "sid"].contains(release), "\(entry.picture): no chroot of a release '\(release)' (scripts/real-hosts/release-chroot.sh)")
            }
            #expect(entry.screenshot.hasSuffix(".png"), "\(entry.picture): its screenshot is '\(entry.screenshot)'")
            let crop = "crop_" + entry.crop.replacingOccurrences(of: "-", with: "_") + "() {"
            #expect(!entry.crop.isEmpty && script.contains("\n" + crop), "\(entry.picture): scripts/real-hosts/screenshots.sh has no crop '\(entry.crop)'")
        }
        // Nothing else: a picture that is in no list is one nobody can make again.
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.images.path).filter { $0 != "MANIFEST" }
        #expect(Set(files) == Set(made.map(\.picture)), "docs/images/ holds \(files.sorted()), the MANIFEST lists \(made.map(\.picture))")
    }
}
