import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits

/// The desktop targets' layering (README "How it is built"), read from the manifest as SwiftPM
/// evaluates it: the long-running processes (and the doctor, which only reads) never link the site
/// code or HTTP, and only the recorder does. And the tests' own layering: each test target tests
/// one target, reaching its internals with `@testable import` and no higher layer's; the suites
/// above every layer (the end-to-end ones) reach no target's internals.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct LayeringTests {
    /// The manifest's targets: each one's type ("regular", "test", "executable", "system", …) and
    /// dependencies within the package, as declared and transitively.
    struct Manifest {
        var types: [String: String] = [:]
        var direct: [String: [String]] = [:]
        var closures: [String: Set<String>] = [:]
        /// Each target's folder: its `path:`, else SwiftPM's default (`Sources/<name>`, …).
        var folders: [String: String] = [:]
        /// The products' targets.
        var products: Set<String> = []
    }

    /// Each target's dependencies within the package, transitively.
    static func closures() throws -> [String: Set<String>] { try manifest().closures }

    static func manifest() throws -> Manifest {
        // A scratch path of its own: `swift test` holds the lock of the package's own.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try runCommand(["swift", "package", "--package-path", repositoryRoot.path, "--scratch-path", scratch, "dump-package"],
                                    timeout: 50)
        #expect(result.status == 0, "\(result)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        var direct: [String: [String]] = [:]
        var types: [String: String] = [:]
        var folders: [String: String] = [:]
        for target in targets {
            let name = try #require(target["name"] as? String)
            types[name] = target["type"] as? String
            let defaultFolder = ["test": "Tests", "plugin": "Plugins"][types[name] ?? ""] ?? "Sources"
            folders[name] = target["path"] as? String ?? "\(defaultFolder)/\(name)"
            let dependencies = target["dependencies"] as? [[String: Any]] ?? []
            // {"byName": [name, condition]} or {"target": [name, condition]}; other packages' products,
            // {"product": [name, package, ...]}, as "product:<name>".
            direct[name] = dependencies.compactMap { dependency in
                if let product = (dependency["product"] as? [Any])?.first as? String { return "product:" + product }
                return ((dependency["byName"] ?? dependency["target"]) as? [Any])?.first as? String
            }
        }
        func closure(_ name: String, _ seen: inout Set<String>) {
            for dependency in direct[name] ?? [] where seen.insert(dependency).inserted { closure(dependency, &seen) }
        }
        let products = (manifest["products"] as? [[String: Any]] ?? []).flatMap { $0["targets"] as? [String] ?? [] }
        return Manifest(types: types, direct: direct, closures: direct.keys.reduce(into: [:]) { all, name in
            var seen = Set<String>()
            closure(name, &seen)
            all[name] = seen
        }, folders: folders, products: Set(products))
    }

    @Test func onlyTheRecorderLinksTheSite() throws {
        let closures = try Self.closures()
        let siteAndHTTP: Set<String> = ["Site", "CSiteLibraries", "BrowserHistory", "CSQLite", "Recorder"]
        for target in ["Widget", "Service", "Follower", "Doctor"] {
            let linked = try #require(closures[target], "no target \(target)")
            #expect(linked.isDisjoint(with: siteAndHTTP), "\(target) links \(linked.intersection(siteAndHTTP).sorted())")
        }
        #expect(closures["Recorder"]?.contains("Site") == true)
        #expect(closures["Service"]?.contains("Follower") == false && closures["Follower"]?.contains("Service") == false,
                "the service and the follower meet only on the bus")
    }

    /// The long-running processes' own executables link only what they run: none of the site
    /// code, history, doctor, the other process's code or the argument parser; the browser host's
    /// has the recorder and the site code, and none of the others.
    @Test func theServiceAndNotifierExecutablesLinkOnlyWhatTheyRun() throws {
        let closures = try Self.closures()
        let service = try #require(closures["dbmultiverse-service"], "no dbmultiverse-service target")
        let notServices: Set = ["Site", "CSiteLibraries", "BrowserHistory", "CSQLite", "Recorder", "Doctor", "Follower", "CImageDecoding",
                                "dbmultiverse", "product:ArgumentParser"]
        #expect(service.isDisjoint(with: notServices), "dbmultiverse-service links \(service.intersection(notServices).sorted())")
        #expect(service.isSuperset(of: ["Service", "Widget", "DBus", "EventLoop", "ComicDomain"]), "\(service.sorted())")
        let notifier = try #require(closures["dbmultiverse-notifier"], "no dbmultiverse-notifier target")
        let notNotifiers = notServices.subtracting(["Follower", "CImageDecoding"]).union(["Service"])
        #expect(notifier.isDisjoint(with: notNotifiers), "dbmultiverse-notifier links \(notifier.intersection(notNotifiers).sorted())")
        #expect(notifier.contains("Follower"), "\(notifier.sorted())")
        let host = try #require(closures["dbmultiverse-browser-host"], "no dbmultiverse-browser-host target")
        let notHosts: Set = ["BrowserHistory", "CSQLite", "Doctor", "Follower", "CImageDecoding", "Service", "dbmultiverse", "product:ArgumentParser"]
        #expect(host.isDisjoint(with: notHosts), "dbmultiverse-browser-host links \(host.intersection(notHosts).sorted())")
        // The check sees products: the command line does link the parser.
        #expect(closures["dbmultiverse"]?.contains("product:ArgumentParser") == true)
    }

    /// The libraries only tests use: fixtures, stand-ins and helpers, no code under test.
    static let supportLibraries: Set = [
        "DBusTestSupport", "TestingTraits", "SiteTestSupport", "BrowserHistoryFixtures", "DesktopTestSupport", "WidgetTestSupport",
        "EndToEndSupport",
    ]

    /// The suites above every layer, by what they prove: the built products over the bus, the
    /// cards on real desktop hosts, the package and its distribution, the repository's conventions.
    /// They may import any target, none `@testable`; EndToEndSupport is theirs alone.
    static let endToEnd: Set = [
        "CommandEndToEndTests", "ProcessEndToEndTests", "DesktopHostTests", "DistributionTests", "RepositoryConventionTests",
    ]

    /// What test target `test` may import or depend on: its subject (`<Target>Tests` tests
    /// `<Target>`), the targets its subject depends on, and the support libraries; the desktop
    /// layer's (which runs the service and notifier in-process) only for the targets above Widget.
    static func allowed(_ test: String, in manifest: Manifest) -> (subject: String, lower: Set<String>)? {
        guard test.hasSuffix("Tests"), !endToEnd.contains(test) else { return nil }
        let subject = String(test.dropLast("Tests".count))
        guard manifest.types[subject] != nil else { return nil }
        let lower = (manifest.closures[subject] ?? []).filter { manifest.types[$0] != nil }
        var support = supportLibraries.subtracting(["EndToEndSupport"])
        if !lower.contains("Widget") { support.remove("DesktopTestSupport") }
        return (subject, lower.union(support))
    }

    /// Each test target depends only on its subject, what its subject links and support libraries
    /// (DesktopTestSupport only above Widget): no test of a lower layer pulls in a higher one
    /// (ComicDomainTests never Widget).
    @Test func eachTestTargetDependsOnlyOnItsSubjectAndBelow() throws {
        let manifest = try Self.manifest()
        let tests = manifest.types.filter { $0.value == "test" }.keys.sorted()
        #expect(Self.endToEnd.isSubset(of: tests) && tests.count >= 17, "\(tests)")
        for test in tests where !Self.endToEnd.contains(test) {
            let (subject, lower) = try #require(Self.allowed(test, in: manifest), "\(test) names no target of the package")
            // As declared: what the support libraries link is theirs (the in-process service and notifier).
            let declared = Set(try #require(manifest.direct[test])).filter { manifest.types[$0] != nil && $0 != subject }
            #expect(declared.isSubset(of: lower), "\(test) depends on \(declared.subtracting(lower).sorted()), above \(subject)")
        }
    }

    /// An import of one of the package's targets in a Swift source: the file, the module, and
    /// whether it is `@testable`.
    struct TargetImport {
        var file: String
        var module: String
        var testable: Bool
    }

    /// The imports of the package's targets in the Swift sources under `folder` (a path in the
    /// repository), each file named relative to `Tests/` or `TestSupport/`.
    static func targetImports(under folder: String, in manifest: Manifest) throws -> [TargetImport] {
        let root = repositoryRoot.appendingPathComponent(folder)
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
        return try files.sorted().flatMap { file in
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            return text.split(separator: "\n").compactMap { line -> TargetImport? in
                let words = line.split(separator: " ").map(String.init)
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                      words[..<at].allSatisfy({ ["@testable", "internal", "package", "public", "private"].contains($0) }),
                      manifest.types[words[at + 1]] != nil // not Foundation, Testing, Logging, …
                else { return nil }
                let name = (folder.split(separator: "/").last.map(String.init) ?? folder) + "/" + file
                return TargetImport(file: name, module: words[at + 1], testable: words.contains("@testable"))
            }
        }
    }

    /// In each test target's sources: `@testable import` only of its subject or what its subject
    /// depends on, and no import of a target outside its subject, what it links and the support
    /// libraries. The end-to-end suites, above all layers, may import any (but none `@testable`).
    @Test func eachTestTargetImportsOnlyItsSubjectAndBelow() throws {
        let manifest = try Self.manifest()
        var checked = 0, problems: [String] = []
        for test in try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Tests").path).sorted()
        where manifest.types[test] == "test" && !Self.endToEnd.contains(test) {
            let (subject, lower) = try #require(Self.allowed(test, in: manifest), "\(test) names no target of the package")
            for found in try Self.targetImports(under: "Tests/" + test, in: manifest) where found.module != subject {
                checked += 1
                if found.testable && !lower.subtracting(Self.supportLibraries).contains(found.module) {
                    problems.append("\(found.file): @testable import \(found.module), not \(subject) or below it")
                } else if !lower.contains(found.module) {
                    problems.append("\(found.file): import \(found.module), above \(subject)")
                }
            }
        }
        #expect(checked >= 50, "only \(checked) imports of the package's targets read under Tests/")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The end-to-end suites and their support prove what the products do, through what the
    /// products offer: the built executables, the bus, and the targets' `package` declarations.
    /// None imports a target `@testable`: a test of a target's internals belongs in its own test
    /// target.
    @Test func theEndToEndSuitesReachNoTargetsInternals() throws {
        let manifest = try Self.manifest()
        var checked = 0, problems: [String] = []
        for folder in Self.endToEnd.sorted().map({ "Tests/" + $0 }) + ["TestSupport/EndToEndSupport"] {
            let imports = try Self.targetImports(under: folder, in: manifest)
            checked += imports.count
            problems += imports.filter(\.testable).map { "\($0.file): @testable import \($0.module)" }
        }
        #expect(checked >= 100, "only \(checked) imports of the package's targets read in the end-to-end suites")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}

/// Sources/ is the product: what ships, and only that. What the tests share lives in TestSupport/,
/// the benchmarks in Benchmarks/ and the build's own tools in BuildTools/, which no product target
/// links. One access rule, since the
/// package has no library product: `package` for what another of its targets uses, never `public`.
/// The product loads no Foundation; test support, benchmarks and tests may.
extension LayeringTests {
    /// The folders that hold the package's Swift.
    static let swiftFolders = ["Sources", "TestSupport", "Benchmarks", "BuildTools", "Plugins", "Tests"]
    /// A declaration or import made `public` (or `open`), after the attributes and modifiers that
    /// may stand before the access level.
    static let publicDeclaration =
        #"^\s*((@\w+(\([^)]*\))?|nonisolated|static|class|final|override|mutating|convenience|required|indirect|lazy|dynamic)\s+)*(public|open)(\(set\))?\s"#
    /// An import of Foundation or one of its parts (FoundationEssentials, …), whole or one symbol.
    static let foundationImport =
        #"^\s*(@\w+\s+)*((public|package|internal|fileprivate|private)\s+)?import\s+((struct|class|enum|protocol|func|var|let|typealias)\s+)?Foundation\w*([.\s]|$)"#

    /// Every target's folder is named after it, in Sources/ (the product), TestSupport/, Benchmarks/
    /// or BuildTools/; every executable in Sources/ is a product, every other target there is linked by
    /// one, and none links test support or a benchmark.
    @Test func sourcesHoldTheProductAndNothingElse() throws {
        let manifest = try Self.manifest()
        let folders = manifest.folders.filter { !["test", "plugin"].contains(manifest.types[$0.key]) }
        let shipped = Set(folders.filter { $0.value.hasPrefix("Sources/") }.keys)
        let harness = Set(folders.filter { ["TestSupport/", "Benchmarks/", "BuildTools/"].contains(where: $0.value.hasPrefix) }.keys)
        var problems: [String] = []
        for (target, folder) in folders.sorted(by: { $0.key < $1.key })
        where !["Sources", "TestSupport", "Benchmarks", "BuildTools"].contains(where: { folder == "\($0)/\(target)" }) {
            problems.append("\(target) is in \(folder), not in a folder of its name in Sources/, TestSupport/, Benchmarks/ or BuildTools/")
        }
        let linkedByProducts = manifest.products.reduce(into: manifest.products) { $0.formUnion(manifest.closures[$1] ?? []) }
        for target in shipped.sorted() {
            let linked = (manifest.closures[target] ?? []).intersection(harness)
            if !linked.isEmpty { problems.append("\(target) (Sources/) links \(linked.sorted()), test support, benchmarks or build tools") }
            if !linkedByProducts.contains(target) { problems.append("\(target) is in Sources/, but no product is or links it") }
        }
        #expect(manifest.products.count >= 4 && shipped.count >= 20 && harness.count >= 12,
                "products \(manifest.products.sorted()), Sources/ \(shipped.sorted()), support and benchmarks \(harness.sorted())")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// No Swift file of the package declares or imports anything `public`; no file in Sources/
    /// imports Foundation.
    @Test func nothingIsPublicAndTheProductImportsNoFoundation() throws {
        let publicDeclaration = try Regex(Self.publicDeclaration), foundationImport = try Regex(Self.foundationImport)
        var read: [String: Int] = [:], problems: [String] = []
        for folder in Self.swiftFolders {
            let root = repositoryRoot.appendingPathComponent(folder)
            for file in try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted() where file.hasSuffix(".swift") {
                let path = "\(folder)/\(file)"
                let lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                read[folder, default: 0] += 1
                for (number, line) in lines.enumerated() {
                    if line.contains(publicDeclaration) { problems.append("\(path):\(number + 1): public, not package: \(line)") }
                    if folder == "Sources", line.contains(foundationImport) { problems.append("\(path):\(number + 1): Foundation in the product: \(line)") }
                }
            }
        }
        #expect((read["Sources"] ?? 0) >= 100 && (read["TestSupport"] ?? 0) >= 20 && (read["Benchmarks"] ?? 0) >= 10, "Swift files read: \(read)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The two patterns find what they forbid (a check that cannot fail is no check), and pass
    /// over the words in comments and names.
    @Test func theAccessAndFoundationPatternsFindWhatTheyForbid() throws {
        let publicDeclaration = try Regex(Self.publicDeclaration), foundationImport = try Regex(Self.foundationImport)
        for line in ["public struct Entry {", "    @discardableResult public func call() -> Int {", "public import DBus",
                     "    public(set) var count = 0", "    nonisolated public static let name = \"\"", "open class Base {",
                     "    @TaskLocal public static var held: Set<Int> = []"] {
            #expect(line.contains(publicDeclaration), "not found: \(line)")
        }
        for line in ["/// fixed by the public key in the manifest", "package struct Entry {", "    let publicKey = 1",
                     "    open(link)", "package import DBus"] {
            #expect(!line.contains(publicDeclaration), "found: \(line)")
        }
        for line in ["import Foundation", "package import FoundationEssentials", "import struct Foundation.Data", "@preconcurrency import Foundation"] {
            #expect(line.contains(foundationImport), "not found: \(line)")
        }
        for line in ["import DBus", "// without Foundation", "import JSON // not Foundation"] {
            #expect(!line.contains(foundationImport), "found: \(line)")
        }
    }
}
