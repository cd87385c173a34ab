import ComicDomain
import DBus
import EventLoop
import Logging
import Widget

/// The widget service (docs/storage.md, docs/dbus-api.md#the-sync-rules, docs/notifications.md): publishes the current chapter entry on the bus, applies
/// the sync rules, and emits `TimelinesReloaded` and `PropertiesChanged`.
///
/// Everything runs synchronously on the event loop's thread: method calls, the folder watcher,
/// and the rules' single deadline. No threads, no `Task`s: an idle service makes no wake-ups. It
/// never touches the network: the catalogue of the reader's language (`chapters-<language>.json`,
/// stored by `dbmultiverse sync` and the page recorder) is read from the data folder when that file
/// changes, and kept.
final class WidgetService {
    let server: ObjectServer
    /// `Widget1` at the widget's path: what emits its signals and property changes.
    private var exported: ExportedInterface<Widget1>?
    let folder: DataFolder
    let clock: any ServiceClock
    let logger: Logger
    private var engine: SyncEngine
    /// What storage holds (validated), or nil for "no current chapter".
    private(set) var stored: ChapterData? { didSet { encodedEntries.removeAll() } }
    /// The resolved cover of `stored` ("" for none) and its file's identity (which the view's
    /// revision covers), cached so reads don't touch the disk.
    private var storedCover: (path: String, file: FileIdentity?) = ("", nil) { didSet { encodedEntries.removeAll() } }
    /// When `stored` was made (Unix seconds): the entries' `date`.
    private var storedDate: Int64 { didSet { encodedEntries.removeAll() } }
    /// The catalogue of `catalogueLanguage`, when its file holds a valid one: the entry's latest
    /// page and new pages, the chapter of a page link.
    private var catalogue: Catalogue? { didSet { encodedEntries.removeAll() } }
    /// The language whose catalogue file was last read: the reader's (nil with no chapter stored,
    /// or a language the site does not have).
    private var catalogueLanguage: SiteLanguage?
    /// The last catalogue problem logged, so each is logged once.
    private var reportedCatalogueProblem: String?
    /// The current entry per family, marshalled once per change: reads far outnumber changes.
    private var encodedEntries: [WidgetFamily: EncodedReply<[String: Variant]>] = [:]
    /// What the last reload published: the properties show it.
    private(set) var published: EntryView
    private(set) var lastReload: Int64 = 0
    /// The cover of another chapter being read from the caller that stored it, if any.
    private var coverRequest: CoverRequest? { didSet { encodedEntries.removeAll() } }
    /// The last storage problem logged, so each is logged once.
    private var reportedProblem: String?
    /// The stored chapter's language this version does not know, once logged.
    private var reportedUnknownLanguage: String?
    /// The user's config file, read when the reader's language is needed (an edit applies at once).
    private let config: () -> ConfigFile
    /// The last config file problem logged, so each is logged once.
    private var reportedConfigProblem: String?
    private var loop: EventLoop?
    private var watcher: FolderWatcher?
    /// While the folder is missing: a watch on its parent, for the folder to (re)appear.
    private var parentWatcher: FolderWatcher?
    /// What was last logged about watching, so each state is logged once.
    private var reportedWatch: String?
    /// The environment the service started with (the sync folder's `~`, the machine id).
    private let environment: [String: String]
    /// The reading position shared through the sync folder, while `sync-folder` is set.
    private(set) var sharing: SyncFolderSharing?
    /// The last problem logged about the sync folder's setting, so each is logged once.
    private var reportedSharingProblem: String?

    /// Creates the data folder if needed, reads storage, and exports the widget interface.
    /// Call `start()` once the bus name is owned.
    /// - Parameter config: the user's config file (for the reader's language), read when needed.
    /// - Parameter environment: the service's (the sync folder's setting and the machine id).
    init(server: ObjectServer, folder: DataFolder, clock: any ServiceClock, config: @escaping () -> ConfigFile,
         environment: [String: String] = [:], logger: Logger) throws {
        self.server = server
        self.environment = environment
        self.folder = folder
        self.clock = clock
        self.config = config
        self.logger = logger
        storedDate = clock.unixSeconds()
        published = EntryView(.placeholder(family: .medium, date: storedDate))
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
        refreshCatalogue()
        published = currentView(family: .medium)
        exported = try server.export(widgetInterface, at: WidgetBus.objectPath)
    }

    /// Starts watching the folder, applies the rules to what changed while not running, then
    /// shares the position through the sync folder when one is set.
    func start(loop: EventLoop) {
        self.loop = loop
        watchFolder()
        if let reload = engine.start(current: syncState, now: clock.monotonicNow()) {
            perform(reload)
        }
        configureSharing()
        armDeadline()
    }

    /// `OpenRequested`: `link` was opened (by `org.freedesktop.Application`). A page link reports
    /// the main-story chapter holding the page, from the reader's catalogue, else 0.
    func announceOpen(_ link: ComicLink) {
        let chapter = switch link {
        case .chapter(let chapter): chapter.chapter
        case .page(let page): catalogue?.mainStoryChapter(holding: page)?.number ?? 0
        }
        exported?.emit(Widget1.openRequested, Int32(chapter), link.uri)
    }

    // MARK: Entries

    /// The current entry from storage and the reader's catalogue, or the placeholder.
    func currentEntry(family: WidgetFamily) -> ChapterEntry {
        guard let stored else { return .placeholder(family: family, date: storedDate) }
        var entry = ChapterEntry(data: stored, imagePath: storedCover.path, family: family, date: storedDate, catalogue: catalogue)
        entry.continuedOn = sharing?.continued(stored) ?? ""
        return entry
    }

    /// The current entry's view: what every face shows, with its revision.
    func currentView(family: WidgetFamily) -> EntryView {
        EntryView(currentEntry(family: family), cover: storedCover.file)
    }

    /// What the sync rules compare: the stored chapter and progress, with the latest page of the
    /// reader's catalogue; nil with no chapter stored.
    private var syncState: SyncState? {
        let latest = catalogue.map { SyncState.LatestPage(page: $0.latestPage, language: $0.language.code) }
        return stored?.syncState(latestPage: latest)
    }

    /// What the readers of the entry get (`GetCurrentEntry`, `GetSnapshot`, `GetTimeline`): the
    /// current entry's view; while a chapter change waits for its cover (`askForCover`), the one
    /// last published, so that the change reaches every reader once, with its cover.
    func servedView(family: WidgetFamily) -> EntryView {
        coverRequest == nil ? currentView(family: family) : published.of(family)
    }

    /// The entry served, ready to be copied into a reply.
    func encodedEntry(family: WidgetFamily) -> EncodedReply<[String: Variant]> {
        if let cached = encodedEntries[family] { return cached }
        let encoded = EncodedReply(servedView(family: family).dbusDictionary)
        encodedEntries[family] = encoded
        return encoded
    }

    // MARK: Updates

    /// `UpdateChapter`: validate everything, then store the cover and the data, then the chapter rule.
    func updateChapter(chapter: Int32, name: String, progress: Int32, cover: [UInt8], options: [String: Variant]) throws {
        let page = try Widget1.Option.page.value(in: options).map(Int.init)
        let language = try Widget1.Option.language.value(in: options)
        let data = try ChapterData(
            validatingNumber: Int(chapter), name: name, progress: Int(progress),
            coverImagePath: cover.isEmpty ? "" : folder.coverImagePath, page: page, language: language)
        try folder.writeChapter(data, cover: cover) // validates the cover before writing anything
        watchFolder() // the write created the folder if it was missing
        setStored(data)
        if let state = syncState { perform(engine.chapterUpdated(state, now: clock.monotonicNow())) }
        armDeadline()
    }

    /// `UpdatePage`: validate everything, then store either the new chapter (with its cover) or the
    /// new position in the stored one, with the catalogue the caller fetched, then the rules once:
    /// the chapter rule for another chapter, the debounced progress rule for the same one
    /// (docs/browser-extension.md). Whether it is another chapter is decided here alone; when it is
    /// and no cover came with it, the cover is asked of the caller on its `cover_channel`.
    func updatePage(page: Int32, language: String, chapter: Int32, name: String, progress: Int32, cover: [UInt8],
                    options: [String: Variant]) throws {
        let number = try SitePage.validNumber(Int(page)) // the page first, then the language
        let sitePage = try SitePage(language: try SiteLanguage(validating: language), number: number)
        let universe = try Widget1.Option.universe.value(in: options).map(Int.init)
        let channel = try Widget1.Option.coverChannel.value(in: options)
        var fetched: Catalogue?
        if let bytes = try Widget1.Option.catalogue.value(in: options) { fetched = try Catalogue.decode(bytes, language: sitePage.language) }
        let data = try ChapterData(
            validatingNumber: Int(chapter), name: name, progress: Int(progress),
            coverImagePath: cover.isEmpty ? "" : folder.coverImagePath, page: sitePage.number,
            language: sitePage.language.code, universe: universe)
        if !cover.isEmpty { try CoverImage.validate(cover) } // checked even when kept out: bad input is an error
        let (next, isAnotherChapter) = try ChapterData.afterReading(sitePage, of: data, stored: stored)
        if isAnotherChapter { try folder.writeChapter(next, cover: cover) } else { try folder.writeChapterData(next) }
        setStored(next)
        if let fetched { store(fetched) }
        watchFolder()
        if let channel { askForCover(on: channel, wanted: isAnotherChapter && cover.isEmpty, of: next) }
        // The position and the latest page together: the pages just read are never counted new.
        // Another chapter whose cover is on its way is published with it (`askForCover`).
        if coverRequest == nil, let reload = engine.storageChanged(syncState, now: clock.monotonicNow()) { perform(reload) }
        armDeadline()
    }

    /// Stores the catalogue a page's reader fetched (a newer one: the page was past the stored
    /// one's last) and reads it as the reader's. Not storing it loses nothing the next
    /// `dbmultiverse sync` does not fetch again: logged, not an error of the page.
    private func store(_ fetched: Catalogue) {
        do {
            try folder.writeCatalogue(fetched)
        } catch {
            logger.warning("the catalogue fetched with the page was not stored: \(error.message)")
        }
        refreshCatalogue(force: true)
    }

    // MARK: The cover of another chapter

    /// Tells the caller on `channel` whether its chapter's cover is `wanted`, and reads it when it is
    /// (a later page's request replaces an earlier one still reading). Until the cover is in (or
    /// refused, or `CoverRequest.deadline` passed) the rules wait: the chapter change is published
    /// once, with its cover, as the notification shows it.
    private func askForCover(on channel: UnixFD, wanted: Bool, of data: ChapterData) {
        coverRequest?.cancel()
        coverRequest = nil
        guard let loop, let request = CoverRequest.answer(channel, wanted: wanted, chapter: data.id) else { return }
        coverRequest = request
        request.start(on: loop) { [unowned self] result in
            coverRequest = nil
            applyStorageChange {
                switch result {
                case .success(let cover) where cover.isEmpty:
                    logger.info("no cover came for chapter \(request.chapter)")
                case .success(let cover):
                    storeCover(cover, of: request.chapter)
                case .failure(let error):
                    logger.warning("the cover of chapter \(request.chapter) was not stored: \(error.message)")
                }
            }
        }
    }

    /// Stores `cover` for `chapter` if it is still the one stored.
    private func storeCover(_ cover: [UInt8], of chapter: ChapterID) {
        guard let stored, stored.id == chapter else {
            logger.info("the cover of chapter \(chapter) came after another chapter: not stored")
            return
        }
        do throws(ComicError) {
            let data = try stored.showingCover(folder.coverImagePath)
            try folder.writeChapter(data, cover: cover)
            setStored(data)
        } catch {
            logger.warning("the cover of chapter \(chapter) was not stored: \(error.message)")
        }
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
        if let state = syncState { engine.progressUpdated(state, now: clock.monotonicNow()) }
        armDeadline()
    }

    /// `ReloadTimelines` / `ReloadAllTimelines`: re-read storage, the catalogue and the sync folder's
    /// setting, and reload at once.
    func reloadRequested() {
        watchFolder()
        readStorage()
        refreshCatalogue(force: true)
        configureSharing(rereading: true) // `dbmultiverse sync-folder` asks for this reload
        perform(engine.reloadRequested(current: syncState, now: clock.monotonicNow()))
        armDeadline()
    }

    private func setStored(_ data: ChapterData?) {
        stored = data
        storedCover = cover(of: data)
        storedDate = clock.unixSeconds()
        refreshCatalogue() // the reader's language may have changed
        sharing?.localChanged(data)
    }

    /// The reader's language (`ConfigFile.readerLanguage`): the stored chapter's, else the config
    /// file's, else English. A config file naming a language the site does not have is logged once.
    var language: SiteLanguage {
        let (language, problem) = config().readerLanguageOrEnglish(chosen: stored?.siteLanguage)
        if let problem, problem.message != reportedConfigProblem {
            logger.warning("using \(language.code): \(problem.message)")
            reportedConfigProblem = problem.message
        } else if problem == nil {
            reportedConfigProblem = nil
        }
        return language
    }

    /// The language of the reader's catalogue; nil with no chapter stored.
    private var readerLanguage: SiteLanguage? { stored == nil ? nil : language }

    /// Reads the reader's catalogue when the reader's language changed (or always with `force`:
    /// its file changed). A missing file is no catalogue; a bad one is logged once and ignored.
    private func refreshCatalogue(force: Bool = false) {
        let language = readerLanguage
        guard force || language != catalogueLanguage else { return }
        catalogueLanguage = language
        guard let language else {
            if catalogue != nil { catalogue = nil }
            return
        }
        switch folder.readCatalogue(language) {
        case .valid(let read):
            reportedCatalogueProblem = nil
            if read != catalogue { catalogue = read }
        case .missing:
            reportedCatalogueProblem = nil
            if catalogue != nil { catalogue = nil }
        case .invalid(let reason):
            if reason != reportedCatalogueProblem {
                logger.warning("ignoring the catalogue: \(reason)")
                reportedCatalogueProblem = reason
            }
            if catalogue != nil { catalogue = nil }
        }
    }

    /// The cover an entry for `data` shows: resolved and confined to the folder, or "" for none,
    /// with its file's identity.
    private func cover(of data: ChapterData?) -> (path: String, file: FileIdentity?) {
        guard let path = data.flatMap({ folder.resolvedCoverPath($0.coverImagePath) }) else { return ("", nil) }
        return (path, FileIdentity(path: path))
    }

    /// Re-reads `currentChapterData.json`; a bad file is logged once and served as "no chapter".
    private func readStorage() {
        switch folder.readChapterData() {
        case .valid(let data):
            reportedProblem = nil
            if data != stored { setStored(data) } else { refreshCover() }
            if let unknown = data.unknownLanguage, unknown != reportedUnknownLanguage {
                logger.warning("chapter \(data.number) is stored with the language \(quotedForMessage(unknown)), which this version does not know: reading it in \(language.code)")
            }
            reportedUnknownLanguage = data.unknownLanguage
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
        let resolved = cover(of: stored)
        if resolved != storedCover { storedCover = resolved }
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
                if watcher != nil { folderChanged(watchedFiles) }
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
        folderChanged(watchedFiles)
    }

    /// The files whose changes the service follows: the chapter, its cover, the reader's catalogue.
    private var watchedFiles: Set<String> {
        var names: Set<String> = [DataFolder.chapterDataFile, DataFolder.coverImageFile]
        if let readerLanguage { names.insert(Catalogue.fileName(for: readerLanguage)) }
        return names
    }

    /// Another program wrote to the folder: handled exactly like the matching update call. A new
    /// catalogue of the reader's language goes through the pages rule.
    private func folderChanged(_ names: Set<String>) {
        let catalogueChanged = readerLanguage.map { names.contains(Catalogue.fileName(for: $0)) } ?? false
        guard catalogueChanged || names.contains(DataFolder.chapterDataFile) || names.contains(DataFolder.coverImageFile) else { return }
        applyStorageChange {
            readStorage()
            if catalogueChanged { refreshCatalogue(force: true) }
        }
    }

    /// Makes `change` to what is stored, then applies the rules as to a change another program made.
    private func applyStorageChange(_ change: () -> Void) {
        let before = currentView(family: .medium).revision
        let stateBefore = syncState
        change()
        // A cover on its way holds the rules back (`askForCover`): its end applies them.
        guard coverRequest == nil else { return armDeadline() }
        let now = clock.monotonicNow()
        if let reload = engine.storageChanged(syncState, now: now) {
            perform(reload)
        } else if stored != nil, syncState == stateBefore, currentView(family: .medium).revision != before {
            // Same chapter, progress and latest page, but something the faces show changed: the
            // name, the cover, the page, the language or the count of new pages.
            perform(engine.reloadRequested(current: syncState, now: now))
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
        for reload in engine.timerFired(now: clock.monotonicNow(), current: syncState) {
            perform(reload)
        }
        armDeadline()
    }

    /// One reload: update the properties, emit the signal once, record it in `widgetSyncState.json`.
    /// The record is written after the signals are queued, so subscribers don't wait for its fsync;
    /// a crash in between costs at most a repeated reload at the next start (catch-up).
    private func perform(_ reload: Reload) {
        let previous = published
        published = currentView(family: .medium)
        lastReload = clock.unixSeconds()
        var changed = PropertyChanges(Widget1.entry, Widget1.lastReload)
        EntryKeys.changedProperties(from: previous, to: published, into: &changed)
        exported?.emitPropertiesChanged(changed)
        exported?.emit(Widget1.timelinesReloaded, WidgetKind.name, reload.reason, published.dbusDictionary)
        do {
            if let state = reload.state { try folder.writeSyncState(state) } else { try folder.removeSyncState() }
        } catch {
            logger.error("cannot record the sync state: \(error.message)")
        }
        logger.info("reloaded (\(reload.reason)): \(published.tooltip)")
        sharing?.reloaded()
    }

    // MARK: The sync folder

    /// Follows the config file's `sync-folder` (and `computer-name`): starts, replaces or stops
    /// sharing when they changed. At start, and at each requested reload (`rereading`: an
    /// unchanged setting then re-reads the folder).
    private func configureSharing(rereading: Bool = false) {
        guard let loop else { return }
        let config = config()
        let setting = SyncFolderSetting.read(config, environment: environment)
        var problem = setting.problem
        var identity: ComputerIdentity?
        if let syncFolder = setting.folder {
            if syncFolder.overlaps(folder) {
                problem = "not sharing the reading position: the sync folder \(syncFolder.path) and the data folder \(folder.path) must not hold one another"
            } else {
                do {
                    identity = try ComputerIdentity.current(environment: environment, config: config)
                } catch {
                    problem = "not sharing the reading position: \(error.message)"
                }
            }
        }
        if let problem, problem != reportedSharingProblem { logger.error("\(problem)") }
        reportedSharingProblem = problem
        guard let identity, let syncFolder = setting.folder else {
            if let sharing {
                logger.info("no longer sharing the reading position through \(sharing.folder.path)")
                self.sharing = nil
            }
            return
        }
        if let sharing, sharing.folder == syncFolder, sharing.rule.identity == identity {
            if rereading { sharing.reloadRequested() }
            return
        }
        sharing = nil
        let sharing = SyncFolderSharing(folder: syncFolder, identity: identity, dataFolder: folder, clock: clock, logger: logger) { [unowned self] record in
            adopt(record)
        }
        self.sharing = sharing
        sharing.start(local: stored, loop: loop)
    }

    /// Another computer's reading is the reading now: stored as if the reader had read it here
    /// (its cover kept only for the same chapter), then the rules, as for any stored change.
    private func adopt(_ record: ReadingRecord) {
        applyStorageChange {
            guard stored.map({ !$0.isSamePosition(as: record.reading) }) ?? true else { return }
            let data = record.reading.adopted(keepingCoverOf: stored)
            do throws(ComicError) {
                try folder.writeChapterData(data)
            } catch {
                logger.error("cannot store the reading from \(record.computer): \(error.message)")
                return
            }
            watchFolder()
            setStored(data)
        }
    }
}
