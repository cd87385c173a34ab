/// What the program says about itself: `dbmultiverse --version`, and the User-Agent it sends to
/// the comic's site (docs/usage.md#the-comics-site).
package enum ProjectInfo {
    /// The release version: debian/changelog's newest entry, read at build time
    /// (scripts/build/project-version.sh, run by the ProjectVersion build plugin).
    package static let version = changelogVersion
    /// Where the project lives, named in the User-Agent so the site's volunteers can reach us.
    /// A placeholder until the maintainers confirm the address.
    package static let url = "https://github.com/nobadi/dbmultiverse-desktop"
    /// `dbmultiverse-desktop/<version> (+<url>)`.
    package static let userAgent = "dbmultiverse-desktop/\(version) (+\(url))"
}
