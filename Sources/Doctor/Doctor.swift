package import DBus
import ComicDomain
import Widget

/// `dbmultiverse doctor`: reads every piece of the installation and checks each, in the order a
/// person sets them up — the service, its data folder, the notifier and the peers it needs on the
/// bus, the browsers, the timer and the catalogue it keeps, the cards, and where updates come from.
package enum Doctor {
    /// Every check's result. `bus` is the session bus (nil with the reason when there is none).
    package static func examine(bus: Result<DoctorBus, DBusError>, _ surroundings: Surroundings) -> DoctorReport {
        let units = SystemdUnits.read(surroundings)
        let gnome = GnomeExtensionCheck.read(surroundings)
        let plasma = PlasmaWidgetCheck.read(surroundings)
        let gnomeCardOn = gnome.map { GnomeExtensionCheck($0).result(surroundings).status == .ok } ?? false

        // What the bus says; without one, each of these checks says why it cannot tell.
        let service: ServiceCheck.Reading, server: NotificationServerCheck.Reading
        let notifier: DoctorBus.Lookup, watcher: DoctorBus.Lookup, items: [String]
        switch bus {
        case .success(let bus):
            service = ServiceCheck.read(bus, surroundings)
            notifier = bus.lookUp(WidgetBus.notifierBusName.rawValue)
            server = NotificationServerCheck.read(bus)
            (watcher, items) = TrayHostCheck.readWatcher(bus)
        case .failure(let error):
            let reason = error.message
            (service, server) = (.noBus(reason), .noBus(reason))
            (notifier, watcher, items) = (.noBus(reason), .noBus(reason), [])
        }
        var checks = [
            ServiceCheck(service).result(surroundings),
            DataFolderCheck(DataFolderCheck.read(surroundings)).result(surroundings),
            NotifierCheck(.init(owner: notifier, units: units, autostart: NotifierCheck.readAutostart(surroundings),
                                running: notifier.owner?.pid.flatMap { RunningExecutable.read(pid: $0, surroundings) })).result(surroundings),
            NotificationServerCheck(server).result,
            TrayHostCheck(.init(watcher: watcher, items: items, config: surroundings.config,
                                desktop: surroundings.environment["XDG_CURRENT_DESKTOP"] ?? "",
                                notifierPID: notifier.owner?.pid, gnomeCardEnabled: gnomeCardOn)).result(surroundings),
        ]

        let browsers = FoundBrowser.find(surroundings)
        // A missing or malformed record means never (the host rewrites it at its next start).
        let contacts = (try? DataFolder.resolve(environment: surroundings.environment))?.readBrowserContacts().value ?? BrowserContacts()
        checks += browsers.map { BrowserCheck(BrowserCheck.read($0, contacts: contacts, surroundings)).result(surroundings) }
        if browsers.isEmpty { checks.append(NoBrowserCheck.result) }

        checks.append(SyncTimerCheck(SyncTimerCheck.read(surroundings, units: units)).result(surroundings))
        checks.append(CatalogueCheck(CatalogueCheck.read(surroundings)).result(surroundings))
        if let sync = SyncFolderCheck(SyncFolderCheck.read(surroundings)).result(surroundings) { checks.append(sync) }
        if let gnome { checks.append(GnomeExtensionCheck(gnome).result(surroundings)) }
        if let plasma {
            checks.append(PlasmaWidgetCheck(plasma, build: PlasmaWidgetCheck.readBuild(plasma, surroundings),
                                            place: PlasmaWidgetCheck.readPlace(plasma, surroundings)).result(surroundings))
        }
        checks.append(UpdatesCheck(UpdatesCheck.read(surroundings)).result(surroundings))
        return DoctorReport(checks: checks)
    }
}
