# Sourced by scripts/packaging/deb-test.sh: the installed package in the real browsers (docs/install.md#debian-package). Nothing
# is loaded by the test: each browser finds the extension where the package put it, and its host
# through the package's host manifest. The test gives each browser only a way to reach the
# fixture site under the comic's real host names (Firefox: the site as its proxy, in user.js;
# Chromium: --host-resolver-rules) and a display (Xvfb), and runs Chromium through Debian's
# /usr/bin/chromium wrapper, which reads /etc/chromium.d. Screenshots go to $shots.
#
# browsers_prepare   before the package is installed: the fixture site, the display, and an
#                    existing Firefox ESR profile, started once (a full start and a clean quit)
# browsers_visit     with the package installed and the private bus up: a new Firefox ESR
#                    profile, the existing one and a new Chromium profile each open a comic page,
#                    and the widget's entry must move to that page
# browsers_stop      stops what browsers_prepare started (deb-test.sh's cleanup calls it)
#
# Needs from deb-test.sh: $work, $shots, wait_for, step, pass, fail, check.

site_pid="" xvfb_pid="" display="" site_origin="" site_port=""
firefox_extension="/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/dbmultiverse@nobadi.com"
chromium_id=ggedickjhdkhcjapnhgdobjneiagnckh

# The profiles' preferences: every http(s) request through the fixture site on 127.0.0.1, no
# first-run pages or background services, console messages on stdout. Nothing about add-ons:
# Debian's defaults (extensions.autoDisableScopes 3, unsignedScopes 12, and the package's
# startupScanScopes 8) decide.
firefox_user_js() { # PORT
    cat <<PREFS
user_pref("network.proxy.type", 1);
user_pref("network.proxy.http", "127.0.0.1");
user_pref("network.proxy.http_port", $1);
user_pref("network.proxy.ssl", "127.0.0.1");
user_pref("network.proxy.ssl_port", $1);
user_pref("network.proxy.no_proxies_on", "");
user_pref("network.proxy.allow_hijacking_localhost", true);
user_pref("network.trr.mode", 5);
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("dom.push.connection.enabled", false);
user_pref("dom.security.https_first", false);
user_pref("dom.security.https_only_mode", false);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.aboutwelcome.enabled", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("app.update.disabledForTesting", true);
user_pref("devtools.console.stdout.content", true);
PREFS
}

# The browsers' environment (for env): the test's home, the display, the private bus and the
# fixture site (the host the browser starts inherits it: it reads the catalogue from
# DBMULTIVERSE_SITE_URL). Before the bus is up, a bus address that connects nowhere.
browser_environment() {
    browser_env=(-u WAYLAND_DISPLAY HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
        XDG_CACHE_HOME="$work/home/.cache" XDG_DATA_HOME="$work/home/.local/share" XDG_RUNTIME_DIR="$work/run"
        DISPLAY="$display" DBMULTIVERSE_DATA_DIR="$work/data" DBMULTIVERSE_SITE_URL="$site_origin"
        DBUS_SESSION_BUS_ADDRESS="${DBUS_SESSION_BUS_ADDRESS:-unix:path=$work/no-bus}")
}

browsers_prepare() {
    step "the browsers' side, before the package is installed"
    local site_bench=.build/debug/dbmultiverse-site-bench
    if [ ! -x "$site_bench" ]; then
        echo "building the fixture site ($site_bench)"
        swift build --product dbmultiverse-site-bench >"$work/site-build.log" 2>&1 || { cat "$work/site-build.log" >&2; return 1; }
    fi
    # The fixture site (the small comic): its stdin stays open (fd 7) until browsers_stop.
    mkfifo "$work/site.in"
    "$site_bench" --serve small <"$work/site.in" >"$work/site.out" 2>&1 &
    site_pid=$!
    exec 7>"$work/site.in"
    wait_for 100 grep -q '^DBMULTIVERSE_SITE_URL=' "$work/site.out" || { cat "$work/site.out" >&2; return 1; }
    site_origin=$(sed -n 's/^DBMULTIVERSE_SITE_URL=//p' "$work/site.out")
    site_port=${site_origin##*:}
    echo "fixture site: $site_origin"

    # A display of its own (the first free one, which Xvfb writes on fd 8).
    Xvfb -displayfd 8 -screen 0 1280x800x24 -nolisten tcp 8>"$work/display" >"$work/xvfb.log" 2>&1 &
    xvfb_pid=$!
    wait_for 100 test -s "$work/display" || { cat "$work/xvfb.log" >&2; return 1; }
    display=":$(cat "$work/display")"
    echo "display: $display (Xvfb)"

    mkdir -p "$work/profiles/existing" "$work/profiles/new" "$work/profiles/chromium"
    for profile in existing new; do firefox_user_js "$site_port" >"$work/profiles/$profile/user.js"; done
    # The existing profile, started once without the package: a full start and a clean quit
    # (--screenshot loads a page, then quits as the user would), so that its next start is an
    # ordinary one, not the first (which scans every scope) nor one after a crash (which rescans).
    browser_environment
    env "${browser_env[@]}" /usr/bin/firefox-esr --headless --no-remote --profile "$work/profiles/existing" \
        --screenshot "$work/existing-first-start.png" about:blank >"$work/firefox-existing-first.log" 2>&1
    check "the existing Firefox ESR profile started once and quit cleanly" \
        grep -q '"profile-before-change":true' "$work/profiles/existing/sessionCheckpoints.json"
    check "it has no DBMultiverse add-on yet" not_in_profile dbmultiverse@nobadi.com "$work/profiles/existing/extensions.json"
}

not_in_profile() { [ -f "$2" ] && ! grep -q "$1" "$2"; }

# Starts a browser in a session of its own (so that it and every process it starts, the native
# host included, which Chromium puts in a process group of its own, are stopped together by the
# session's id); sets browser_pid (the session's id). A simple command, so that bash's background
# child execs env, env execs setsid and setsid (not a group leader there) the browser: one pid.
start_browser() { # LOG COMMAND...
    local log=$1; shift
    browser_environment
    env "${browser_env[@]}" setsid "$@" >"$log" 2>&1 &
    browser_pid=$!
}

# Whether a process of session SID is alive (zombies waiting for bash to reap them aside).
session_alive() { local states; states=$(ps -o stat= -s "$1" 2>/dev/null) || true; [ -n "$states" ] && grep -qv '^Z' <<<"$states"; }

stop_browser() {
    [ -n "${browser_pid:-}" ] || return 0
    pkill -TERM -s "$browser_pid" 2>/dev/null || true
    if ! wait_for 100 eval "! session_alive $browser_pid"; then
        pkill -KILL -s "$browser_pid" 2>/dev/null || true
        wait_for 50 eval "! session_alive $browser_pid" || true
    fi
    check "nothing of the browser is left running (session $browser_pid)" eval "! session_alive $browser_pid"
    session_alive "$browser_pid" || wait "$browser_pid" 2>/dev/null || true
    browser_pid=""
}

# The widget's entry is at CHAPTER, PROGRESS % and the stored page is PAGE.
entry_at() { # CHAPTER PROGRESS PAGE
    local entry
    entry=$(/usr/bin/dbmultiverse entry --format json 2>/dev/null) || return 1
    grep -qE "\"chapter\":$1[,}].*\"progress\":$2[,}]|\"progress\":$2[,}].*\"chapter\":$1[,}]" <<<"$entry" \
        && grep -qE "\"page\" *: *$3([^0-9]|\$)" "$work/data/currentChapterData.json"
}

# Firefox's add-on database in PROFILE lists ours, active, from the package's folder. Firefox
# writes it a moment after it changes, and not when it is killed: wait for it while it runs.
firefox_found_ours() { # PROFILE
    python3 - "$1/extensions.json" "$firefox_extension" <<'PY'
import json, sys
try:
    addons = json.load(open(sys.argv[1]))["addons"]
except (OSError, ValueError):
    sys.exit(1)
ours = [a for a in addons if a["id"] == "dbmultiverse@nobadi.com"]
sys.exit(not (len(ours) == 1 and ours[0]["active"] and ours[0]["location"] == "app-system-share" and ours[0]["path"] == sys.argv[2]))
PY
}

# Chromium's preferences in USER_DATA_DIR list our id, loaded from the package's folder (written
# when Chromium quits: check after stop_browser).
chromium_found_ours() { # USER_DATA_DIR
    python3 - "$1/Default" "$chromium_id" <<'PY'
import json, os, sys
settings = {}
for name in ("Preferences", "Secure Preferences"):
    path = os.path.join(sys.argv[1], name)
    if os.path.exists(path):
        settings.update(json.load(open(path)).get("extensions", {}).get("settings", {}))
sys.exit(settings.get(sys.argv[2], {}).get("path") != "/usr/share/chromium/extensions/dbmultiverse")
PY
}

# One browser opens a page of chapter CHAPTER (at PROGRESS %): the entry must move there. While
# it runs, FOUND (a command, or -) must succeed within 15 s: where it found the extension.
visit() { # NAME CHAPTER PROGRESS PAGE FOUND COMMAND...
    local name=$1 chapter=$2 progress=$3 page=$4 found=$5; shift 5
    local url="http://www.dragonball-multiverse.com/en/page-$page.html"
    local reloads_before
    reloads_before=$(grep -c 'member=TimelinesReloaded' "$work/reloads.log" || true)
    start_browser "$work/$name.log" "$@" "$url"
    if wait_for 900 entry_at "$chapter" "$progress" "$page"; then
        pass "$name: page $page moved the widget to chapter $chapter, $progress % ($(/usr/bin/dbmultiverse entry))"
    else
        fail "$name: the entry did not move to page $page: $(/usr/bin/dbmultiverse entry --format json 2>&1)"
        tail -n 20 "$work/$name.log" | sed 's/^/    /'
    fi
    check "$name: a TimelinesReloaded signal on the bus" \
        wait_for 100 sh -c "[ \$(grep -c 'member=TimelinesReloaded' '$work/reloads.log') -gt $reloads_before ]"
    if [ "$found" != - ]; then
        check "$name: dbmultiverse@nobadi.com active, from $firefox_extension (extensions.json)" wait_for 150 $found
    fi
    import -display "$display" -window root "$shots/$name.png" && echo "screenshot: $shots/$name.png"
    stop_browser
}

browsers_visit() {
    step "the browsers, with nothing loaded by the test"
    dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" \
        "type='signal',interface='com.nobadi.DBMultiverse.Widget1',member='TimelinesReloaded'" >"$work/reloads.log" 2>&1 &
    reloads_pid=$!
    wait_for 50 grep -q NameAcquired "$work/reloads.log"
    # Three pages of three chapters of the small comic: chapter 2 (pages 25–48), 3 (49–72), 5 (129–152).
    visit firefox-esr-new-profile 2 25 30 "firefox_found_ours $work/profiles/new" \
        /usr/bin/firefox-esr --no-remote --profile "$work/profiles/new"
    visit firefox-esr-existing-profile 3 50 60 "firefox_found_ours $work/profiles/existing" \
        /usr/bin/firefox-esr --no-remote --profile "$work/profiles/existing"
    local rules="MAP www.dragonball-multiverse.com 127.0.0.1:$site_port,MAP dragonball-multiverse.com 127.0.0.1:$site_port,MAP * ~NOTFOUND"
    # As root, Chromium refuses to start with its sandbox.
    local sandbox=()
    [ "$(id -u)" -eq 0 ] && sandbox=(--no-sandbox)
    visit chromium-new-profile 5 8 130 - \
        /usr/bin/chromium "${sandbox[@]}" --user-data-dir="$work/profiles/chromium" --host-resolver-rules="$rules" \
        --disable-features=HttpsUpgrades --no-first-run --disable-sync --disable-background-networking \
        --disable-component-update --disable-default-apps --window-size=1280,800 --window-position=0,0
    kill "$reloads_pid" 2>/dev/null; wait "$reloads_pid" 2>/dev/null || true

    check "chromium: $chromium_id loaded from /usr/share/chromium/extensions/dbmultiverse" \
        chromium_found_ours "$work/profiles/chromium"
}

browsers_stop() {
    stop_browser 2>/dev/null || true
    exec 7>&- 2>/dev/null || true
    [ -n "$site_pid" ] && { kill "$site_pid" 2>/dev/null; wait "$site_pid" 2>/dev/null || true; }
    [ -n "$xvfb_pid" ] && { kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null || true; }
    site_pid="" xvfb_pid=""
}
