import ComicDomain
import Localization

/// The sync folder (docs/sync.md), when `sync-folder` is set: which folder, whether it is there,
/// and which computers have written their reading there and when each last read.
struct SyncFolderCheck: Sendable {
    static let name = "sync folder"

    /// One computer seen in the folder: its newest record (a conflict copy counts too).
    struct Computer: Sendable, Equatable {
        var name: String
        var readAt: Int64
        var isThisComputer: Bool
    }

    enum Reading: Sendable, Equatable {
        /// `sync-folder` is not set: nothing is shared, and no line is shown.
        case off
        /// The line cannot be used (the reason).
        case badSetting(String)
        /// Set, but the folder is not there (or is no folder).
        case missing(path: String)
        /// There: the computers seen, newest first, and how many files are unusable records.
        case present(path: String, computers: [Computer], unusable: Int)
    }

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    static func read(_ surroundings: Surroundings) -> Reading {
        let (folder, problem) = surroundings.config.syncFolder(home: surroundings.home)
        if let problem { return .badSetting(problem) }
        guard let folder else { return .off }
        guard let names = folder.readableNames(), Files.isDirectory(folder.path) else { return .missing(path: folder.path) }
        let thisMachine = try? ComputerIdentity.current(environment: surroundings.environment, config: surroundings.config).machine
        var newest: [String: ReadingRecord] = [:]
        var unusable = 0
        for name in names {
            switch folder.readRecord(name) {
            case .valid(let record):
                if newest[record.stamp.machine].map({ $0.stamp < record.stamp }) ?? true { newest[record.stamp.machine] = record }
            case .invalid: unusable += 1
            case .missing: break
            }
        }
        let computers = newest.values.sorted { $0.stamp > $1.stamp }.map {
            Computer(name: $0.computer, readAt: $0.readAt, isThisComputer: $0.stamp.machine == thisMachine)
        }
        return .present(path: folder.path, computers: computers, unusable: unusable)
    }

    /// The check's line, or nil when sharing is off.
    func result(_ surroundings: Surroundings) -> CheckResult? {
        switch reading {
        case .off:
            return nil
        case .badSetting(let problem):
            return CheckResult(Self.name, .missing, problem, fix: "dbmultiverse sync-folder FOLDER")
        case .missing(let path):
            // TRANSLATORS: doctor: the sync folder's path. The reading position stays as it is on this computer.
            return CheckResult(Self.name, .missing, gettext("%s is not there (removed, or its drive not mounted): the position here stays as it is until it is back", surroundings.short(path)),
                               // TRANSLATORS: doctor: what to do; the command stays as it is.
                               fix: gettext("mount the drive that holds it, or choose another folder: dbmultiverse sync-folder FOLDER"))
        case .present(let path, let computers, let unusable):
            var parts = computers.map { computer in
                computer.isThisComputer
                    // TRANSLATORS: doctor: a computer seen in the sync folder (this one), and when it last read ("3 min ago").
                    ? gettext("%s (this computer) read %s", computer.name, surroundings.relative(computer.readAt))
                    // TRANSLATORS: doctor: a computer seen in the sync folder, and when it last read ("3 min ago").
                    : gettext("%s read %s", computer.name, surroundings.relative(computer.readAt))
            }
            // TRANSLATORS: doctor: the sync folder holds no record yet.
            if parts.isEmpty { parts.append(gettext("no computer has written there yet")) }
            // TRANSLATORS: doctor: files of the sync folder that are not usable records (skipped).
            if unusable > 0 { parts.append(ngettext("%d unusable record skipped", "%d unusable records skipped", unusable, unusable)) }
            return CheckResult(Self.name, .ok, surroundings.short(path) + ": " + parts.joined(separator: ", "))
        }
    }
}
