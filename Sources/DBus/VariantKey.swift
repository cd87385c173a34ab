/// A key of an `a{sv}` (a method's options, `platform_data`, hints) with the type of its value,
/// declared once so that the side that writes the dictionary and the side that reads it agree on
/// both: `static let page = VariantKey<Int32>("page")`.
package struct VariantKey<Value: DBusArgument>: Sendable {
    package let name: String

    package init(_ name: String) { self.name = name }

    /// The value in `dictionary`, nil when absent.
    /// - Throws: `InvalidArgs` naming the key and both types when the value has another type.
    package func value(in dictionary: [String: Variant]) throws(DBusError) -> Value? {
        guard let variant = dictionary[name] else { return nil }
        do {
            return try variant.get(Value.self)
        } catch {
            throw DBusError.invalidArgs("option '\(name)' must be of type '\(Value.dbusSignature)', got '\(variant.value.signature)'")
        }
    }
}

extension Dictionary where Key == String, Value == Variant {
    /// The value of `key` when present with its declared type (nil otherwise); setting nil removes it.
    package subscript<T>(key: VariantKey<T>) -> T? {
        get { try? key.value(in: self) ?? nil }
        set { self[key.name] = newValue.map { Variant($0) } }
    }
}
