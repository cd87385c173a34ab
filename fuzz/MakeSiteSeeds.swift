// Writes the `sitemarkup` seeds (scripts/dev/fuzz.sh --seeds) from the fixture comic's markup: a
// selector byte (0 chapter list, 1 page, 2 feed, 3 catalogue JSON), then the document. A comic of
// three short chapters keeps each seed under libFuzzer's 4 KiB input limit.
import Glibc

@main
enum MakeSiteSeeds {
    static func main() {
        let directory = CommandLine.arguments[1]
        let comic = FixtureComic(chapters: [
            .init(number: 1, name: "A Really Strange Tournament!", startPage: 1, endPage: 4),
            .init(number: 2, name: "Vegeta & <Goku> 超", startPage: 5, endPage: 7),
            .init(number: 1, name: "Special", startPage: 20, endPage: 22, universe: 3),
        ])
        var seeds: [(String, UInt8, String)] = []
        for variant in FixtureComic.ChapterListVariant.allCases { seeds.append(("list-\(variant.rawValue)", 0, comic.chapterListHTML(variant))) }
        for variant in FixtureComic.PageVariant.allCases { seeds.append(("page-\(variant.rawValue)", 1, comic.pageHTML(5, variant))) }
        seeds.append(("feed-rss1", 2, comic.feedRSS1(origin: "https://www.dragonball-multiverse.com", count: 3)))
        seeds.append(("feed-rss2", 2, comic.feedRSS2(origin: "https://www.dragonball-multiverse.com", count: 3)))
        seeds.append(("catalogue", 3, #"{"language":"en","latestPage":7,"chapters":[{"number":1,"name":"A","startPage":1,"endPage":4,"universe":null,"thumbnailURL":"https://x/t.jpg"},{"number":1,"name":"S","startPage":20,"endPage":22,"universe":3,"thumbnailURL":""}],"fetch":{"url":"https://x/en/chapters.html","etag":"W/\"1\"","lastModified":null,"fetchedAt":1795323865}}"#))
        for (name, selector, text) in seeds {
            let bytes = [selector] + Array(text.utf8)
            guard let file = fopen(directory + "/" + name, "w") else {
                print("cannot write \(directory)/\(name)")
                exit(1)
            }
            fwrite(bytes, 1, bytes.count, file)
            fclose(file)
            print("\(name): \(bytes.count) bytes")
        }
    }
}
