import Localization
import Widget

/// What select-cards says of one desktop installed here: its version ("48.7" for GNOME Shell, "6"
/// for Plasma) and the build of the card that fits it ("gnome-shell-45").
struct CardChoice: Sendable, Equatable {
    var version: String
    var build: String

    init(version: String, build: String) {
        (self.version, self.build) = (version, build)
    }
}

/// select-cards (desktop/select-cards, installed in `<prefix>/libexec/dbmultiverse/`) decides which
/// build of each card fits the desktop installed here; doctor asks it (`--query`) rather than
/// repeat its rule.
enum SelectCards {
    /// The selector installed with the cards in `cards` (`<prefix>/share/dbmultiverse/cards`).
    static func beside(cards: String) -> String {
        String(cards.dropLast("/share/dbmultiverse/cards".count)) + "/libexec/dbmultiverse/select-cards"
    }

    /// Where it is looked for: beside the installed cards of `folder` (the desktop's card folder),
    /// beside the running binary (`<prefix>/libexec/dbmultiverse/`), and in a build tree
    /// (`<repository>/.build/…`, or a scratch path beside it such as `make sanitize`'s
    /// `.build-asan/…`) the repository's desktop/select-cards.
    static func candidates(card folder: String?, executable: String) -> [String] {
        var candidates: [String] = []
        if let real = folder.flatMap(Files.realPath), let slash = real.lastIndex(of: "/"), real[..<slash].hasSuffix("/share/dbmultiverse/cards") {
            candidates.append(beside(cards: String(real[..<slash])))
        }
        candidates += ProcessStart.siblingCandidates("select-cards", executable: executable)
        if let build = executable.firstRange(of: "/.build/") ?? executable.firstRange(of: "/.build-") {
            candidates.append(executable[..<build.lowerBound] + "/desktop/select-cards")
        }
        return candidates
    }

    /// Its answer for `desktop` (`gnome-shell` or `plasma`), from the first candidate there is: nil
    /// when it cannot read that desktop's version, `.failure` with the places looked in when there
    /// is no select-cards or it does not answer.
    static func ask(_ desktop: String, card folder: String?, _ surroundings: Surroundings) -> Result<CardChoice, NotAnswered>? {
        let candidates = candidates(card: folder, executable: ProcessStart.executablePath())
        guard let selector = candidates.first(where: Files.isExecutable) else { return .failure(NotAnswered(looked: candidates)) }
        guard let output = surroundings.commands.run([selector, "--query"], timeout: .seconds(5)), output.succeeded else {
            return .failure(NotAnswered(looked: [selector]))
        }
        for line in output.stdout.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 3, words[0] == desktop else { continue }
            return words[1] == "-" ? nil : .success(CardChoice(version: words[1], build: words[2]))
        }
        return .failure(NotAnswered(looked: [selector]))
    }

    /// No select-cards answered: the places looked in.
    struct NotAnswered: Error, Sendable, Equatable {
        var looked: [String]

        init(looked: [String]) { self.looked = looked }

        /// For the card's line.
        var description: String {
            // TRANSLATORS: doctor: the places select-cards was looked for in.
            gettext("which build fits cannot be told: select-cards did not answer (looked for %s)", looked.joined(separator: ", "))
        }
    }
}
