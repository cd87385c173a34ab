import DesktopTestSupport
package import Foundation

/// The documentation a reader reads: README.md and docs/*.md.
package enum DocumentationPages {
    package static func all() throws -> [URL] {
        let docs = repositoryRoot.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return [repositoryRoot.appendingPathComponent("README.md")] + names.map { docs.appendingPathComponent($0) }
    }
}
