import ArgumentParser
import ComicDomain
import DBus
import Localization
import Glibc
import Widget

/// `dbmultiverse sync-folder PATH|--off` (docs/sync.md): writes `sync-folder` in the config file,
/// then asks the running service to re-read it (a requested reload), so it applies at once.
struct SyncFolderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-folder",
        // TRANSLATORS: `sync-folder --help`: Syncthing, Nextcloud and Dropbox are names.
        abstract: gettext("Share the reading position with your other computers through a folder your file-sync tool (Syncthing, Nextcloud, Dropbox) keeps."),
        // TRANSLATORS: `sync-folder --help`; sync-folder and the config file's path stay as they are.
        discussion: gettext("Writes sync-folder = FOLDER in ~/.config/dbmultiverse/config and tells the running service. Each computer writes only its own record there; the newest reading wins on all of them. Run it on each computer with the same shared folder."))

    // TRANSLATORS: `sync-folder --help`.
    @Argument(help: ArgumentHelp(gettext("The shared folder, the same one on each computer (e.g. ~/Sync/dbmultiverse)."), valueName: "folder"),
              completion: .directory)
    var folder: String?

    @Flag(help: ArgumentHelp(gettext("Stop sharing the reading position.")))
    var off = false

    func validate() throws {
        guard (folder != nil) != off else { throw ValidationError(gettext("give either a folder or --off")) }
        if let folder, folder.contains("\n") || folder.contains("\r") { throw ValidationError(gettext("a folder name cannot hold a line break")) }
    }

    func run() throws {
        let environment = environment()
        var value: String?
        if let folder {
            let home = Posix.homeFolder(environment: environment) ?? ""
            let expanded = folder == "~" || folder.hasPrefix("~/") ? home + folder.dropFirst() : folder
            let chosen = SyncFolder(path: expanded)
            let data: DataFolder
            do {
                data = try DataFolder.resolve(environment: environment)
            } catch {
                throw CommandFailure.usage(error.message)
            }
            if chosen.overlaps(data) {
                // TRANSLATORS: the chosen folder, then the data folder.
                throw CommandFailure.usage(gettext("%s cannot be the sync folder: it and the data folder %s must not hold one another", chosen.path, data.path))
            }
            value = chosen.path
        }
        let path: String
        do {
            path = try ConfigFile.set(ConfigFile.syncFolderKey, to: value, environment: environment)
        } catch {
            throw CommandFailure(message: error.message, status: 1)
        }
        if let value {
            // TRANSLATORS: the folder, then the config file's path.
            Output.line(gettext("sync-folder = %s written in %s.", value, path))
            if !((try? Posix.pathStatus(value).get()).map { Posix.isDirectory($0.st_mode) } ?? false) {
                // TRANSLATORS: the folder; the service waits for it (a sync tool may make it later).
                Output.line(gettext("%s is not there yet: the service shares through it once it appears.", value))
            }
        } else {
            // TRANSLATORS: the config file's path.
            Output.line(gettext("sync-folder removed from %s: the reading position is no longer shared.", path))
        }
        do {
            try BlockingCaller().call(WidgetClient().reloadTimelines())
        } catch {
            // TRANSLATORS: why the running service could not be told (an error message).
            Output.error(gettext("the service could not be told (%s): it reads the setting when it next starts", "\(error)"))
        }
    }
}
