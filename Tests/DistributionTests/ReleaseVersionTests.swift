import ComicDomain
import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits

/// One version, stated once (docs/releasing.md): debian/changelog's newest entry, written at build
/// time into every artefact that shows one, and `make release-version` that bumps it.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct ReleaseVersionTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/build/project-version.sh").path

    /// The version each artefact built from `tree` carries, made there with the project's own
    /// builders: the cards (both builds of each), the browser extension's archives and unpacked
    /// copy, the AppStream metadata's newest release and the Swift declaration the ProjectVersion
    /// plugin compiles, beside the changelog as dpkg reads it.
    static func artefactVersions(in tree: String) throws -> [String: String] {
        let out = try makeTemporaryDirectory("dbm-versions")
        defer { try? FileManager.default.removeItem(atPath: out) }
        func run(_ arguments: [String]) throws -> String {
            let result = try runCommand(arguments, environment: testEnvironment(), timeout: 60)
            #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result)")
            return result.stdout
        }
        func json(_ path: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        }
        var versions: [String: String] = [:]
        versions["project-version.sh"] = try run([tree + "/scripts/build/project-version.sh"]).trimmingCharacters(in: .newlines)
        versions["dpkg-parsechangelog"] = try run(["sh", "-c", "cd \"$1\" && dpkg-parsechangelog -SVersion", "sh", tree])
            .trimmingCharacters(in: .newlines)
        _ = try run([tree + "/scripts/build/project-version.sh", "swift", out + "/ProjectVersion.swift"])
        let declaration = try String(contentsOfFile: out + "/ProjectVersion.swift", encoding: .utf8)
        versions["ProjectVersion.swift"] = declaration.components(separatedBy: "let changelogVersion = \"").dropFirst().first?
            .prefix { $0 != "\"" }.description
        for build in ["43", "45"] {
            _ = try run([tree + "/desktop/gnome-shell/build.sh", build, "\(out)/gnome-\(build)"])
            versions["GNOME Shell \(build) version-name"] = try json("\(out)/gnome-\(build)/metadata.json")["version-name"] as? String
        }
        for build in ["5", "6"] {
            _ = try run([tree + "/desktop/plasma/build.sh", build, "\(out)/plasma-\(build)", "/usr/bin/dbmultiverse"])
            let plugin = try json("\(out)/plasma-\(build)/metadata.json")["KPlugin"] as? [String: Any]
            versions["Plasma \(build) Version"] = plugin?["Version"] as? String
        }
        _ = try run([tree + "/scripts/build/browser-extension.sh", out + "/browser"])
        versions["browser extension (unpacked)"] = try json(out + "/browser/extension/manifest.json")["version"] as? String
        let archives = try FileManager.default.contentsOfDirectory(atPath: out + "/browser").filter { $0.hasSuffix(".zip") || $0.hasSuffix(".xpi") }
        #expect(archives.count == 2, "\(archives)")
        for archive in archives {
            let manifest = try run(["unzip", "-p", "\(out)/browser/\(archive)", "manifest.json"])
            let object = try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any]
            versions["\(archive) (its manifest)"] = object?["version"] as? String
            versions["\(archive) (its name)"] = archive.replacingOccurrences(of: "dbmultiverse-", with: "")
                .replacingOccurrences(of: "-chromium.zip", with: "").replacingOccurrences(of: ".xpi", with: "")
        }
        let metainfo = try String(contentsOfFile: tree + "/desktop/com.nobadi.DBMultiverse.metainfo.xml", encoding: .utf8)
        versions["AppStream newest release"] = metainfo.components(separatedBy: "<release version=\"").dropFirst().first?
            .prefix { $0 != "\"" }.description
        return versions
    }

    /// A copy of the tracked files of the repository, as a clone has them.
    static func copyOfTheTree() throws -> String {
        let copy = try makeTemporaryDirectory("dbm-tree")
        let root = repositoryRoot.path
        let run = try runCommand(["bash", "-c", "git -c safe.directory=\"$1\" -C \"$1\" ls-files -z | (cd \"$1\" && tar --null -T - -cf -) | tar -xf - -C \"$2\"",
                                  "bash", root, copy], timeout: 60)
        #expect(run.status == 0, "\(run)")
        return copy
    }

    /// Every artefact, the programs, the package and the metadata name the changelog's version:
    /// the built programs' --version (the ProjectVersion plugin's), the User-Agent, and what the
    /// builders above make.
    @Test func everyArtefactCarriesTheChangelogsVersion() throws {
        let versions = try Self.artefactVersions(in: repositoryRoot.path)
        let expected = ProjectInfo.version
        #expect(versions.count == 13, "\(versions)")
        for (artefact, version) in versions.sorted(by: { $0.key < $1.key }) {
            #expect(version == expected, "\(artefact) says \(version), the program \(expected)")
        }
        for binary in [Binary.dbmultiverse, Binary.service, Binary.notifier, Binary.browserHost] {
            let run = try runCommand([binary, "--version"])
            #expect(run.status == 0 && run.stdout == expected + "\n", "\(binary): \(run)")
        }
        #expect(ProjectInfo.userAgent.hasPrefix("dbmultiverse-desktop/\(expected) "))
    }

    /// `make release-version` in a copy of the tree: a changelog entry dpkg reads, with the summary
    /// and debian/control's maintainer, and the AppStream release dated today; every artefact then
    /// carries the new version and none the old.
    @Test func aBumpChangesEveryArtefact() throws {
        let tree = try Self.copyOfTheTree()
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let parts = ProjectInfo.version.split(separator: ".").compactMap { Int($0) }
        let next = "\(parts[0]).\(parts.count > 1 ? parts[1] + 1 : 1).0"
        let summary = "Readers get updates from a signed apt repository & the stores' <cards>."
        let bump = try runCommand(["make", "-C", tree, "--no-print-directory", "release-version", "VERSION=\(next)", "SUMMARY=\(summary)"],
                                  environment: testEnvironment(), timeout: 60)
        #expect(bump.status == 0, "\(bump)")
        let versions = try Self.artefactVersions(in: tree)
        #expect(versions.count == 13, "\(versions)")
        for (artefact, version) in versions.sorted(by: { $0.key < $1.key }) {
            #expect(version == next, "after the bump, \(artefact) says \(version), not \(next)")
        }
        let changes = try runCommand(["sh", "-c", "cd \"$1\" && dpkg-parsechangelog -SChanges && dpkg-parsechangelog -SMaintainer", "sh", tree])
        #expect(changes.stdout.contains("* Readers get updates from a signed apt repository & the stores'"), "\(changes)")
        #expect(changes.stdout.contains("Seed b33899a9 maintainers <"), "\(changes)")
        let metainfo = try String(contentsOfFile: tree + "/desktop/com.nobadi.DBMultiverse.metainfo.xml", encoding: .utf8)
        let today = try runCommand(["date", "-u", "+%Y-%m-%d"]).stdout.trimmingCharacters(in: .newlines)
        let release = ["  <releases>", "    <release version=\"\(next)\" date=\"\(today)\">", "      <description translate=\"no\">",
                       "        <p>Readers get updates from a signed apt repository &amp; the stores' &lt;cards&gt;.</p>"]
        #expect(metainfo.contains(release.joined(separator: "\n")), "\(metainfo)")
    }

    /// What it refuses, each with its reason, changing nothing: a version that is not newer, not
    /// of the stores' form, or given without a summary.
    @Test func aBumpRefusesBadVersionsAndChangesNothing() throws {
        let tree = try Self.copyOfTheTree()
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let files = ["debian/changelog", "desktop/com.nobadi.DBMultiverse.metainfo.xml"]
        let before = try files.map { try String(contentsOfFile: tree + "/" + $0, encoding: .utf8) }
        for (version, summary, reason) in [(ProjectInfo.version, "again", "is not newer than the current version"),
                                           ("1.02.0", "leading zero", "none with a leading zero"),
                                           ("1.2.3.4.5", "five parts", "not one to four numbers"),
                                           ("2.0.0~rc1", "a tilde", "not one to four numbers"),
                                           ("2.0.0", "", "usage: make release-version")] {
            let run = try runCommand(["make", "-C", tree, "--no-print-directory", "release-version", "VERSION=\(version)", "SUMMARY=\(summary)"],
                                     environment: testEnvironment(), timeout: 60)
            #expect(run.status != 0 && run.stderr.contains(reason), "\(version): \(run)")
        }
        #expect(try files.map { try String(contentsOfFile: tree + "/" + $0, encoding: .utf8) } == before)
    }
}
