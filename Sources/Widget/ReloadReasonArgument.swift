package import ComicDomain
import DBus

/// `TimelinesReloaded`'s `reason` is declared as a `ReloadReason`: the service emits one, clients
/// receive one (an unknown reason kept as sent).
extension ReloadReason: DBusStringValue {}
