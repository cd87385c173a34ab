package import ComicDomain
package import DBus

/// Domain errors travel as `com.nobadi.DBMultiverse.Error.<Kind>`; a bad option value is the
/// standard `InvalidArgs`, since the contract names no error of its own for it.
extension KindedError: DBusErrorConvertible where Failure == ComicErrorKind {
    package var dbusError: DBusError {
        switch kind {
        case .invalidOption: DBusError.invalidArgs(message)
        default: DBusError(name: WidgetBus.errorPrefix + kind.rawValue, message: message)
        }
    }
}
