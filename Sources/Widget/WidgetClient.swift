package import ComicDomain
package import DBus

/// The typed client of the widget service: every member of `Widget1` and
/// `org.freedesktop.Application`, built on their declarations, with the domain's types (entries,
/// deep links, families, the published view) instead of wire values. A changed declaration is a compile error here,
/// and so in every caller.
///
/// Calls are `MethodCall`s, sent in the caller's own way: `BlockingCaller.call` for a
/// command-line tool, `Connection.call` with a completion on a long-running process's loop,
/// `BusClient.call` in async code. A call starts the service by D-Bus activation when it is not
/// running (`withoutActivation()` for one that must not).
///
/// ```swift
/// let caller = try BlockingCaller()
/// let view = try caller.call(WidgetClient().snapshot(family: .small)) // view.panelText, view.entry.chapter
/// ```
package struct WidgetClient: Sendable {
    /// The widget's object: `com.nobadi.DBMultiverse` at `/com/nobadi/DBMultiverse`.
    package let object: RemoteObject

    package init(object: RemoteObject = WidgetBus.object) { self.object = object }

    // MARK: Reading

    /// The current entry (family medium) with its view, or the placeholder's.
    package func currentEntry() -> MethodCall<EntryView> {
        Widget1.getCurrentEntry.call(on: object).map(EntryView.init(dbusDictionary:))
    }

    /// The current entry for `family` with its view, or the placeholder's.
    package func snapshot(family: WidgetFamily) -> MethodCall<EntryView> {
        Widget1.getSnapshot.call(on: object, family.rawValue).map(EntryView.init(dbusDictionary:))
    }

    /// A property of the widget, e.g. `property(Widget1.lastReload)`.
    package func property<Value>(_ property: PropertyDeclaration<Widget1, Value>) -> MethodCall<Value> {
        property.get(from: object)
    }

    // MARK: Writing

    /// Stores the chapter being read, then the chapter rule applies. `cover` is JPEG or PNG bytes
    /// (empty: none); `page` is the last page read on the comic's site, `language` its language code.
    package func updateChapter(
        _ chapter: Int, name: String, progress: Int, cover: [UInt8] = [], page: Int? = nil, language: String? = nil
    ) -> MethodCall<Void> {
        var options: [String: Variant] = [:]
        options[Widget1.Option.page] = page.map { Int32(clamping: $0) }
        options[Widget1.Option.language] = language
        return Widget1.updateChapter.call(on: object, Int32(clamping: chapter), name, Int32(clamping: progress), cover, options)
    }

    /// "The reader is on `page`" of the comic in `language`, which belongs to chapter `chapter` of
    /// `universe` (nil or 0: the main story) at `progress`: another chapter than the stored one is
    /// stored with its name and `cover` (chapter rule), the stored chapter only moves on (progress
    /// rule, debounced). `PageRecorder` finds these values for a page.
    package func updatePage(
        _ page: Int, language: SiteLanguage, chapter: Int, name: String, progress: Int, universe: Int? = nil, cover: [UInt8] = [],
        catalogue: [UInt8]? = nil, coverChannel: UnixFD? = nil
    ) -> MethodCall<Void> {
        var options: [String: Variant] = [:]
        options[Widget1.Option.universe] = universe.map { Int32(clamping: $0) }
        options[Widget1.Option.catalogue] = catalogue
        options[Widget1.Option.coverChannel] = coverChannel
        return Widget1.updatePage.call(
            on: object, Int32(clamping: page), language.code, Int32(clamping: chapter), name, Int32(clamping: progress), cover, options)
    }

    /// Stores the read progress of the current chapter (0…100); the progress rule applies.
    package func updateProgress(_ progress: Int) -> MethodCall<Void> {
        Widget1.updateProgress.call(on: object, Int32(clamping: progress))
    }

    /// Re-reads storage and signals a reload of `kind` now.
    package func reloadTimelines(kind: String = WidgetKind.name) -> MethodCall<Void> {
        Widget1.reloadTimelines.call(on: object, kind)
    }

    /// Re-reads storage and signals a reload of every kind now.
    package func reloadAllTimelines() -> MethodCall<Void> {
        Widget1.reloadAllTimelines.call(on: object)
    }

    // MARK: Opening (org.freedesktop.Application)

    /// Opens each of `links`, chapters or pages (all are validated first: nothing opens on a bad one).
    package func open(_ links: [ComicLink], _ launch: LaunchContext = LaunchContext()) -> MethodCall<Void> {
        FreedesktopApplication.open.call(on: object, links.map(\.uri), launch.platformData)
    }

    /// Opens the chapter being read, or the chapter list when there is none (launching the app).
    package func activate(_ launch: LaunchContext = LaunchContext()) -> MethodCall<Void> {
        FreedesktopApplication.activate.call(on: object, launch.platformData)
    }

    /// Runs one of the application's actions.
    package func activateAction(_ action: ApplicationAction, _ launch: LaunchContext = LaunchContext()) -> MethodCall<Void> {
        FreedesktopApplication.activateAction.call(on: object, action.name, action.parameter, launch.platformData)
    }

    // MARK: Signals

    /// Delivers each `TimelinesReloaded` of the service (only from the owner of its name, so a
    /// restarted service is followed and a forged signal is not) on `connection`'s loop thread.
    /// A signal that doesn't decode goes to `onMalformed`. Blocking until in place.
    package func subscribeToReloads(
        on connection: Connection, onMalformed: ((DBusError) -> Void)? = nil, _ handler: @escaping (TimelinesReload) -> Void
    ) throws(DBusError) -> Connection.SignalSubscription {
        try connection.subscribe(Widget1.timelinesReloaded, from: object, onMalformed: onMalformed) { kind, reason, entry in
            do throws(DBusError) {
                handler(TimelinesReload(kind: kind, reason: reason, view: try EntryView(dbusDictionary: entry)))
            } catch {
                onMalformed?(error)
            }
        }
    }

    /// Delivers each `OpenRequested` of the service: the chapter opened (for a page, the main-story
    /// chapter holding it, or 0) and its deep link.
    package func subscribeToOpenRequests(
        on connection: Connection, _ handler: @escaping (_ chapter: Int, _ deepLink: String) -> Void
    ) throws(DBusError) -> Connection.SignalSubscription {
        try connection.subscribe(Widget1.openRequested, from: object) { chapter, deepLink in handler(Int(chapter), deepLink) }
    }

    /// Calls `handler` whenever the service starts or stops owning its name: with its new unique
    /// name, or nil when it left the bus. Blocking until in place.
    package func onServiceChange(on connection: Connection, _ handler: @escaping (_ owner: String?) -> Void) throws(DBusError) -> Connection.SignalSubscription {
        try connection.onOwnerChange(of: object.destination, handler)
    }
}

/// A `TimelinesReloaded` signal.
package struct TimelinesReload: Sendable, Equatable {
    package var kind: String
    /// `chapter-change`, `progress-change`, `requested`, `periodic`, `pages-published`, or one a
    /// later service added (kept as sent).
    package var reason: ReloadReason
    /// The entry now shown (family medium), with its view.
    package var view: EntryView
}
