public import ComicDomain
public import DBus
public import EventLoop
public import Logging

/// The widget service (DESIGN §3–§5): publishes the current chapter entry on the bus, applies the
/// sync rules, and emits `TimelinesReloaded` and `PropertiesChanged`.
///
/// Everything runs synchronously on the event loop's thread: method calls, the folder watcher,
/// and the rules' single deadline. No threads, no `Task`s: an idle service makes no wake-ups.
public final class WidgetService {
    let server: ObjectServer
    /// `Widget1` at the widget's path: what emits its signals and property changes.
    private var exported: ExportedInterface<Widget1>?
    let folder: DataFolder
    let clock: any ServiceClock
    let logger: Logger
    private var engine: SyncEngine
    /// What storage holds (validated), or nil for "no current chapter".
    private(set) var stored: ChapterData? { didSet { encodedEntries.removeAll() } }
    /// The resolved cover of `stored` ("" for none), cached so reads don't touch the disk.
    private var storedImagePath = "" { didSet { encodedEntries.removeAll() } }
    /// When `stored` was made (Unix seconds): the entries' `date`.
    private var storedDate: Int64 { didSet { encodedEntries.removeAll() } }
    /// The current entry per family, marshalled once per change: reads far outnumber changes.
    private var encodedEntries: [WidgetFamily: EncodedReply<[String: Variant]>] = [:]
    /// What the last reload published: the properties show it.
    private(set) var published: ChapterEntry
    private(set) var lastReload: Int64 = 0
    /// The last storage problem logged, so each is logged once.
    private var reportedProblem: String?
    private var loop: EventLoop?
    private var watcher: FolderWatcher?
    /// While the folder is missing: a watch on its parent, for the folder to (re)appear.
    private var parentWatcher: FolderWatcher?
    /// What was last logged about watching, so each state is logged once.
    private var reportedWatch: String?

    /// Creates the data folder if needed, reads storage, and exports the widget interface.
    /// Call `start()` once the bus name is owned.
    public init(server: ObjectServer, folder: DataFolder, clock: any ServiceClock, logger: Logger) throws {
        self.server = server
        self.folder = folder
        self.clock = clock
        self.logger = logger
        storedDate = clock.unixSeconds()
        published = .placeholder(family: .medium, date: storedDate)
        do {
            try folder.create()
        } catch {
            logger.error("cannot create the data folder \(folder.path): \(error.message)")
        }
        for name in folder.removeStaleTemporaryFiles() {
            logger.notice("removed \(name), left by a writer that was stopped mid-write")
        }
        let lastSynced: SyncState?
        switch folder.readSyncState() {
        case .valid(let state): lastSynced = state
        case .missing: lastSynced = nil
        case .invalid(let reason):
            logger.warning("ignoring the sync state: \(reason)")
            lastSynced = nil
        }
        engine = SyncEngine(lastSynced: lastSynced, now: clock.monotonicNow())
        readStorage()
        published = currentEntry(family: .medium)
        exported = try server.export(widgetInterface, at: WidgetBus.objectPath)
    }

    /// Starts watching the folder and applies the rules to what changed while not running.
    public func start(loop: EventLoop) {
        self.loop = loop
        watchFolder()
        if let reload = engine.start(current: stored?.syncState, now: clock.monotonicNow()) {
            perform(reload)
        }
        armDeadline()
    }

    /// `OpenRequested`: `link` was opened (by `org.freedesktop.Application`).
    func announceOpen(_ link: DeepLink) {
        exported?.emit(Widget1.openRequested, Int32(link.chapter), link.uri)
    }

    // MARK: Entries

    /// The current entry from storage, or the placeholder.
    func currentEntry(family: WidgetFamily) -> ChapterEntry {
        guard let stored else { return .placeholder(family: family, date: storedDate) }
        return ChapterEntry(data: stored, imagePath: storedImagePath, family: family, date: storedDate)
    }

    /// The current entry, ready to be copied into a reply.
    func encodedEntry(family: WidgetFamily) -> EncodedReply<[String: Variant]> {
        if let cached = encodedEntries[family] { return cached }
        let encoded = EncodedReply(currentEntry(family: family).dbusDictionary)
        encodedEntries[family] = encoded
        return encoded
    }

    // MARK: Updates

    /// `UpdateChapter`: validate everything, then store the cover and the data, then the chapter rule.
    func updateChapter(chapter: Int32, name: String, progress: Int32, cover: [UInt8], options: [String: Variant]) throws {
        let page = try option("page", Int32.self, in: options).map(Int.init)
        let language = try option("language", String.self, in: options)
        let data = try ChapterData(
            validatingNumber: Int(chapter), name: name, progress: Int(progress),
            coverImagePath: cover.isEmpty ? "" : folder.coverImagePath, page: page, language: language)
        try folder.writeChapter(data, cover: cover) // validates the cover before writing anything
        watchFolder() // the write created the folder if it was missing
        setStored(data)
        perform(engine.chapterUpdated(data.syncState, now: clock.monotonicNow()))
        armDeadline()
    }

    /// `UpdateProgress`: store the progress, then the (debounced) progress rule.
    func updateProgress(_ progress: Int32) throws {
        let valid = try ChapterData.validProgress(Int(progress))
        guard let stored else {
            throw ComicError(.noCurrentChapter, "no chapter is stored yet: call UpdateChapter first")
        }
        let data = try stored.updatingProgress(valid)
        try folder.writeChapterData(data)
        watchFolder()
        setStored(data)
        engine.progressUpdated(data.syncState, now: clock.monotonicNow())
        armDeadline()
    }

    /// `ReloadTimelines` / `ReloadAllTimelines`: re-read storage and reload at once.
    func reloadRequested() {
        watchFolder()
        readStorage()
        perform(engine.reloadRequested(current: stored?.syncState, now: clock.monotonicNow()))
        armDeadline()
    }

    private func option<T: DBusArgument>(_ key: String, _ type: T.Type, in options: [String: Variant]) throws(DBusError) -> T? {
        guard let variant = options[key] else { return nil }
        do {
            return try variant.get(T.self)
        } catch {
            throw DBusError.invalidArgs("option '\(key)' must be of type '\(T.dbusSignature)', got '\(variant.value.signature)'")
        }
    }

    private func setStored(_ data: ChapterData?) {
        stored = data
        storedImagePath = coverPath(of: data)
        storedDate = clock.unixSeconds()
    }

    /// The cover an entry for `data` shows: resolved and confined to the folder, or "" for none.
    private func coverPath(of data: ChapterData?) -> String {
        data.flatMap { folder.resolvedCoverPath($0.coverImagePath) } ?? ""
    }

    /// Re-reads `currentChapterData.json`; a bad file is logged once and served as "no chapter".
    private func readStorage() {
        switch folder.readChapterData() {
        case .valid(let data):
            reportedProblem = nil
            if data != stored { setStored(data) } else { refreshCover() }
        case .missing:
            reportedProblem = nil
            if stored != nil { setStored(nil) }
        case .invalid(let reason):
            if reason != reportedProblem {
                logger.warning("serving the placeholder: \(reason)")
                reportedProblem = reason
            }
            if stored != nil { setStored(nil) }
        }
    }

    /// The cover may have changed without the chapter data (replaced, removed, swapped for a link).
    private func refreshCover() {
        let resolved = coverPath(of: stored)
        if resolved != storedImagePath { storedImagePath = resolved }
    }

    // MARK: Watching the folder

    /// Watches the folder for other programs' writes. When it can't (the folder is missing), it
    /// watches the parent for the folder to appear, and tries again after each write the service
    /// makes and each requested reload — never on a timer. What is and isn't watched is logged
    /// once per change.
    private func watchFolder() {
        guard let loop, watcher == nil else { return }
        let folderProblem: SystemError
        do {
            watcher = try FolderWatcher(path: folder.path, loop: loop) { [unowned self] batch in
                if batch.folderGone { folderGone() } else { folderChanged(batch.names) }
            }
            parentWatcher = nil
            if reportedWatch != nil {
                reportedWatch = nil
                logger.notice("watching \(folder.path) again")
            }
            return
        } catch {
            folderProblem = error
        }
        guard parentWatcher == nil else { return } // the parent is watched for it already
        do {
            parentWatcher = try FolderWatcher(path: folder.parentPath, loop: loop, includeCreated: true) { [unowned self] batch in
                guard batch.names.contains(folder.name) else { return }
                watchFolder()
                // Files may have come with it (a folder moved into place): read it like a change.
                if watcher != nil { folderChanged([DataFolder.chapterDataFile]) }
            }
            reportWatch("not watching \(folder.path) for changes (\(folderProblem.reason)); watching \(folder.parentPath) for it to appear")
        } catch {
            reportWatch("not watching \(folder.path) for changes (\(folderProblem.reason)), nor \(folder.parentPath) for it to appear (\(error.reason)): other programs' writes go unseen until the service writes there or is asked to reload")
        }
    }

    private func reportWatch(_ state: String) {
        guard state != reportedWatch else { return }
        reportedWatch = state
        logger.error("\(state)")
    }

    /// The folder was removed or moved away: what it held is gone for the service too.
    private func folderGone() {
        watcher = nil
        logger.warning("\(folder.path) was removed or moved away")
        watchFolder() // it may be back already; otherwise this watches the parent
        folderChanged([DataFolder.chapterDataFile])
    }

    /// Another program wrote to the folder: handled exactly like the matching update call.
    private func folderChanged(_ names: Set<String>) {
        guard names.contains(DataFolder.chapterDataFile) || names.contains(DataFolder.coverImageFile) else { return }
        let before = stored
        let imageBefore = storedImagePath
        readStorage()
        let now = clock.monotonicNow()
        if let reload = engine.storageChanged(stored?.syncState, now: now) {
            perform(reload)
        } else if stored != nil, stored != before || storedImagePath != imageBefore,
                  stored?.syncState == before?.syncState {
            // Same chapter and progress, but the name, cover, page or language changed.
            perform(engine.reloadRequested(current: stored?.syncState, now: now))
        }
        armDeadline()
    }

    // MARK: Reloads

    private func armDeadline() {
        clock.setDeadline(engine.nextDeadline) { [unowned self] in deadlineReached() }
    }

    /// The debounce or the hourly refresh is due: re-read storage and let the rules decide.
    func deadlineReached() {
        readStorage()
        for reload in engine.timerFired(now: clock.monotonicNow(), current: stored?.syncState) {
            perform(reload)
        }
        armDeadline()
    }

    /// One reload: update the properties, emit the signal once, record it in `widgetSyncState.json`.
    /// The record is written after the signals are queued, so subscribers don't wait for its fsync;
    /// a crash in between costs at most a repeated reload at the next start (catch-up).
    private func perform(_ reload: Reload) {
        let previous = published
        published = currentEntry(family: .medium)
        lastReload = clock.unixSeconds()
        var changed = PropertyChanges(Widget1.entry, Widget1.lastReload)
        if previous.chapter != published.chapter { changed.insert(Widget1.chapter) }
        if previous.name != published.name { changed.insert(Widget1.chapterName) }
        if previous.progress != published.progress { changed.insert(Widget1.progress) }
        if previous.imagePath != published.imagePath { changed.insert(Widget1.coverImagePath) }
        if previous.deepLink != published.deepLink { changed.insert(Widget1.deepLink) }
        exported?.emitPropertiesChanged(changed)
        exported?.emit(Widget1.timelinesReloaded, WidgetKind.name, reload.reason.rawValue, published.dbusDictionary)
        do {
            if let state = reload.state { try folder.writeSyncState(state) } else { try folder.removeSyncState() }
        } catch {
            logger.error("cannot record the sync state: \(error.message)")
        }
        logger.info("reloaded (\(reload.reason.rawValue)): \(published.rendered(.medium))")
    }
}
