import ComicDomain
import Glibc
import Localization

/// The data folder (docs/storage.md) can hold what the service and the commands store: it is a folder
/// this user can write, or one they can create.
struct DataFolderCheck: Sendable {
    static let name = "data folder"

    enum Reading: Sendable, Equatable {
        /// A folder this user can write; what `currentChapterData.json` holds.
        case usable(path: String, chapter: ChapterReading)
        /// Not there yet, and `parent` (the nearest existing folder above) lets it be created.
        case creatable(path: String, parent: String)
        /// Not there, and `blocker` (above it) is no folder or not writable.
        case cannotCreate(path: String, blocker: String, isFolder: Bool)
        /// There, but not a folder.
        case notAFolder(path: String)
        /// A folder this user cannot write (or enter).
        case notWritable(path: String, ownedByUser: Bool)
        /// `$DBMULTIVERSE_DATA_DIR` is this relative path: refused (`DataFolder.resolve`).
        case relative(String)
    }

    enum ChapterReading: Sendable, Equatable {
        case none
        /// A chapter, and the language it names when this version does not know it.
        case chapter(Int, unknownLanguage: String?)
        case invalid(String)
    }

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    static func read(_ surroundings: Surroundings) -> Reading {
        guard let folder = try? DataFolder.resolve(environment: surroundings.environment) else {
            return .relative(surroundings.environment[DataFolder.environmentVariable] ?? "")
        }
        var status = stat()
        guard lstat(folder.path, &status) == 0 else {
            var above = folder.parentPath
            while !Files.isDirectory(above) && above != "/" {
                if access(above, F_OK) == 0 { return .cannotCreate(path: folder.path, blocker: above, isFolder: false) }
                above = DataFolder(path: above).parentPath
            }
            return access(above, W_OK | X_OK) == 0
                ? .creatable(path: folder.path, parent: above)
                : .cannotCreate(path: folder.path, blocker: above, isFolder: true)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { return .notAFolder(path: folder.path) }
        guard access(folder.path, R_OK | W_OK | X_OK) == 0 else {
            return .notWritable(path: folder.path, ownedByUser: status.st_uid == getuid())
        }
        let chapter: ChapterReading = switch folder.readChapterData() {
        case .missing: .none
        case .valid(let data): .chapter(data.number, unknownLanguage: data.unknownLanguage)
        case .invalid(let reason): .invalid(reason)
        }
        return .usable(path: folder.path, chapter: chapter)
    }

    /// Checked against `surroundings` for the short paths of the messages.
    func result(_ surroundings: Surroundings) -> CheckResult {
        switch reading {
        case .usable(let path, let chapter):
            let stored = switch chapter {
            // TRANSLATORS: doctor: the data folder's path, then what it holds.
            case .none: gettext("%s, nothing read yet", surroundings.short(path))
            // TRANSLATORS: doctor: the data folder's path, then the chapter stored in it.
            case .chapter(let number, nil): gettext("%s, chapter %d stored", surroundings.short(path), number)
            // TRANSLATORS: doctor: the data folder's path, the chapter stored in it, the language code it names.
            case .chapter(let number, let language?): gettext("%s, chapter %d stored, in the language %s, which this version does not know: the reader's language is used instead",
                                                              surroundings.short(path), number, quotedForMessage(language))
            // TRANSLATORS: doctor: the data folder's path, a file's name, why it cannot be read.
            case .invalid(let reason): gettext("%s, %s is unusable (%s): the widget shows the placeholder until the next page read replaces it",
                                               surroundings.short(path), DataFolder.chapterDataFile, reason)
            }
            return CheckResult(Self.name, .ok, stored)
        case .creatable(let path, _):
            return CheckResult(Self.name, .ok, gettext("%s, not made yet (made at the first chapter stored)", surroundings.short(path)))
        case .cannotCreate(let path, let blocker, let isFolder):
            return CheckResult(Self.name, .missing,
                               isFolder
                                   // TRANSLATORS: doctor: the data folder's path, then the folder above it that stops it.
                                   ? gettext("%s cannot be made: %s is a folder you cannot write", surroundings.short(path), blocker)
                                   // TRANSLATORS: doctor: the data folder's path, then the file in its way.
                                   : gettext("%s cannot be made: %s is not a folder", surroundings.short(path), blocker),
                               fix: isFolder ? "sudo chown \"$USER\" \(shellWord(blocker))" : "mv \(shellWord(blocker)) \(shellWord(blocker + ".old"))")
        case .notAFolder(let path):
            return CheckResult(Self.name, .missing, gettext("%s is not a folder", surroundings.short(path)), fix: "mv \(shellWord(path)) \(shellWord(path + ".old"))")
        case .relative(let path):
            // TRANSLATORS: doctor: DBMULTIVERSE_DATA_DIR is a variable's name, kept as it is; %s is its value.
            return CheckResult(Self.name, .missing, gettext("DBMULTIVERSE_DATA_DIR is %s, a relative path: each program would read it from its own working folder (the service started by D-Bus from /), so none uses it", quotedForMessage(path)),
                               fix: gettext("unset DBMULTIVERSE_DATA_DIR && systemctl --user unset-environment DBMULTIVERSE_DATA_DIR (or set it to an absolute path wherever it is set)"))
        case .notWritable(let path, let ownedByUser):
            return CheckResult(Self.name, .missing, gettext("%s is not writable for you", surroundings.short(path)),
                               fix: ownedByUser ? "chmod 700 \(shellWord(path))" : "sudo chown -R \"$USER\" \(shellWord(path)) && chmod 700 \(shellWord(path))")
        }
    }
}
