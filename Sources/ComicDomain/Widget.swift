/// The widget sizes, as the iOS widget's supported families.
package enum WidgetFamily: String, Sendable, CaseIterable {
    case small, medium

    /// Parses a family name exactly as sent (`small` or `medium`).
    /// - Throws: `invalidFamily` naming the bad value and the valid ones.
    package init(validating name: String) throws(ComicError) {
        guard let family = WidgetFamily(rawValue: name) else {
            let valid = WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")
            throw ComicError(.invalidFamily, "unknown widget family \(quotedForMessage(name)); valid families are \(valid)")
        }
        self = family
    }
}

/// The widget kind, as `WidgetCenter.reloadTimelines(ofKind:)` names it.
package enum WidgetKind {
    /// The only kind this service has.
    package static let name = "DBMultiverseWidgets"

    /// Accepts exactly ``name``.
    /// - Throws: `unknownKind` naming the bad value.
    package static func validate(_ kind: String) throws(ComicError) {
        guard kind == name else {
            throw ComicError(.unknownKind, "unknown widget kind \(quotedForMessage(kind)); the only kind is \(name)")
        }
    }
}
