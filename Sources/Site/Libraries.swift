import ComicDomain
import CSiteLibraries

/// Loads libcurl and libxml2 on first use (see CSiteLibraries.h for why they are not linked).
enum Libraries {
    /// - Throws: `libraryMissing` with the loader's reason.
    static func loadCurl() throws(SiteError) {
        try load(csite_load_curl)
    }

    /// - Throws: `libraryMissing` with the loader's reason.
    static func loadLibXML2() throws(SiteError) {
        try load(csite_load_libxml2)
    }

    private static func load(_ loader: (UnsafeMutablePointer<CChar>?, Int) -> Int32) throws(SiteError) {
        var reason = [CChar](repeating: 0, count: 256)
        let status = reason.withUnsafeMutableBufferPointer { loader($0.baseAddress, $0.count) }
        guard status == 0 else {
            throw SiteError(.libraryMissing, String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}
