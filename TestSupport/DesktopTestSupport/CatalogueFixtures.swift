package import ComicDomain
import Foundation
package import SiteTestSupport

/// The fixture site's comic as the catalogue `sync` would store for it, for tests that write
/// `chapters-<language>.json` themselves (as another `dbmultiverse` process would).
package func catalogue(of comic: FixtureComic, language: SiteLanguage = .english) throws -> Catalogue {
    let chapters = try comic.chapters.map { chapter in
        try Catalogue.Chapter(number: chapter.number, name: chapter.name, startPage: chapter.startPage, endPage: chapter.endPage,
                              universe: chapter.universe, thumbnailURL: "")
    }
    let fetch = Catalogue.FetchMetadata(url: "http://127.0.0.1/\(language.code)/chapters.html", etag: nil, lastModified: nil, fetchedAt: 0)
    return try Catalogue(language: language, chapters: chapters, latestPage: comic.latestPage, fetch: fetch)
}

/// Stores `comic`'s catalogue in `folder` atomically, as `sync` does.
package func storeCatalogue(of comic: FixtureComic, language: SiteLanguage = .english, in folder: String) throws {
    let catalogue = try catalogue(of: comic, language: language)
    try writeAtomically(Data(catalogue.encodeJSON() + [0x0A]), to: folder + "/" + Catalogue.fileName(for: language))
}

package extension FixtureComic {
    /// The small comic with its main story cut to end at `lastPage` (a site rolled back).
    func rolledBack(to lastPage: Int) -> FixtureComic {
        var comic = self
        if let last = comic.chapters.lastIndex(where: { $0.universe == nil }) { comic.chapters[last].endPage = lastPage }
        comic.latestPage = lastPage
        return comic
    }
}
