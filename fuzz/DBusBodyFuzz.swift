// libFuzzer target `dbusbody` (scripts/dev/fuzz.sh): the binding's reading of message bodies.
//
// Built with swiftc against the `DBus` and `ComicDomain` modules and the Desktop layer's
// Sources/Desktop/Bus/EntryDictionary.swift. The input is a whole marshalled message (the seeds
// in fuzz/corpus/dbusbody are real ones, see fuzz/MakeDBusSeeds.swift); whatever libdbus accepts
// as a message is read: every argument with `MessageReader.readValue()`, then the widget's real
// signatures with typed decodes, then `ChapterEntry(dbusDictionary:)`. None of it may trap:
// everything the bus delivers ends in a value or an `InvalidArgs`.

import ComicDomain
import DBus

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let message = try? Message(wireBytes: bytes) else { return 0 }
    _ = (message.kind, message.path, message.interface, message.member, message.sender,
         message.destination, message.errorName, message.serial, message.replySerial)
    _ = message.error

    // Dynamically typed: read to the end, then write the values into a new message, which must
    // carry the same signature (values from the bus are always encodable again).
    var reader = message.reader()
    var values: [DBusValue] = []
    var complete = true
    while !reader.isAtEnd {
        // A rejected argument may still have been read past, so stop at the first one.
        guard let value = try? reader.readValue() else { complete = false; break }
        values.append(value)
        _ = value.description
        precondition(values.count <= size, "the reader does not advance")
    }
    if complete {
        precondition(values.map(\.signature.rawValue).joined() == message.signature,
                     "read signatures \(values.map(\.signature.rawValue)) differ from the body's '\(message.signature)'")
        let copy = Message.signal(path: "/fuzz", interface: "com.example.Fuzz", member: "Copy")
        var writer = copy.writer()
        for value in values { Variant(value).encode(to: &writer) }
        precondition(copy.signature == String(repeating: "v", count: values.count), "re-encoded signature \(copy.signature)")
    }

    // The widget's signatures (docs/dbus-api.md#the-sync-rules, docs/deep-links.md).
    if let update = try? message.decode(Int32.self, String.self, Int32.self, [UInt8].self, [String: Variant].self) {
        useOptions(update.4)
    }
    if let open = try? message.decode([String].self, [String: Variant].self) {
        for uri in open.0 { _ = DeepLink.parse(uri) }
        useOptions(open.1)
    }
    if let action = try? message.decode(String.self, [Variant].self, [String: Variant].self) {
        for parameter in action.1 { _ = try? parameter.get(Int32.self) }
        useOptions(action.2)
    }
    if let entry = try? message.decode([String: Variant].self) {
        useOptions(entry)
    }
    return 0
}

/// What the service and the clients do with an `a{sv}`: typed gets, and reading it as an entry.
private func useOptions(_ options: [String: Variant]) {
    for (_, variant) in options {
        _ = try? variant.get(String.self)
        _ = try? variant.get(Int32.self)
        _ = try? variant.get(Int64.self)
        _ = try? variant.get(Bool.self)
        _ = try? variant.get([String: Variant].self)
        _ = try? variant.get([UInt8].self)
    }
    if let entry = try? ChapterEntry(dbusDictionary: options) {
        _ = entry.dbusDictionary
    }
}
