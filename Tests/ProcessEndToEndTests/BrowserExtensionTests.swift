import ComicDomain
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits
import Widget

/// The WebExtension's source (`browser/`, docs/browser-extension.md) and its packing: one MV3 manifest for both
/// browser families with the least privilege, the ids the host manifests allow, and the archives
/// `make browser-extension` builds.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct BrowserExtensionTests {
    static let folder = DesktopInstall.repository.appendingPathComponent("browser")

    static func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func oneManifestForBothFamilies() throws {
        let manifest = try Self.manifest()
        #expect(manifest["manifest_version"] as? Int == 3)
        // Chromium ignores an extension whose background has only `scripts`; Firefox ESR rejects
        // one with only a service worker (FirefoxEndToEndTests fails without `scripts`).
        let background = try #require(manifest["background"] as? [String: Any])
        #expect(background["service_worker"] as? String == "background.js")
        #expect(background["scripts"] as? [String] == ["background.js"])
        let gecko = try #require((manifest["browser_specific_settings"] as? [String: Any])?["gecko"] as? [String: Any])
        #expect(gecko["id"] as? String == BrowserExtension.firefoxID)
        // The background names the host the manifests install.
        let script = try String(contentsOf: Self.folder.appendingPathComponent("background.js"), encoding: .utf8)
        #expect(script.contains("sendNativeMessage(\"\(BrowserExtension.hostName)\""))
    }

    @Test func itAsksForNativeMessagingAndTheSitesPagesOnly() throws {
        let manifest = try Self.manifest()
        #expect(manifest["permissions"] as? [String] == ["nativeMessaging"])
        for key in ["host_permissions", "optional_permissions", "optional_host_permissions", "externally_connectable",
                    "web_accessible_resources", "content_security_policy"] {
            #expect(manifest[key] == nil, "\(key)")
        }
        let scripts = try #require(manifest["content_scripts"] as? [[String: Any]])
        #expect(scripts.count == 1)
        #expect(scripts.first?["js"] as? [String] == ["content.js"])
        #expect(scripts.first?["all_frames"] == nil)
        // http and https, with and without www, with and without a query (Chromium matches the
        // query as part of the path).
        let matches = try #require(scripts.first?["matches"] as? [String])
        #expect(Set(matches) == Set(SitePage.siteHosts.flatMap { ["*://\($0)/*/page-*.html", "*://\($0)/*/page-*.html?*"] }))
    }

    /// The Chromium id is the one the manifest's public key gives (SHA-256 of the DER key, its
    /// first 32 hex digits written a…p), and the key is an RSA public key.
    @Test func theManifestsKeyGivesTheChromiumID() throws {
        let key = try #require(try Self.manifest()["key"] as? String)
        let der = try #require(Data(base64Encoded: key))
        let folder = try DesktopHome()
        let path = folder.root.path + "/key.der"
        try der.write(to: URL(fileURLWithPath: path))
        let digest = try runCommand(["sha256sum", path])
        #expect(digest.status == 0, "\(digest)")
        let id = String(digest.stdout.prefix(32).map { hex in
            Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(Int(String(hex), radix: 16) ?? 0)))
        })
        #expect(id == BrowserExtension.chromiumID)
        let script = try runCommand([DesktopInstall.repository.appendingPathComponent("scripts/build/browser-extension-key.sh").path, "id"])
        #expect(script.status == 0 && script.stdout == BrowserExtension.chromiumID + "\n", "\(script)")
        let parsed = try runCommand(["openssl", "pkey", "-pubin", "-inform", "DER", "-in", path, "-noout", "-text"])
        #expect(parsed.status == 0 && parsed.stdout.contains("Public-Key: (2048 bit)"), "\(parsed)")
    }

    @Test func noPrivateKeyIsCommitted() throws {
        // The pattern does not match itself, so this file is not listed. safe.directory: the suite
        // may run as another user than the checkout's owner, whom git would otherwise refuse.
        let repository = DesktopInstall.repository.path
        let listed = try runCommand(["git", "-c", "safe.directory=\(repository)", "-C", repository,
                                     "grep", "-l", "-E", "-e", "-----BEGIN [A-Z ]*PRIVATE KEY-----"])
        #expect(listed.status == 1 && listed.stdout.isEmpty, "\(listed)")
    }

    /// The host manifests allow exactly our extension in each family.
    @Test func theHostManifestTemplatesAllowOnlyOurExtension() throws {
        for (family, key, allowed) in [("firefox", "allowed_extensions", BrowserExtension.firefoxID),
                                       ("chromium", "allowed_origins", BrowserExtension.chromiumOrigin)] {
            let text = try DesktopInstall.hostManifest(family: family, binary: "/usr/bin/dbmultiverse")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(Set(json.keys) == ["name", "description", "path", "type", key], "\(family)")
            #expect(json["name"] as? String == BrowserExtension.hostName)
            #expect(json[key] as? [String] == [allowed], "\(family)")
        }
    }

    /// The extension's own text in the browser's language (`_locales`, English by default): each
    /// language of po/LINGUAS has its messages.json, with the keys of the English one.
    @Test func itsDescriptionIsTranslated() throws {
        let manifest = try Self.manifest()
        #expect(manifest["default_locale"] as? String == "en" && manifest["description"] as? String == "__MSG_extensionDescription__")
        func messages(_ language: String) throws -> [String: Any] {
            let data = try Data(contentsOf: Self.folder.appendingPathComponent("_locales/\(language)/messages.json"))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(language)")
        }
        let english = try messages("en")
        #expect(english.keys.contains("extensionDescription"))
        let linguas = try String(contentsOf: DesktopInstall.repository.appendingPathComponent("po/LINGUAS"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        for language in linguas {
            let translated = try messages(language)
            #expect(Set(translated.keys) == Set(english.keys), "\(language)")
            #expect(((translated["extensionDescription"] as? [String: Any])?["message"] as? String)?.isEmpty == false, "\(language)")
        }
    }

    /// `make browser-extension`'s script: a .zip and an .xpi holding exactly the files of
    /// `browser/`, the manifest with the project's version written in (browser/'s says 0.0.0), and
    /// the same bytes at every run.
    @Test func theArchivesHoldTheExtensionAndAreReproducible() throws {
        let home = try DesktopHome()
        let script = DesktopInstall.repository.appendingPathComponent("scripts/build/browser-extension.sh").path
        let first = try runCommand([script, home.root.path + "/one"])
        let second = try runCommand([script, home.root.path + "/two"])
        #expect(first.status == 0 && second.status == 0, "\(first)\n\(second)")
        #expect(try Self.manifest()["version"] as? String == "0.0.0")
        let version = ProjectInfo.version
        // Every file, _locales/<ll>/messages.json included, in the archives' (C) order.
        let sources = try FileManager.default.subpathsOfDirectory(atPath: Self.folder.path).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for name in ["dbmultiverse-\(version)-chromium.zip", "dbmultiverse-\(version).xpi"] {
            let archive = home.root.path + "/one/" + name
            #expect(FileManager.default.contentsEqual(atPath: archive, andPath: home.root.path + "/two/" + name), "\(name)")
            let listing = try runCommand(["unzip", "-Z1", archive])
            #expect(listing.stdout.split(separator: "\n").map(String.init) == sources, "\(name): \(listing)")
            for source in sources {
                let extracted = try runCommand(["unzip", "-p", archive, source])
                var original = try String(contentsOf: Self.folder.appendingPathComponent(source), encoding: .utf8)
                if source == "manifest.json" {
                    original = original.replacingOccurrences(of: "\n  \"version\": \"0.0.0\",\n", with: "\n  \"version\": \"\(version)\",\n")
                }
                #expect(extracted.stdout == original, "\(name): \(source)")
            }
        }
    }
}
