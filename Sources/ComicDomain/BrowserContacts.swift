import JSON

/// When the browser extension last talked to its native messaging host, per browser family
/// (docs/install.md#debian-package: `dbmultiverse doctor` says whether each installed browser's extension works).
/// The host records its start: a browser starts it for the extension only.
///
/// Stored as `browserContacts.json`:
/// `{"firefox":{"at":1795640000,"browser":"firefox-esr"},"chromium":{"at":1795640100,"browser":"chromium"}}`.
/// Unknown keys are ignored; a family whose record is malformed reads as never.
package struct BrowserContacts: Sendable, Equatable {
    /// The two families the extension is built for (their hosts' arguments tell them apart).
    package enum Family: String, Sendable, CaseIterable {
        case firefox, chromium
    }

    /// One family's last contact.
    package struct Contact: Sendable, Equatable {
        /// Unix seconds.
        package var at: Int64
        /// The file name of the browser's executable that started the host (`firefox-esr`,
        /// `chromium`, `chrome`, `brave`, `vivaldi-bin`, `msedge`…), "" when unknown.
        package var browser: String

        package init(at: Int64, browser: String) {
            self.at = at
            self.browser = browser
        }
    }

    package private(set) var contacts: [Family: Contact]

    /// The file's size limit: two small records.
    static let maxFileBytes = 4096
    /// The longest browser name kept (an executable's file name).
    static let maxBrowserNameBytes = 64

    package init(contacts: [Family: Contact] = [:]) {
        self.contacts = contacts
    }

    /// Records that `family`'s extension started the host at `at`.
    package mutating func record(_ family: Family, at: Int64, browser: String) {
        contacts[family] = Contact(at: at, browser: String(decoding: browser.utf8.prefix(Self.maxBrowserNameBytes), as: UTF8.self))
    }

    /// Decodes the file; see the type's format.
    package static func decode(_ bytes: [UInt8]) throws(ComicError) -> BrowserContacts {
        let reader = try JSONObjectReader(bytes: bytes, limit: maxFileBytes)
        var contacts: [Family: Contact] = [:]
        for family in Family.allCases {
            // A malformed record reads as never (the host rewrites it at its next start).
            guard let member = reader.value[family.rawValue],
                  let record = try? JSONObjectReader(object: member, what: family.rawValue),
                  let at = try? record.integer("at", in: 0...Int(Int32.max) * 4, outOfRange: { ComicError(.storageFailed, "time \($0)") }),
                  let browser = try? record.string("browser")
            else { continue }
            contacts[family] = Contact(at: Int64(at), browser: browser)
        }
        return BrowserContacts(contacts: contacts)
    }

    /// The file's bytes, families in a fixed order.
    package func encodeJSON() -> [UInt8] {
        JSONValue.object(Family.allCases.compactMap { family in
            contacts[family].map { contact in
                (family.rawValue, JSONValue.object([("at", .integer(Int(contact.at))), ("browser", .string(contact.browser))]))
            }
        }).serialized()
    }
}
