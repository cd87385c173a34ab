import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// The project's apt repository (docs/releasing.md): `make repo` (scripts/packaging/apt-repository.sh)
/// and what apt makes of it in Debian 12, 13 and sid (left to `make test` by a plain `swift test`
/// unless both packages and the chroots are prepared: ReleasePreparation).
@Suite(.timeLimit(.minutes(25)), .offThePool, .leftToMakeTestUnlessPrepared(.repository)) struct AptRepositoryTests {
    /// In each release's chroot, with apt itself (scripts/real-hosts/apt-repository-check.sh): two
    /// versions of the packages (the second a real build one version on) published by `make repo`,
    /// signed by a throw-away Ed25519 key made for the run, served on 127.0.0.1; refused when
    /// tampered with, signed by another key or expired; installed, upgraded with the reader's
    /// chapter kept, downgraded, purged; and the downloaded .deb files upgraded by apt. No desktop
    /// runs: the releases' checks run beside each other and beside the other suites.
    @Test("Repository: Debian 12 bookworm (apt 2.6, gpgv) installs, upgrades, downgrades and purges from it")
    func bookworm() async throws { try await check("bookworm") }

    @Test("Repository: Debian 13 trixie (apt 3.0, sqv) installs, upgrades, downgrades and purges from it")
    func trixie() async throws { try await check("trixie") }

    @Test("Repository: Debian sid installs, upgrades, downgrades and purges from it")
    func sid() async throws { try await check("sid") }

    // Awaited on a thread of its own: it waits for the repository's fixture, which waits for the packages' builds.
    func check(_ release: String) async throws {
        let run = try await runLongCommand([repositoryRoot.appendingPathComponent("scripts/real-hosts/apt-repository-check.sh").path, release],
                                           timeout: 1500)
        print("apt-repository-check.sh \(release) exited \(run.status)\n\(run.stdout)\(run.stderr)")
        #expect(run.status == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let versions = try #require(lines.first { $0.hasPrefix("release: \(release); versions ") }, "\(run.stdout)")
        let words = versions.split(separator: " ").map(String.init)
        let (first, second) = (words[3], words[5].trimmingCharacters(in: CharacterSet(charactersIn: ";")))
        for expected in ["ok: refused: tampered (", "ok: refused: other-key (", "ok: refused: expired (is expired), nothing installed",
                         "ok: apt-get update verified the repository's InRelease",
                         "ok: apt-get install dbmultiverse: \(first), with dbmultiverse-apt-source and dbmultiverse-archive-keyring \(first)",
                         "ok: the service answers: chapter 42 stored, 35% read",
                         "ok: apt-get upgrade: \(second); chapter 42 at 35% kept; cards still linked",
                         "ok: apt-get install dbmultiverse=\(first) --allow-downgrades: \(first), chapter 42 kept",
                         "ok: apt-get purge: no file or link of the packages' left",
                         "ok: the downloaded \(first) .deb files, then apt-get upgrade: \(second)",
                         "repository check: every step passed on \(release)"] {
            #expect(lines.contains { $0.hasPrefix(expected) }, "missing: \(expected)")
        }
    }
}

/// `make repo` on this machine, with stand-in packages named as ours (what it checks is their
/// names, versions and contents, not what they install): what it publishes, and what it refuses
/// with the repository left as it was.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct MakeRepoTests {
    /// A folder with a GNUPGHOME holding two throw-away Ed25519 keys, and stand-in packages.
    final class Workshop: Sendable {
        let root: String
        let key: String, otherKey: String
        var gnupg: String { root + "/gnupg" }

        init() throws {
            root = try makeTemporaryDirectory("dbm-make-repo")
            try FileManager.default.createDirectory(atPath: root + "/gnupg", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            var fingerprints: [String] = []
            for name in ["Repository test key", "Another test key"] {
                let made = try runCommand(["gpg", "--batch", "--passphrase", "", "--quick-gen-key", "\(name) <test@invalid>", "ed25519", "sign", "1d"],
                                          environment: ["GNUPGHOME": root + "/gnupg", "PATH": "/usr/bin:/bin"], timeout: 60)
                try #require(made.status == 0, "\(made)")
                let listed = try runCommand(["gpg", "--batch", "--with-colons", "--list-secret-keys", name],
                                            environment: ["GNUPGHOME": root + "/gnupg", "PATH": "/usr/bin:/bin"])
                fingerprints.append(try #require(listed.stdout.split(separator: "\n").first { $0.hasPrefix("fpr:") }?
                    .split(separator: ":", omittingEmptySubsequences: false)[9]).description)
            }
            (key, otherKey) = (fingerprints[0], fingerprints[1])
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// A package built with dpkg-deb: `name` at `version`, holding `files` (path → content).
        func package(_ name: String, _ version: String, architecture: String = "amd64", files: [String: Data] = [:]) throws -> String {
            let tree = "\(root)/build/\(name)-\(version)-\(files.count)-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: tree + "/DEBIAN", withIntermediateDirectories: true)
            // Source: the keyring package's, as debian/control builds it.
            let source = name == "dbmultiverse" ? "" : "Source: dbmultiverse\n"
            try "Package: \(name)\n\(source)Version: \(version)\nArchitecture: \(architecture)\nMaintainer: Tests <test@invalid>\nDescription: stand-in\n"
                .write(toFile: tree + "/DEBIAN/control", atomically: true, encoding: .utf8)
            for (path, content) in files {
                try FileManager.default.createDirectory(atPath: tree + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try content.write(to: URL(fileURLWithPath: tree + path))
            }
            let deb = tree + ".deb"
            let built = try runCommand(["dpkg-deb", "--root-owner-group", "--build", tree, deb], timeout: 60)
            try #require(built.status == 0, "\(built)")
            return deb
        }

        func exportedKey(_ fingerprint: String) throws -> Data {
            let exported = try runCommand(["sh", "-c", "gpg --batch --export \"$1\" > \"$2\"", "sh", fingerprint, root + "/export.pgp"],
                                          environment: ["GNUPGHOME": gnupg, "PATH": "/usr/bin:/bin"])
            try #require(exported.status == 0, "\(exported)")
            return try Data(contentsOf: URL(fileURLWithPath: root + "/export.pgp"))
        }

        func makeRepo(_ directory: String, key: String?, _ debs: [String]) throws -> CommandResult {
            var environment = testEnvironment()
            environment["GNUPGHOME"] = gnupg
            return try runCommand(["make", "-C", repositoryRoot.path, "--no-print-directory", "repo", "REPO=\(directory)",
                                   "SIGNING_KEY=\(key ?? "")", "DEBS=\(debs.joined(separator: " "))"], environment: environment, timeout: 120)
        }
    }

    /// Every file of `folder` with its content's digest: the repository as a web host serves it.
    static func snapshot(_ folder: String) throws -> String {
        try runCommand(["sh", "-c", "cd \"$1\" && find . -type f -print0 | sort -z | xargs -0 sha256sum", "sh", folder]).stdout
    }

    @Test func itPublishesASignedRepositoryAndKeepsOlderVersions() throws {
        let shop = try Workshop()
        let repository = shop.root + "/site"
        let first = try shop.package("dbmultiverse", "9.0.0")
        let keyring = try shop.package("dbmultiverse-archive-keyring", "9.0.0", architecture: "all",
                                       files: ["/usr/share/keyrings/dbmultiverse-archive-keyring.pgp": try shop.exportedKey(shop.key)])
        let made = try shop.makeRepo(repository, key: shop.key, [first, keyring])
        #expect(made.status == 0, "\(made)")
        let second = try shop.package("dbmultiverse", "9.1.0")
        let added = try shop.makeRepo(repository, key: shop.key, [second])
        #expect(added.status == 0, "\(added)")
        #expect(added.stdout.contains("3 packages"), "\(added)")
        let pool = try runCommand(["sh", "-c", "cd \"$1\" && find pool -name '*.deb' | sort", "sh", repository]).stdout
        #expect(pool == "pool/main/d/dbmultiverse/dbmultiverse-archive-keyring_9.0.0_all.deb\npool/main/d/dbmultiverse/dbmultiverse_9.0.0_amd64.deb\npool/main/d/dbmultiverse/dbmultiverse_9.1.0_amd64.deb\n")

        let dists = repository + "/dists/stable"
        let release = try String(contentsOfFile: dists + "/Release", encoding: .utf8)
        for field in ["Suite: stable", "Components: main", "Architectures: amd64", "Acquire-By-Hash: yes", "SHA256:", "SHA512:"] {
            #expect(release.split(separator: "\n").contains { $0 == field || $0.hasPrefix(field + " ") }, "\(field)\n\(release)")
        }
        #expect(!release.contains("MD5Sum:") && !release.contains("\nSHA1:"), "\(release)")
        let packages = try String(contentsOfFile: dists + "/main/binary-amd64/Packages", encoding: .utf8)
        #expect(packages.contains("Version: 9.0.0") && packages.contains("Version: 9.1.0"), "\(packages)")
        let digest = try runCommand(["sha256sum", dists + "/main/binary-amd64/Packages"]).stdout.prefix(64)
        #expect(FileManager.default.fileExists(atPath: dists + "/main/binary-amd64/by-hash/SHA256/" + digest))
        #expect(!FileManager.default.fileExists(atPath: dists + "/main/binary-amd64/by-hash/MD5Sum"))

        // Valid-Until 30 days after Date; both signatures verify with the published key alone.
        let dates = try #require(Self.dates(release))
        #expect((29 * 86_400...31 * 86_400).contains(dates.validUntil - dates.date), "\(release)")
        let published = repository + "/dbmultiverse-archive-keyring.pgp"
        #expect(try Data(contentsOf: URL(fileURLWithPath: published)) == (try shop.exportedKey(shop.key)))
        let gpgv = try runCommand(["gpgv", "--keyring", published, dists + "/InRelease"])
        #expect(gpgv.status == 0, "\(gpgv)")
        let sqv = try runCommand(["sqv", "--keyring", published, dists + "/Release.gpg", dists + "/Release"])
        #expect(sqv.status == 0 && sqv.stdout.contains(shop.key), "\(sqv)")
        let packets = try runCommand(["sh", "-c", "gpg --list-packets < \"$1\"", "sh", dists + "/Release.gpg"], environment: ["GNUPGHOME": shop.gnupg, "PATH": "/usr/bin:/bin"])
        #expect(packets.stdout.contains("digest algo 10"), "SHA-512: \(packets)")
        let sources = try String(contentsOfFile: repository + "/dbmultiverse.sources", encoding: .utf8)
        #expect(sources == (try String(contentsOf: repositoryRoot.appendingPathComponent("debian/archive-keyring/dbmultiverse.sources"), encoding: .utf8)))
        #expect(sources.contains("\nSigned-By: /usr/share/keyrings/dbmultiverse-archive-keyring.pgp\n"))

        // Signed again without packages: the same pool, a new Release.
        let resigned = try shop.makeRepo(repository, key: shop.key, [])
        #expect(resigned.status == 0 && resigned.stdout.contains("3 packages"), "\(resigned)")
        let siblings = try FileManager.default.contentsOfDirectory(atPath: shop.root).filter { $0.hasPrefix(".site") }
        #expect(siblings.isEmpty, "left beside the repository: \(siblings)")
    }

    /// Date and Valid-Until of a Release file, in Unix seconds.
    static func dates(_ release: String) -> (date: Int, validUntil: Int)? {
        func seconds(_ field: String) -> Int? {
            guard let line = release.split(separator: "\n").first(where: { $0.hasPrefix(field + ": ") }) else { return nil }
            let parsed = try? runCommand(["date", "-u", "-d", String(line.dropFirst(field.count + 2)), "+%s"])
            return parsed.flatMap { Int($0.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        guard let date = seconds("Date"), let validUntil = seconds("Valid-Until") else { return nil }
        return (date, validUntil)
    }

    /// Each refusal says why, and the repository stays as it was, byte for byte.
    @Test func badInputIsRefusedAndChangesNothing() throws {
        let shop = try Workshop()
        let repository = shop.root + "/site"
        let first = try shop.package("dbmultiverse", "9.0.0", files: ["/usr/share/doc/dbmultiverse/a": Data("one".utf8)])
        let published = try shop.makeRepo(repository, key: shop.key, [first])
        try #require(published.status == 0, "\(published)")
        let before = try Self.snapshot(repository)

        let sameVersion = try shop.package("dbmultiverse", "9.0.0", files: ["/usr/share/doc/dbmultiverse/a": Data("two".utf8)])
        let notOurs = try shop.package("hello", "2.10")
        let debug = try shop.package("dbmultiverse-dbgsym", "9.1.0")
        let otherKeyring = try shop.package("dbmultiverse-archive-keyring", "9.1.0", architecture: "all",
                                            files: ["/usr/share/keyrings/dbmultiverse-archive-keyring.pgp": try shop.exportedKey(shop.otherKey)])
        let next = try shop.package("dbmultiverse", "9.1.0")
        let notADeb = shop.root + "/notes.deb"
        try "not a package".write(toFile: notADeb, atomically: true, encoding: .utf8)
        let cases: [(key: String?, debs: [String], reason: String)] = [
            (nil, [next], "no SIGNING_KEY"),
            ("0123456789ABCDEF0123456789ABCDEF01234567", [next], "no secret key 0123456789ABCDEF0123456789ABCDEF01234567"),
            (String(shop.key.suffix(16)), [next], "must be the key's full fingerprint"),
            (shop.key, [next, notOurs], "is hello, not one of this project's packages"),
            (shop.key, [debug], "debug symbols"),
            (shop.key, [notADeb], "is not a Debian package"),
            (shop.key, [sameVersion], "has dbmultiverse 9.0.0 already, with other contents"),
            (shop.key, [next, otherKeyring], "ships the key \(shop.otherKey)"),
        ]
        for (key, debs, reason) in cases {
            let run = try shop.makeRepo(repository, key: key, debs)
            #expect(run.status != 0 && run.stderr.contains(reason), "\(reason): \(run.stderr)")
            #expect(try Self.snapshot(repository) == before, "\(reason): the repository changed")
        }
    }
}
