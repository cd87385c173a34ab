package import DBus
internal import ComicDomain
internal import Widget

/// `dbmultiverse doctor`: reads every piece of the installation and checks each, in the order a
/// person sets them up — the service, its data folder, the notifier and the peers it needs on the
/// bus, the browsers, the timer and the catalogue it keeps, the cards.
package enum Doctor {
    /// Every check's result. `bus` is the session bus (nil with the reason when there is none).
    package static func examine(bus: Result<DoctorBus, DBusError>, _ surroundings: Surroundings) -> DoctorReport {
        let units = SystemdUnits.read(surroundings)
        let gnome = GnomeExtensionCheck.read(surroundings)
        let plasma = PlasmaWidgetCheck.read(surroundings)
        let config = surroundings.config
        let desktop = surroundings.environment["XDG_CURRENT_DESKTOP"] ?? ""
        let gnomeCardOn = gnome.map { GnomeExtensionCheck($0).result(surroundings).status == .ok } ?? false
        var checks: [CheckResult] = []

        switch bus {
        case .success(let bus):
            checks.append(ServiceCheck(ServiceCheck.read(bus, surroundings)).result)
            checks.append(DataFolderCheck(DataFolderCheck.read(surroundings)).result(surroundings))
            let notifier = bus.owner(of: WidgetBus.notifierBusName.rawValue)
            checks.append(NotifierCheck(.init(owner: notifier, noBus: nil, units: units, autostart: NotifierCheck.readAutostart(surroundings)))
                .result(surroundings))
            checks.append(NotificationServerCheck(NotificationServerCheck.read(bus)).result)
            let (watcher, items) = TrayHostCheck.readWatcher(bus)
            checks.append(TrayHostCheck(.init(watcher: watcher, noBus: nil, items: items, config: config, desktop: desktop,
                                              notifierPID: notifier?.pid, gnomeCardEnabled: gnomeCardOn)).result(surroundings))
        case .failure(let error):
            let reason = error.message
            checks.append(ServiceCheck(.noBus(reason)).result)
            checks.append(DataFolderCheck(DataFolderCheck.read(surroundings)).result(surroundings))
            checks.append(NotifierCheck(.init(owner: nil, noBus: reason, units: units, autostart: NotifierCheck.readAutostart(surroundings)))
                .result(surroundings))
            checks.append(NotificationServerCheck(.noBus(reason)).result)
            checks.append(TrayHostCheck(.init(watcher: nil, noBus: reason, items: [], config: config, desktop: desktop,
                                              notifierPID: nil, gnomeCardEnabled: gnomeCardOn)).result(surroundings))
        }

        let browsers = FoundBrowser.find(surroundings)
        // A missing or malformed record means never (the host rewrites it at its next start).
        let contacts = DataFolder.resolve(environment: surroundings.environment).readBrowserContacts().value ?? BrowserContacts()
        checks += browsers.map { BrowserCheck(BrowserCheck.read($0, contacts: contacts, surroundings)).result(surroundings) }
        if browsers.isEmpty { checks.append(NoBrowserCheck.result) }

        checks.append(SyncTimerCheck(SyncTimerCheck.read(surroundings, units: units)).result(surroundings))
        checks.append(CatalogueCheck(CatalogueCheck.read(surroundings)).result(surroundings))
        if let gnome { checks.append(GnomeExtensionCheck(gnome).result(surroundings)) }
        if let plasma { checks.append(PlasmaWidgetCheck(plasma).result(surroundings)) }
        return DoctorReport(checks: checks)
    }
}
