// DBMultiverse Desktop: installed as /etc/firefox-esr/dbmultiverse.js by the dbmultiverse package
// (a conffile: your changes here are kept across upgrades).
//
// Firefox looks for new add-ons in its system folder (/usr/share/mozilla/extensions, where this
// package puts the DBMultiverse Desktop extension) at a profile's first start and after Firefox
// itself is upgraded, and at every start only in the scopes listed here (8: the system's). So
// profiles that existed before the package was installed get the extension at their next start.
// This is a default: a profile's own value (about:config) wins.
pref("extensions.startupScanScopes", 8);
