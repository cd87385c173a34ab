public import ComicDomain

/// `import-history`'s lookup: the newest visit to a page of the comic across browser profiles.
/// Reads each profile's database from a private copy; never writes next to a browser's files.
public enum HistoryLookup {
    /// A profile whose history could not be read, and why.
    public struct ProfileFailure: Error, Sendable, CustomStringConvertible {
        public let profile: BrowserProfile
        public let error: HistoryError
        public var description: String { "\(profile): \(error.message)" }
    }

    /// What the lookup found: the newest visit (nil when no profile holds one) and the profiles
    /// that could not be read, which do not stop the others from counting.
    public struct Outcome: Sendable {
        public let newest: HistoryVisit?
        public let failures: [ProfileFailure]
        /// How many profiles were read without error.
        public let profilesRead: Int
    }

    /// Reads every profile in `profiles`; the newest visit across them wins. Visits to pages on
    /// `origin` count too when it is an override of the site (`$DBMULTIVERSE_SITE_URL`). The
    /// copies are made in `temporaryRoot` (see `temporaryRoot(environment:)`).
    public static func newestPageVisit(in profiles: [BrowserProfile], origin: SiteOrigin = .site, temporaryRoot: String) -> Outcome {
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
    public static func temporaryRoot(environment: [String: String]) -> String {
        guard let root = environment["TMPDIR"], root.hasPrefix("/") else { return "/tmp" }
        return root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    }
}
