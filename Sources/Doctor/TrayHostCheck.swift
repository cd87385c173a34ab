import ComicDomain
import DBus
import Follower
import Localization

/// A tray host runs `org.kde.StatusNotifierWatcher`, where the notifier's item registers — unless
/// the item is turned off (`tray = no`), or GNOME shows DBMultiverse's card instead.
struct TrayHostCheck: Sendable {
    static let name = "tray host"
    static let watcher = StatusNotifierWatcher.object.destination.rawValue

    struct Reading: Sendable, Equatable {
        /// Who owns the watcher's name.
        var watcher: DoctorBus.Lookup
        /// The watcher's `RegisteredStatusNotifierItems`.
        var items: [String]
        /// `tray` in the config file turns the item off.
        var config: ConfigFile
        /// `XDG_CURRENT_DESKTOP`, for the fix (GNOME has no tray of its own).
        var desktop: String
        /// The notifier's process, whose item is `org.kde.StatusNotifierItem-<pid>-1`.
        var notifierPID: UInt32?
        /// DBMultiverse's GNOME Shell extension is on (the card stands in for the tray there).
        var gnomeCardEnabled: Bool

        init(watcher: DoctorBus.Lookup, items: [String], config: ConfigFile, desktop: String, notifierPID: UInt32?,
                     gnomeCardEnabled: Bool) {
            self.watcher = watcher
            self.items = items
            self.config = config
            self.desktop = desktop
            self.notifierPID = notifierPID
            self.gnomeCardEnabled = gnomeCardEnabled
        }
    }

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    /// The watcher and its items, as the bus says.
    static func readWatcher(_ bus: DoctorBus) -> (DoctorBus.Lookup, [String]) {
        let owner = bus.lookUp(watcher)
        guard case .owned = owner else { return (owner, []) }
        // A watcher that does not answer has, as far as the line can tell, no item registered.
        let items = (try? bus.call(StatusNotifierWatcher.registeredStatusNotifierItems.get(from: StatusNotifierWatcher.object)
            .withoutActivation()).get()) ?? []
        return (owner, items)
    }

    func result(_ surroundings: Surroundings) -> CheckResult {
        if !TraySettings(noTrayOption: false, config: reading.config).isEnabled {
            return CheckResult(Self.name, .off, gettext("the tray item is turned off (tray = no in %s)", surroundings.short(surroundings.configPath)),
                               fix: gettext("remove the tray = no line from %s", shellWord(surroundings.configPath)))
        }
        if case .noBus(let reason) = reading.watcher {
            return CheckResult(Self.name, .unavailable, gettext("cannot be checked without a session bus (%s)", reason))
        }
        let isGNOME = reading.desktop.split(separator: ":").contains { $0.uppercased() == "GNOME" }
        guard let watcher = reading.watcher.owner else {
            if isGNOME && reading.gnomeCardEnabled {
                return CheckResult(Self.name, .unavailable, gettext("none: GNOME shows no tray, and DBMultiverse's card is on instead"))
            }
            let fix = isGNOME
                ? gettext("gnome-extensions enable dbmultiverse@nobadi.com (DBMultiverse's card), or sudo apt install gnome-shell-extension-appindicator")
                // TRANSLATORS: doctor: use the desktops' own names of these in your language.
                : gettext("add a system tray to your panel (Plasma's System Tray, Waybar's tray module, XFCE's Status Notifier Plugin)")
            return CheckResult(Self.name, .missing, gettext("no %s on the bus: the tray item has nowhere to show", Self.watcher), fix: fix)
        }
        let host = "\(Self.watcher) (\(watcher))"
        guard let pid = reading.notifierPID else { return CheckResult(Self.name, .ok, host) }
        let ours = reading.items.contains { $0.hasPrefix("org.kde.StatusNotifierItem-\(pid)-") }
        // TRANSLATORS: doctor: the tray host (a bus name and its owner) comes first.
        return CheckResult(Self.name, .ok, ours ? gettext("%s, the notifier's item registered", host)
                                                : gettext("%s, no item of the notifier registered (started with --no-tray?)", host))
    }
}
