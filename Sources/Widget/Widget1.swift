package import ComicDomain
package import DBus

/// `com.nobadi.DBMultiverse.Widget1` (docs/dbus-api.md#the-sync-rules), declared once, here: the
/// service binds its handlers to these members, `WidgetClient` calls them, and
/// `dbus/com.nobadi.DBMultiverse.Widget1.xml` is written from them (`interfaceFile`, by
/// `make interface`; a test fails while the committed file differs), doc strings included. The
/// GNOME Shell card's copy is made from that file when the card is built.
package enum Widget1: DBusInterface {
    package static let name: InterfaceName = "com.nobadi.DBMultiverse.Widget1"
    package static let doc: String? = "The DBMultiverse home-screen widget: the chapter being read, and reload signals."

    // MARK: Methods

    package static let getCurrentEntry = method(
        "GetCurrentEntry", inputs: (), outputs: Arg<[String: Variant]>("entry"),
        doc: "The current entry (family medium), or the placeholder when nothing has been read.")
    package static let getPlaceholder = method(
        "GetPlaceholder", inputs: Arg<String>("family"), outputs: Arg<[String: Variant]>("entry"),
        doc: "The placeholder entry for a family (small or medium).")
    package static let getSnapshot = method(
        "GetSnapshot", inputs: Arg<String>("family"), outputs: Arg<[String: Variant]>("entry"),
        doc: "The current entry for a family, or the placeholder.")
    package static let getTimeline = method(
        "GetTimeline", inputs: Arg<String>("family"),
        outputs: (Arg<[[String: Variant]]>("entries"), Arg<String>("policy"), Arg<Int64>("reload_after")),
        doc: "The timeline: one entry, policy 'after', and when to reload (Unix seconds, now + 3600).")
    package static let reloadTimelines = method(
        "ReloadTimelines", inputs: Arg<String>("kind"), outputs: (),
        doc: "Re-reads storage and signals a reload of that widget kind (DBMultiverseWidgets).")
    package static let reloadAllTimelines = method(
        "ReloadAllTimelines", inputs: (), outputs: (),
        doc: "Re-reads storage and signals a reload of every widget kind.")
    package static let updateChapter = method(
        "UpdateChapter",
        inputs: (Arg<Int32>("chapter"), Arg<String>("name"), Arg<Int32>("progress"), Arg<[UInt8]>("cover_image"),
                 Arg<[String: Variant]>("options")),
        outputs: (),
        doc: "The reader's write path. Validates everything first, stores the cover (empty: none) and the chapter atomically, then applies the chapter rule. Options: page (i), language (s); others are ignored.")
    package static let updatePage = method(
        "UpdatePage",
        inputs: (Arg<Int32>("page"), Arg<String>("language"), Arg<Int32>("chapter"), Arg<String>("name"), Arg<Int32>("progress"),
                 Arg<[UInt8]>("cover_image"), Arg<[String: Variant]>("options")),
        outputs: (),
        doc: "The reader is on a page of the comic (1-99999) in a site language, which belongs to the chapter given (as UpdateChapter): all a reader of a page hands over, in one call. Validates everything first. A page of another chapter (universe and chapter compared, by the service alone) stores chapter, name, progress, page, language, universe and the cover (empty: none), then applies the chapter rule; a page of the chapter stored stores progress, page and language (cover and name kept), then applies the debounced progress rule. Options: universe (i, 0 = the main story); catalogue (ay, a chapters-<language>.json the caller fetched, stored with the position); cover_channel (h, a stream socket: before replying the service writes one byte to it, the digit 1 when it stored another chapter without a cover and wants it, 0 otherwise; after a 1 the caller writes the cover, JPEG or PNG, and closes its end); others are ignored.")
    package static let updateProgress = method(
        "UpdateProgress", inputs: Arg<Int32>("progress"), outputs: (),
        doc: "Stores the read progress (0-100), then applies the debounced progress rule. Fails with NoCurrentChapter before any UpdateChapter.")

    /// The options `UpdateChapter` and `UpdatePage` read from their `a{sv}` (others are ignored).
    package enum Option {
        /// `UpdateChapter`: the last page read on the comic's site.
        package static let page = VariantKey<Int32>("page")
        /// `UpdateChapter`: the site language of that page.
        package static let language = VariantKey<String>("language")
        /// `UpdatePage`: the special universe of the chapter, 0 for the main story.
        package static let universe = VariantKey<Int32>("universe")
        /// `UpdatePage`: the catalogue the caller fetched (`chapters-<language>.json`'s bytes).
        package static let catalogue = VariantKey<[UInt8]>("catalogue")
        /// `UpdatePage`: where the service asks for the cover of another chapter (`CoverRequest`).
        package static let coverChannel = VariantKey<UnixFD>("cover_channel")
    }

    // MARK: Properties

    package static let kind = property("Kind", String.self, emits: .const, doc: "The widget kind: DBMultiverseWidgets.")
    package static let entry = property("Entry", [String: Variant].self, doc: "The entry of the last reload (family medium).")
    package static let chapter = property("Chapter", Int32.self, doc: "The chapter number of the last reload.")
    package static let chapterName = property("ChapterName", String.self, doc: "The chapter name of the last reload.")
    package static let progress = property("Progress", Int32.self, doc: "The read progress of the last reload, 0-100.")
    package static let coverImagePath = property("CoverImagePath", String.self, doc: "The absolute path of the cover image, or empty.")
    package static let deepLink = property(
        "DeepLink", String.self, doc: "dbmultiverse://chapter/<N> of the last reload; while the reader is in a special, dbmultiverse://page/<N> of the page read.")
    package static let lastReload = property(
        "LastReload", Int64.self, doc: "When the last reload happened (Unix seconds), 0 before the first.")
    package static let latestPage = property(
        "LatestPage", Int32.self, doc: "The latest page of the comic in the reader's language (from the stored catalogue) at the last reload, 0 when unknown.")
    package static let newPages = property(
        "NewPages", Int32.self, doc: "Main-story pages published after the reader's page at the last reload, 0 when unknown (no page, no catalogue, or the reader in a special).")

    // MARK: Signals

    package static let timelinesReloaded = signal(
        "TimelinesReloaded", Arg<String>("kind"), Arg<ReloadReason>("reason"), Arg<[String: Variant]>("entry"),
        doc: "The widget's timeline was reloaded (the Linux WidgetCenter.reloadTimelines). reason is chapter-change, progress-change, requested, periodic or pages-published; entry is the entry now shown (family medium).")
    package static let openRequested = signal(
        "OpenRequested", Arg<Int32>("chapter"), Arg<String>("deep_link"),
        doc: "A chapter or page was opened through org.freedesktop.Application (Open, Activate or ActivateAction); deep_link is the normalised dbmultiverse://chapter/<N> or dbmultiverse://page/<N>; for a page, chapter is the main-story chapter holding it (from the catalogue of the reader's language), else 0.")

    /// Every member, in the order the service binds them: the interface file lists them so, as
    /// the service's `Introspect` does (a test compares the two).
    package static let members: [any InterfaceMember<Widget1>] = [
        getCurrentEntry, getPlaceholder, getSnapshot, getTimeline, reloadTimelines, reloadAllTimelines,
        updateChapter, updatePage, updateProgress,
        kind, entry, lastReload, chapter, chapterName, progress, coverImagePath, deepLink, latestPage, newPages,
        timelinesReloaded, openRequested,
    ]
}

/// `org.freedesktop.Application` (docs/deep-links.md), as the widget's object serves it.
package enum FreedesktopApplication: DBusInterface {
    package static let name: InterfaceName = "org.freedesktop.Application"

    package static let activate = method("Activate", inputs: Arg<[String: Variant]>("platform_data"), outputs: ())
    package static let open = method(
        "Open", inputs: (Arg<[String]>("uris"), Arg<[String: Variant]>("platform_data")), outputs: ())
    package static let activateAction = method(
        "ActivateAction", inputs: (Arg<String>("action_name"), Arg<[Variant]>("parameter"), Arg<[String: Variant]>("platform_data")),
        outputs: ())
}
