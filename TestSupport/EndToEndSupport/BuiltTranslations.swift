import DBusTestSupport
package import DesktopTestSupport
import Foundation
import Testing

extension Translations {
    /// `scripts/build/translations.sh build` into a folder of its own: the catalogues and merged files.
    package static func built() throws -> String {
        let script = repositoryRoot.appendingPathComponent("scripts/build/translations.sh").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("translations-\(UUID().uuidString)").path
        let result = try runCommand([script, "build", folder], timeout: 60)
        #expect(result.status == 0, "\(result)")
        return folder
    }

    /// Whether the machine has the French locale the tests of a French session need.
    package static var frenchLocaleExists: Bool {
        ((try? runCommand(["locale", "-a"]).stdout) ?? "").lowercased().split(separator: "\n").contains("fr_fr.utf8")
    }
}
