package import ComicDomain

/// `import-history`'s lookup: the newest visit to a page of the comic across browser profiles.
/// Reads each profile's database from a private copy; never writes next to a browser's files.
package enum HistoryLookup {
    /// A profile whose history could not be read, and why.
    package struct ProfileFailure: Error, Sendable, CustomStringConvertible {
        package let profile: BrowserProfile
        package let error: HistoryError
        package var description: String { "\(profile): \(error.message)" }
    }

    /// What the lookup found: the newest visit (nil when no profile holds one) and the profiles
    /// that could not be read, which do not stop the others from counting.
    package struct Outcome: Sendable {
        package let newest: HistoryVisit?
        package let failures: [ProfileFailure]
        /// How many profiles were read without error.
        package let profilesRead: Int
    }

    /// Reads every profile in `profiles`; the newest visit across them wins. Visits to pages on
    /// `origin` count too when it is an override of the site (`$DBMULTIVERSE_SITE_URL`). The
    /// copies are made in `temporaryRoot` (see `temporaryRoot(environment:)`).
    package static func newestPageVisit(in profiles: [BrowserProfile], origin: SiteOrigin = .site, temporaryRoot: String) -> Outcome {
        var newest: HistoryVisit?
        var failures: [ProfileFailure] = []
        for profile in profiles {
            do {
                if let visit = try HistoryDatabase.newestPageVisit(in: profile, origin: origin, temporaryRoot: temporaryRoot),
                   visit.time > newest?.time ?? Int64.min {
                    newest = visit
                }
            } catch {
                failures.append(ProfileFailure(profile: profile, error: error))
            }
        }
        return Outcome(newest: newest, failures: failures, profilesRead: profiles.count - failures.count)
    }

    /// `$TMPDIR` when absolute, else `/tmp`: where the private copies are made.
    package static func temporaryRoot(environment: [String: String]) -> String {
        guard let root = environment["TMPDIR"], root.hasPrefix("/") else { return "/tmp" }
        return root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    }
}
