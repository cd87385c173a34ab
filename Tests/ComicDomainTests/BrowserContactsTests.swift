@testable import ComicDomain
import Testing

/// `browserContacts.json` (the browser host's record of each family's last visit, read by
/// `dbmultiverse doctor`): its format, and bad content read as "never" rather than an error.
@Suite("Browser contacts", .timeLimit(.minutes(1))) struct BrowserContactsTests {
    @Test func roundTripsInAFixedOrder() throws {
        var contacts = BrowserContacts()
        contacts.record(.chromium, at: 1_795_640_100, browser: "chromium")
        contacts.record(.firefox, at: 1_795_640_000, browser: "firefox-esr")
        #expect(String(decoding: contacts.encodeJSON(), as: UTF8.self)
            == #"{"firefox":{"at":1795640000,"browser":"firefox-esr"},"chromium":{"at":1795640100,"browser":"chromium"}}"#)
        #expect(try BrowserContacts.decode(contacts.encodeJSON()) == contacts)
        contacts.record(.firefox, at: 1_795_650_000, browser: String(repeating: "x", count: 200))
        #expect(contacts.contacts[.firefox] == BrowserContacts.Contact(at: 1_795_650_000, browser: String(repeating: "x", count: 64)),
                "a newer visit replaces the older; a long name is cut")
    }

    @Test func aMalformedRecordReadsAsNeverAndUnknownKeysAreIgnored() throws {
        let text = #"{"firefox":{"at":"yesterday","browser":"firefox"},"chromium":{"at":5,"browser":"brave"},"opera":{"at":1,"browser":"opera"}}"#
        let contacts = try BrowserContacts.decode(Array(text.utf8))
        #expect(contacts.contacts == [.chromium: BrowserContacts.Contact(at: 5, browser: "brave")])
    }

    @Test func aFileThatIsNoObjectOrTooLargeIsAnError() {
        for bad in ["", "[]", "{", String(repeating: " ", count: 5000) + "{}"] {
            #expect(throws: ComicError.self, "\(bad.prefix(10))") { try BrowserContacts.decode(Array(bad.utf8)) }
        }
    }
}
