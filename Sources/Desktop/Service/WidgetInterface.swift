internal import ComicDomain
internal import DBus

extension WidgetService {
    /// `com.nobadi.DBMultiverse.Widget1`, declared once: dispatch, argument checking, properties
    /// and `dbus/com.nobadi.DBMultiverse.Widget1.xml` all come from this.
    var widgetInterface: Interface {
        Interface(
            WidgetBus.widgetInterface,
            doc: "The DBMultiverse home-screen widget: the chapter being read, and reload signals.",
            methods: [
                .encoded("GetCurrentEntry", inputs: (), outputs: Arg<[String: Variant]>("entry"),
                         doc: "The current entry (family medium), or the placeholder when nothing has been read.") { [unowned self] () in
                    encodedEntry(family: .medium)
                },
                Method("GetPlaceholder", inputs: Arg<String>("family"), outputs: Arg<[String: Variant]>("entry"),
                       doc: "The placeholder entry for a family (small or medium).") { [unowned self] (family: String) in
                    ChapterEntry.placeholder(family: try WidgetFamily(validating: family), date: clock.unixSeconds()).dbusDictionary
                },
                .encoded("GetSnapshot", inputs: Arg<String>("family"), outputs: Arg<[String: Variant]>("entry"),
                         doc: "The current entry for a family, or the placeholder.") { [unowned self] (family: String) in
                    encodedEntry(family: try WidgetFamily(validating: family))
                },
                Method("GetTimeline", inputs: Arg<String>("family"),
                       outputs: (Arg<[[String: Variant]]>("entries"), Arg<String>("policy"), Arg<Int64>("reload_after")),
                       doc: "The timeline: one entry, policy 'after', and when to reload (Unix seconds, now + 3600).") { [unowned self] (family: String) in
                    let entry = currentEntry(family: try WidgetFamily(validating: family))
                    return ([entry.dbusDictionary], "after", clock.unixSeconds() + 3600)
                },
                Method("ReloadTimelines", inputs: Arg<String>("kind"), outputs: (),
                       doc: "Re-reads storage and signals a reload of that widget kind (DBMultiverseWidgets).") { [unowned self] (kind: String) in
                    try WidgetKind.validate(kind)
                    reloadRequested()
                },
                Method("ReloadAllTimelines", inputs: (), outputs: (),
                       doc: "Re-reads storage and signals a reload of every widget kind.") { [unowned self] in
                    reloadRequested()
                },
                Method("UpdateChapter",
                       inputs: (Arg<Int32>("chapter"), Arg<String>("name"), Arg<Int32>("progress"),
                                Arg<[UInt8]>("cover_image"), Arg<[String: Variant]>("options")),
                       outputs: (),
                       doc: "The reader's write path. Validates everything first, stores the cover (empty: none) and the chapter atomically, then applies the chapter rule. Options: page (i), language (s); others are ignored.") {
                    [unowned self] (chapter: Int32, name: String, progress: Int32, cover: [UInt8], options: [String: Variant]) in
                    try updateChapter(chapter: chapter, name: name, progress: progress, cover: cover, options: options)
                },
                Method("UpdateProgress", inputs: Arg<Int32>("progress"), outputs: (),
                       doc: "Stores the read progress (0-100), then applies the debounced progress rule. Fails with NoCurrentChapter before any UpdateChapter.") { [unowned self] (progress: Int32) in
                    try updateProgress(progress)
                },
            ],
            properties: [
                .readOnly("Kind", String.self, emits: .const, doc: "The widget kind: DBMultiverseWidgets.") { WidgetKind.name },
                .readOnly("Entry", [String: Variant].self, doc: "The entry of the last reload (family medium).") { [unowned self] in published.dbusDictionary },
                .readOnly("Chapter", Int32.self, doc: "The chapter number of the last reload.") { [unowned self] in Int32(clamping: published.chapter) },
                .readOnly("ChapterName", String.self, doc: "The chapter name of the last reload.") { [unowned self] in published.name },
                .readOnly("Progress", Int32.self, doc: "The read progress of the last reload, 0-100.") { [unowned self] in Int32(clamping: published.progress) },
                .readOnly("CoverImagePath", String.self, doc: "The absolute path of the cover image, or empty.") { [unowned self] in published.imagePath },
                .readOnly("DeepLink", String.self, doc: "dbmultiverse://chapter/<N> of the last reload.") { [unowned self] in published.deepLink },
                .readOnly("LastReload", Int64.self, doc: "When the last reload happened (Unix seconds), 0 before the first.") { [unowned self] in lastReload },
            ],
            signals: [Self.timelinesReloaded.info, Self.openRequested.info]
        )
    }
}
