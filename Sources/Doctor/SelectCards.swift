import Localization
import Synchronization
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

    /// The variable that names the select-cards to ask first: a build that is not installed has
    /// none beside it (`DBMULTIVERSE_SELECT_CARDS=$PWD/desktop/select-cards` in the repository; the
    /// tests set it so).
    static let variable = "DBMULTIVERSE_SELECT_CARDS"

    /// Where it is looked for: `$DBMULTIVERSE_SELECT_CARDS`, beside the installed cards of `folder`
    /// (the desktop's card folder), and beside the running binary (`<prefix>/libexec/dbmultiverse/`).
    static func candidates(card folder: String?, executable: String, environment: [String: String]) -> [String] {
        var candidates = environment[variable].map { [$0] } ?? []
        if let real = folder.flatMap(Files.realPath), let slash = real.lastIndex(of: "/"), real[..<slash].hasSuffix("/share/dbmultiverse/cards") {
            candidates.append(beside(cards: String(real[..<slash])))
        }
        return candidates + ProcessStart.siblingCandidates("select-cards", executable: executable)
    }

    /// Its answer for `desktop` (`gnome-shell` or `plasma`), from the first candidate there is: nil
    /// when it cannot read that desktop's version, `.failure` with the places looked in when there
    /// is no select-cards or it does not answer.
    static func ask(_ desktop: String, card folder: String?, _ surroundings: Surroundings) -> Result<CardChoice, NotAnswered>? {
        switch query(card: folder, surroundings) {
        case .failure(let unanswered): return .failure(unanswered)
        case .success(let answer):
            guard let choice = answer.choices[desktop] else { return .failure(NotAnswered(looked: [answer.selector])) }
            return choice.map { .success($0) }
        }
    }

    /// What is at `desktop`'s card place in the selector's own data folder (`<prefix>/share`); nil
    /// when no select-cards answers.
    static func place(_ desktop: String, card folder: String?, _ surroundings: Surroundings) -> PlaceAnswer? {
        guard case .success(let answer) = query(card: folder, surroundings), let place = answer.places[desktop] else { return nil }
        let build = answer.choices[desktop]??.build ?? (desktop == "plasma" ? "plasma-6" : "gnome-shell-45")
        return PlaceAnswer(path: answer.placePath(desktop), place: place, build: answer.buildPath(build))
    }

    /// A card's place as select-cards sees it: its path, what is there, and the folder of the
    /// build that fits the desktop.
    struct PlaceAnswer: Sendable, Equatable {
        var path: String
        var place: CardPlace
        var build: String

        init(path: String, place: CardPlace, build: String) {
            (self.path, self.place, self.build) = (path, place, build)
        }
    }

    /// `select-cards --query`'s answer, asked once per selector and doctor run: it may wait for a
    /// desktop program (at most its own deadline, 3 s) to say its version.
    static func query(card folder: String?, _ surroundings: Surroundings) -> Result<Answer, NotAnswered> {
        let candidates = candidates(card: folder, executable: ProcessStart.executablePath(), environment: surroundings.environment)
        guard let selector = candidates.first(where: Files.isExecutable) else { return .failure(NotAnswered(looked: candidates)) }
        return surroundings.selectCardsAnswers.answer(selector) {
            guard let output = surroundings.commands.run([selector, "--query"], timeout: .seconds(5)), output.succeeded else {
                return .failure(NotAnswered(looked: [selector]))
            }
            return .success(Answer(selector: selector, output: output.stdout))
        }
    }

    /// What one select-cards said: per desktop its version and the build that fits (nil: the
    /// version cannot be read), and what is at each card's place.
    struct Answer: Sendable, Equatable {
        let selector: String
        var choices: [String: CardChoice?] = [:]
        var places: [String: CardPlace] = [:]

        /// Reads `--query`'s lines: `gnome-shell 48.7 gnome-shell-45`, `place plasma linked plasma-6`.
        init(selector: String, output: String) {
            self.selector = selector
            for line in output.split(separator: "\n") {
                let words = line.split(separator: " ", maxSplits: 3).map(String.init)
                if words.count == 3, words[0] != "place" {
                    choices[words[0]] = words[1] == "-" ? .some(nil) : CardChoice(version: words[1], build: words[2])
                } else if words.count >= 3, words[0] == "place", let place = CardPlace(words[2], words.count > 3 ? words[3] : nil) {
                    places[words[1]] = place
                }
            }
        }

        /// The card's place for `desktop` in the selector's data folder.
        func placePath(_ desktop: String) -> String {
            let share = String(selector.dropLast("/libexec/dbmultiverse/select-cards".count)) + "/share/"
            return share + (desktop == "plasma" ? "plasma/plasmoids/" + PlasmaWidgetCheck.pluginID : "gnome-shell/extensions/" + GnomeExtensionCheck.uuid)
        }

        /// The installed build `build`'s folder, beside the selector.
        func buildPath(_ build: String) -> String {
            String(selector.dropLast("/libexec/dbmultiverse/select-cards".count)) + "/share/dbmultiverse/cards/" + build
        }
    }

    /// Each selector's answer, asked once (the card checks both read it).
    final class Answers: Sendable {
        private let answers = Mutex<[String: Result<Answer, NotAnswered>]>([:])

        init() {}

        func answer(_ selector: String, asking: () -> Result<Answer, NotAnswered>) -> Result<Answer, NotAnswered> {
            if let known = answers.withLock({ $0[selector] }) { return known }
            let answer = asking()
            answers.withLock { $0[selector] = answer }
            return answer
        }
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

/// What is at a card's place (the folder a desktop reads the card from), as select-cards tells it.
/// Only its own link is the package's: select-cards leaves anything else as it is.
enum CardPlace: Sendable, Equatable {
    /// select-cards' own link, to this build.
    case linked(String)
    /// Nothing.
    case empty
    /// A link select-cards did not make, to this target.
    case otherLink(String)
    /// A folder or a file, not select-cards' link.
    case other
    /// The place's folder leads (through a link) to this real folder, where a link of select-cards'
    /// would point nowhere: it makes none there.
    case folderLink(String)

    /// From `place DESKTOP STATE [DETAIL]`.
    init?(_ state: String, _ detail: String?) {
        switch (state, detail) {
        case ("linked", let build?): self = .linked(build)
        case ("none", _): self = .empty
        case ("other-link", let target?): self = .otherLink(target)
        case ("other-folder", _), ("other-file", _): self = .other
        case ("folder-link", let real?): self = .folderLink(real)
        default: return nil
        }
    }
}
