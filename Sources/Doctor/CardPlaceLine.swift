import Glibc
import JSON
import Localization
import Widget

/// The card lines (GNOME Shell extension, Plasma widget) when the card's place holds something
/// select-cards did not put there, which it leaves as it is (docs/troubleshooting.md): what is
/// there, and what to do.
enum CardPlaceLine {
    /// The id a card folder's metadata.json gives (GNOME: `uuid`; Plasma: `KPlugin.Id`), nil when
    /// it has none or cannot be read.
    static func metadataID(_ folder: String) -> String? {
        guard let bytes = Files.read(folder + "/metadata.json"), let metadata = try? JSONValue.parse(bytes) else { return nil }
        if case .string(let uuid)? = metadata["uuid"] { return uuid }
        if case .string(let id)? = metadata["KPlugin"]?["Id"] { return id }
        return nil
    }

    /// The line when the folder at the card's place is another card (its metadata names `id`).
    static func foreign(_ name: String, folder: String, id: String, _ surroundings: Surroundings) -> CheckResult {
        // TRANSLATORS: doctor: a folder, then the id of the other extension or widget it holds.
        CheckResult(name, .missing, gettext("%s holds %s, not DBMultiverse's card: select-cards leaves it as it is", surroundings.short(folder), id),
                    fix: moveAway(folder, surroundings))
    }

    /// The line when no card was found and select-cards' place says why; nil when it does not.
    static func missing(_ name: String, place answer: SelectCards.PlaceAnswer?, _ surroundings: Surroundings) -> CheckResult? {
        guard let answer else { return nil }
        let path = answer.path
        switch answer.place {
        case .otherLink(let target):
            return CheckResult(name, .missing, // TRANSLATORS: doctor: the card's place, then where the link there leads.
                               gettext("not installed: %s is a link to %s, which select-cards leaves as it is", surroundings.short(path), target),
                               fix: moveAway(path, surroundings))
        case .other:
            return CheckResult(name, .missing, // TRANSLATORS: doctor: the card's place.
                               gettext("not installed: %s is not DBMultiverse's card, which select-cards leaves as it is", surroundings.short(path)),
                               fix: moveAway(path, surroundings))
        case .folderLink(let real):
            let parent = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
            let card = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
            return CheckResult(name, .missing, // TRANSLATORS: doctor: a folder, then the folder it leads to.
                               gettext("not installed: %s leads to %s through a link, where select-cards links no card", surroundings.short(parent), real),
                               fix: asAdmin("ln -s \(shellWord(answer.build)) \(shellWord(real + "/" + card))", real))
        case .linked, .empty:
            return nil
        }
    }

    /// The place text of a card found at a link someone made themselves (`target`).
    static func ownLink(_ folder: String, target: String, _ surroundings: Surroundings) -> String {
        // TRANSLATORS: doctor: the card's place, then where the link leads; the card line goes on after it.
        gettext("installed in %s, a link of your own to %s (select-cards leaves it as it is)", surroundings.short(folder), target)
    }

    /// Move it out of its folder, then select-cards (the one beside the package's cards).
    private static func moveAway(_ path: String, _ surroundings: Surroundings) -> String {
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let selector = SelectCards.candidates(card: nil, executable: ProcessStart.executablePath(), environment: surroundings.environment)
            .first(where: Files.isExecutable)
        // TRANSLATORS: doctor: the folder to move it out of, then the command to run afterwards.
        return gettext("move it out of %s, then run %s", surroundings.short(parent), asAdmin(selector ?? "select-cards", parent))
    }

    /// `command`, with sudo when `folder` is not writable here.
    private static func asAdmin(_ command: String, _ folder: String) -> String {
        access(folder, W_OK) == 0 ? command : "sudo " + command
    }
}
