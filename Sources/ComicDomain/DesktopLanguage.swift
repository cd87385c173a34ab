import Localization

extension SiteLanguage {
    /// The site language of the desktop session: the session's first language as gettext chooses
    /// it for the interface (`Localization.sessionLanguages`: English under the C locale, where
    /// LANGUAGE is ignored), mapped to the site's code (`SiteLanguage(locale:)`); English when the
    /// session is English or the site lacks the language.
    static func desktop(environment: [String: String]) -> SiteLanguage {
        Localization.sessionLanguages(environment: environment).first.flatMap { SiteLanguage(locale: $0) } ?? .english
    }

    /// Locales whose site code is not their own name (the site's codes predate the locale names).
    private static let localeCodes: [String: String] = [
        "pt_BR": "pt_BR", "pt": "pt", "es_CO": "es_CO", "es": "es", "ja": "jp", "zh_CN": "cn", "zh_SG": "cn",
        "ko": "kr_KR", "ca": "ct_CT", "el": "gr_GR", "gl": "ga_ES", "eu": "eu_EH", "fr": "fr", "iw": "he_HE",
        "nb": "no_NO", "nn": "no_NO", "fil": "tl_PI",
    ]

    /// The site language for a POSIX locale name (`fr_FR.UTF-8`, `pt_BR`, `de_AT@euro`, `ja`): its
    /// language and territory looked up in the site's own names (`fr_*` → `fr`, `pt_BR` → `pt_BR`,
    /// other `pt_*` → `pt`, `es_CO` → `es_CO`, other `es_*` → `es`, `ja` → `jp`, `zh_CN` → `cn`,
    /// `ko` → `kr_KR`, `ca` → `ct_CT`, `el` → `gr_GR`, `gl` → `ga_ES`, `eu` → `eu_EH`, `hu` →
    /// `hu_HU`…). Nil for `C`, `POSIX` and languages the site does not have.
    init?(locale: String) {
        let name = locale.prefix { $0 != "." && $0 != "@" }
        let parts = name.split(separator: "_", maxSplits: 1)
        guard let language = parts.first.map(String.init), !language.isEmpty,
              language.allSatisfy({ $0.isASCII && $0.isLetter && $0.isLowercase }),
              language != "xx" else { return nil } // the site's xx_ codes are no locale's
        let full = parts.count == 2 ? language + "_" + parts[1] : language
        // Chinese is mapped by territory only: the site's `cn` is the simplified script.
        if let code = Self.localeCodes[full] ?? (language == "zh" ? nil : Self.localeCodes[language]) {
            self.init(listed: code)
            return
        }
        // The site's own codes: `it`, `de`, `tr_TR`, `hu_HU`… (the `xx_` ones are no locale's).
        if Self.all.contains(where: { $0.code == full }) {
            self.init(listed: full)
            return
        }
        guard language != "zh",
              let code = Self.all.first(where: { $0.code == language || $0.code.hasPrefix(language + "_") })?.code else { return nil }
        self.init(listed: code)
    }
}
