// Writes the seed corpus of the `dbusbody` fuzz target: real marshalled messages with the
// widget's signatures, made with `Message.wireBytes()`. Run by `scripts/dev/fuzz.sh --seeds`:
//   swiftc ... fuzz/MakeDBusSeeds.swift -o .build-fuzz/make-dbus-seeds && .build-fuzz/make-dbus-seeds fuzz/corpus/dbusbody

import DBus
import Glibc

let directory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "fuzz/corpus/dbusbody"
let widget: ObjectPath = "/com/nobadi/DBMultiverse"
let app: InterfaceName = "org.freedesktop.Application"
let entry: [String: Variant] = [
    "chapter": Variant(Int32(42)), "name": Variant("Vegeta's Rage"), "progress": Variant(Int32(35)),
    "image-path": Variant("/home/u/.local/share/dbmultiverse/chapterCoverImage.jpg"),
    "deep-link": Variant("dbmultiverse://chapter/42"), "date": Variant(Int64(1_700_000_000)),
    "family": Variant("medium"), "is-placeholder": Variant(false),
]

func call(_ interface: InterfaceName, _ member: MemberName) -> Message {
    Message.methodCall(destination: "com.nobadi.DBMultiverse", path: widget, interface: interface, member: member)
}

/// `message` as the receiver sees it: sent, so it has a serial (a reply needs one).
func received(_ message: Message) -> Message {
    do { return try Message(wireBytes: message.wireBytes()) } catch { fatalError("\(error)") }
}

var seeds: [(String, Message)] = []
let update = call("com.nobadi.DBMultiverse.Widget1", "UpdateChapter")
update.append(Int32(42), "Vegeta's Rage", Int32(35), [UInt8]([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]), ["page": Variant(Int32(3)), "language": Variant("fr")] as [String: Variant])
seeds.append(("update-chapter", update))
let open = call(app, "Open")
open.append(["dbmultiverse://chapter/42", "DBMultiverse://Chapter/7/"], ["activation-token": Variant("t0k")] as [String: Variant])
seeds.append(("open", open))
let action = call(app, "ActivateAction")
action.append("open-chapter", [Variant(Int32(42))], ["desktop-startup-id": Variant("id")] as [String: Variant])
seeds.append(("activate-action", action))
let reply = received(call("com.nobadi.DBMultiverse.Widget1", "GetEntry")).makeReply()
reply.append(entry)
seeds.append(("entry-reply", reply))
let changed = Message.signal(path: widget, interface: "com.nobadi.DBMultiverse.Widget1", member: "EntryChanged")
changed.append(entry, ["nested": Variant(["a": Variant([Variant(true), Variant(1.5)])] as [String: Variant])] as [String: Variant])
seeds.append(("entry-changed", changed))
let error = received(call(app, "Activate")).makeErrorReply(DBusError(name: "com.nobadi.DBMultiverse.Error.InvalidDeepLink", message: "invalid deep link"))
seeds.append(("error", error))
let mixed = Message.signal(path: "/a", interface: "com.example.Mixed", member: "All")
mixed.append(UInt8(1), true, Int16(-2), UInt16(3), Int32(-4), UInt32(5), Int64(-6), UInt64(7), 8.5, "s",
             ObjectPath("/o"), Signature("a{sv}"), [[Int32]]([[1, 2], []]), [String: [String: Int32]]())
seeds.append(("mixed", mixed))

for (name, message) in seeds {
    let bytes = message.wireBytes()
    let path = "\(directory)/\(name)"
    guard let file = fopen(path, "wb") else { fatalError("cannot write \(path)") }
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    print("\(path): \(bytes.count) bytes")
}
