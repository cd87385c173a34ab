import ComicDomain
import EventLoop
import Glibc
import Logging

/// What the config file says of the sync folder (docs/sync.md), read at start and at each
/// requested reload (`dbmultiverse sync-folder` asks for one after writing the file).
struct SyncFolderSetting: Equatable {
    /// The folder, nil when sharing is off.
    var folder: SyncFolder?
    /// Why the line was not used, for the log.
    var problem: String?

    static func read(_ config: ConfigFile, environment: [String: String]) -> SyncFolderSetting {
        let (folder, problem) = config.syncFolder(home: Posix.homeFolder(environment: environment))
        return SyncFolderSetting(folder: folder, problem: problem)
    }
}

/// The reading position shared through the sync folder (docs/sync.md): this computer's record
/// written when the widget reloads for a reading made here, the folder watched with inotify on
/// the service's loop (a sync tool's renames are moves in), another computer's newer reading
/// handed to `adopt`. Exists only while `sync-folder` is set: with it unset there is no watch
/// and no file.
///
/// A folder that goes away (removed, or its file system unmounted) leaves the local position as
/// it is: the nearest folder above it is watched for it to come back, and the mount table
/// (`/proc/self/mountinfo`, which epoll reports on when it changes) for a remount. No timer runs.
///
/// Confined to the loop thread, like the service.
final class SyncFolderSharing {
    let folder: SyncFolder
    private(set) var rule: ReadingSync
    private let dataFolder: DataFolder
    private let clock: any ServiceClock
    private let logger: Logger
    /// Called with another computer's reading that is now the reading here.
    private let adopt: (ReadingRecord) -> Void
    private weak var loop: EventLoop?
    private var watcher: FolderWatcher?
    /// Which folder the watch is on (device and inode), to tell a remount from the same folder.
    private var watched: (device: UInt64, inode: UInt64)?
    /// While the folder is missing: a watch on the nearest folder above it.
    private var ancestorWatcher: FolderWatcher?
    private var mounts: MountTableWatcher?
    /// Per file name, the problem last logged about it: a bad record is logged once per content.
    private var reportedProblems: [String: String] = [:]
    /// What was last logged about watching, so each state is logged once.
    private var reportedWatch: String?

    /// Sharing through `folder` as `identity`, with what the data folder kept from the last run.
    /// Starts nothing: call `start`.
    init(folder: SyncFolder, identity: ComputerIdentity, dataFolder: DataFolder, clock: any ServiceClock, logger: Logger,
         adopt: @escaping (ReadingRecord) -> Void) {
        self.folder = folder
        self.dataFolder = dataFolder
        self.clock = clock
        self.logger = logger
        self.adopt = adopt
        var saved: SavedReading?
        switch dataFolder.readSavedReading() {
        case .valid(let read): saved = read
        case .missing: saved = nil
        case .invalid(let reason):
            logger.warning("starting the sync folder's clock afresh: \(reason)")
            saved = nil
        }
        rule = ReadingSync(identity: identity, saved: saved)
    }

    /// Publishes a reading made here while nothing shared it (see `ReadingSync.start`), then
    /// watches the folder and reads every record in it.
    func start(local: ChapterData?, loop: EventLoop) {
        self.loop = loop
        logger.info("sharing the reading position through \(folder.path) as \(rule.identity.name) (\(rule.identity.machine))")
        if let record = rule.start(local: local, storedAt: dataFolder.chapterDataModified() ?? clock.unixMilliseconds(),
                                   readAt: clock.unixSeconds()) {
            publish(record)
        }
        do {
            mounts = try MountTableWatcher(loop: loop) { [unowned self] in mountTableChanged() }
        } catch {
            logger.notice("not following the mount table (\(error.reason)): a remounted sync folder is seen again at the next reload")
        }
        watch()
    }

    /// The name of the computer whose reading `local` is, when it is another one.
    func continued(_ local: ChapterData?) -> String? { rule.continued(local) }

    // MARK: The rule's hooks

    /// The service stored `local` (an update call, another program's write, an adoption).
    func localChanged(_ local: ChapterData?) {
        rule.localChanged(local, now: clock.unixMilliseconds(), readAt: clock.unixSeconds())
    }

    /// The widget reloaded: publish the reading made here, if there is a new one.
    func reloaded() {
        if let record = rule.reloaded() { publish(record) }
    }

    private func publish(_ record: ReadingRecord) {
        do {
            try folder.write(record)
            reportedProblems[" write"] = nil
            logger.info("wrote \(SyncFolder.recordName(machine: record.stamp.machine)) in \(folder.path): \(record.reading.syncState()) at \(record.stamp)")
        } catch {
            // The folder may be away (unmounted): the next reading here is written when it is back.
            reportOnce("write", "cannot write this computer's record: \(error.message)")
        }
        save()
    }

    private func save() {
        do {
            try dataFolder.writeSavedReading(rule.saved)
        } catch {
            reportOnce("save", "cannot keep the sync folder's clock: \(error.message)")
        }
    }

    // MARK: Reading the folder

    /// Reads the records named (a batch of the watch), or every one (`nil`, after (re)watching).
    private func read(_ names: Set<String>?) {
        var toRead: Set<String>
        if let names {
            toRead = names.filter(SyncFolder.isReadable)
        } else {
            toRead = Set(folder.readableNames() ?? [])
            toRead.formUnion(rule.records.keys) // gone meanwhile: forgotten below
        }
        var adopted: ReadingRecord?
        // In a fixed order, so two services reading the same folder log alike.
        for name in toRead.sorted() {
            let record: ReadingRecord?
            switch folder.readRecord(name) {
            case .valid(let read):
                record = read
                reportedProblems[name] = nil
                if rule.records[name] != read {
                    logger.info("read \(name) (\(read.computer)): \(read.reading.syncState()) at \(read.stamp)")
                }
            case .missing:
                record = nil
                reportedProblems[name] = nil
            case .invalid(let reason):
                record = nil
                if reportedProblems[name] != reason {
                    reportedProblems[name] = reason
                    logger.warning("skipping a record of the sync folder: \(reason)")
                }
            }
            if let newer = rule.recordRead(name, record) { adopted = newer }
        }
        if let adopted {
            logger.info("continuing from \(adopted.computer) (\(adopted.stamp.machine)): \(adopted.reading.syncState()) at \(adopted.stamp)")
            adopt(adopted)
            save()
        }
    }

    // MARK: Watching

    /// Watches the folder and reads it whole; when it is missing, watches the nearest folder above
    /// it for the next step of its path to appear. Each state is logged once.
    private func watch() {
        guard let loop, watcher == nil else { return }
        do {
            watcher = try FolderWatcher(path: folder.path, loop: loop) { [unowned self] batch in
                if batch.folderGone { folderGone() } else { read(batch.names) }
            }
            watched = identity(of: folder.path)
            ancestorWatcher = nil
            report("watching \(folder.path)", level: .info)
            read(nil)
        } catch {
            watchAncestor(because: error.reason)
        }
    }

    private func watchAncestor(because reason: String) {
        guard let loop else { return }
        // The nearest existing folder above, and the name in it that leads to the folder.
        var ancestor = DataFolder(path: folder.path)
        var next = ancestor.name
        repeat {
            next = ancestor.name
            ancestor = DataFolder(path: ancestor.parentPath)
        } while ancestor.path != "/" && identity(of: ancestor.path) == nil
        do {
            ancestorWatcher = try FolderWatcher(path: ancestor.path, loop: loop, includeCreated: true) { [unowned self] batch in
                guard batch.folderGone || batch.names.contains(next) else { return }
                ancestorWatcher = nil
                watch()
            }
            report("not watching \(folder.path) (\(reason)); watching \(ancestor.path) for it to appear; the reading here stays as it is", level: .warning)
        } catch {
            report("not watching \(folder.path) (\(reason)), nor \(ancestor.path) (\(error.reason)): the folder is looked for again at the next reload or mount", level: .error)
        }
    }

    /// The folder was removed, moved away or unmounted (`how`): what was read from it stays the
    /// reading; it is looked for again, and its watch logged again when there is one.
    private func folderGone(_ how: String = "removed, moved or unmounted") {
        watcher = nil
        watched = nil
        reportedWatch = nil
        logger.warning("\(folder.path) went away (\(how)): the reading here stays as it is")
        watch()
    }

    /// A file system was mounted or unmounted: the folder watched may be another one now (a drive
    /// unmounted, or mounted over its path; the kernel's inotify events for it may come after this),
    /// or the missing folder there again.
    private func mountTableChanged() {
        guard let watched else {
            ancestorWatcher = nil
            watch()
            return
        }
        guard identity(of: folder.path).map({ $0 == watched }) != true else { return }
        folderGone("a file system was mounted or unmounted there")
    }

    /// Re-reads the folder at a requested reload (the watches may have been lost).
    func reloadRequested() {
        if watcher == nil { watch() } else { read(nil) }
    }

    private func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        guard case .success(let status) = Posix.pathStatus(path), Posix.isDirectory(status.st_mode) else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    private func report(_ state: String, level: Logger.Level) {
        guard state != reportedWatch else { return }
        reportedWatch = state
        logger.log(level: level, "\(state)")
    }

    private func reportOnce(_ key: String, _ text: String) {
        guard reportedProblems[" " + key] != text else { return }
        reportedProblems[" " + key] = text
        logger.error("\(text)")
    }
}
