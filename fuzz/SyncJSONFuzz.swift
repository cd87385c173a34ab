// libFuzzer target `syncjson` (scripts/dev/fuzz.sh): `widgetSyncState.json` content.
//
// Built together with Sources/ComicDomain into one module (the JSON parser is its own).
// Invariants, checked with preconditions so libFuzzer reports a violation as a crash: decoding
// never traps; an accepted state is within the docs/storage.md ranges and survives encodeJSON → decode
// unchanged; any parsed JSON value survives serialized → parse unchanged.

import JSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? JSONValue.parse(bytes) {
        let again: JSONValue
        do { again = try JSONValue.parse(value.serialized()) } catch {
            preconditionFailure("serialised JSON does not parse: \(error)")
        }
        precondition(again == value, "JSON round trip changed the value")
    }
    guard let state = try? SyncState.decode(bytes) else { return 0 }
    precondition(Limits.chapters.contains(state.chapter), "chapter \(state.chapter) out of range")
    precondition(Limits.progress.contains(state.progress), "progress \(state.progress) out of range")
    precondition(Limits.universes.contains(state.universe), "universe \(state.universe) out of range")
    if let latest = state.latestPage {
        precondition(Limits.pages.contains(latest.page) && SiteLanguage(code: latest.language) != nil, "latest page \(latest) accepted")
    }
    let again: SyncState
    do { again = try SyncState.decode(state.encodeJSON()) } catch {
        preconditionFailure("re-encoded state does not decode: \(error)")
    }
    precondition(again == state, "round trip changed \(state) into \(again)")
    return 0
}
