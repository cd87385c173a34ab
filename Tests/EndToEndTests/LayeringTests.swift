import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits

/// The desktop targets' layering (README "How it is built"), read from the manifest as SwiftPM
/// evaluates it: the long-running processes (and the doctor, which only reads) never link the site
/// code or HTTP, and only the recorder does.
@Suite(.timeLimit(.minutes(1)), .offThePool) struct LayeringTests {
    /// Each target's dependencies within the package, transitively.
    static func closures() throws -> [String: Set<String>] {
        // A scratch path of its own: `swift test` holds the lock of the package's own.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try runCommand(["swift", "package", "--package-path", repositoryRoot.path, "--scratch-path", scratch, "dump-package"],
                                    timeout: 50)
        #expect(result.status == 0, "\(result)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        var direct: [String: [String]] = [:]
        for target in targets {
            let name = try #require(target["name"] as? String)
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
        return direct.keys.reduce(into: [:]) { all, name in
            var seen = Set<String>()
            closure(name, &seen)
            all[name] = seen
        }
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
}
