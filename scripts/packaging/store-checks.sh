#!/usr/bin/env bash
# The stores' own checks that run offline, on what scripts/packaging/store-artefacts.sh made in DIR
# (`make release` and StoreArtefactTests run them; docs/releasing.md):
#   scripts/packaging/store-checks.sh shexli DIR    extensions.gnome.org's review analyzer (shexli,
#       pinned, in a Python 3.12+ virtual environment of the run's own) on each *.shell-extension.zip:
#       no error and no warning, but EGO-M-004 on shell-version where it lists 51 (shexli 0.2.1
#       predates GNOME 51's release and calls it an implausible future version);
#   scripts/packaging/store-checks.sh manifests DIR  the browser archives: addons.mozilla.org's
#       browser_specific_settings.gecko (the id, strict_min_version, data_collection_permissions
#       with its required list), the same manifest in both, the project's version;
#   scripts/packaging/store-checks.sh plasma DIR     the .plasmoids installed by kpackagetool and loaded
#       by plasmoidviewer (scripts/real-hosts/plasmoid-store-check.sh): Plasma 5 on this machine
#       (Debian 12's 5.27), Plasma 6 in the Debian 13 chroot (scripts/real-hosts/release-chroot.sh; root);
#   scripts/packaging/store-checks.sh all DIR        the three.
# One line per artefact and check; exit status 0 when all passed, 1 otherwise, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/../.."
what=${1:-} dir=${2:-}
[ -d "$dir" ] || { echo "usage: $0 shexli|manifests|plasma|all DIR" >&2; exit 2; }
dir=$(cd "$dir" && pwd)
version=$(./scripts/build/project-version.sh)
shexli_version=0.2.1
status=0
failed() { echo "FAIL: $*"; status=1; }

# A Python of 3.12 or later (shexli's floor; Debian 12 has 3.11): on PATH, else pyenv's.
python_for_shexli() {
    local candidate
    for candidate in python3.13 python3.12 python3 $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV); do
        command -v "$candidate" >/dev/null || continue
        "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { command -v "$candidate"; return 0; }
    done
    return 1
}

check_shexli() {
    local venv="${SHEXLI_VENV:-$PWD/.build/shexli-$shexli_version}" python zip report
    if [ ! -x "$venv/bin/shexli" ]; then
        python=$(python_for_shexli) || { failed "shexli needs Python 3.12 or later: none on PATH or in pyenv"; return; }
        rm -rf "$venv"
        "$python" -m venv "$venv" && "$venv/bin/pip" install --quiet --disable-pip-version-check "shexli==$shexli_version" >"$venv.log" 2>&1 \
            || { cat "$venv.log"; failed "pip could not install shexli $shexli_version"; rm -rf "$venv"; return; }
    fi
    for zip in "$dir"/*.shell-extension.zip; do
        [ -f "$zip" ] || { failed "no .shell-extension.zip in $dir"; return; }
        report=$("$venv/bin/shexli" --format json "$zip") || { failed "shexli could not read $(basename "$zip")"; continue; }
        python3 -c "$(cat <<'PYTHON'
import json, subprocess, sys
name, path = sys.argv[1], sys.argv[2]
findings = json.load(sys.stdin)["findings"]
versions = json.loads(subprocess.run(["unzip", "-p", path, "metadata.json"], capture_output=True, check=True).stdout)["shell-version"]
excepted = [f for f in findings if f["rule_id"] == "EGO-M-004" and "51" in versions]
others = [f for f in findings if f not in excepted]
for finding in others:
    print("FAIL: shexli %s: %s %s: %s" % (name, finding["rule_id"], finding["severity"], finding["message"]))
note = " (EGO-M-004 on shell-version %s excepted: shexli 0.2.1 predates GNOME 51)" % ", ".join(versions) if excepted else ""
if not others:
    print("shexli %s: no error, no warning%s" % (name, note))
sys.exit(1 if others else 0)
PYTHON
)" "$(basename "$zip")" "$zip" <<<"$report" || status=1
    done
}

check_manifests() {
    local xpi="$dir/dbmultiverse-$version.xpi" chromium="$dir/dbmultiverse-$version-chromium.zip"
    [ -f "$xpi" ] && [ -f "$chromium" ] || { failed "no dbmultiverse-$version.xpi and -chromium.zip in $dir"; return; }
    cmp -s <(unzip -p "$xpi" manifest.json) <(unzip -p "$chromium" manifest.json) || failed "the .xpi and the Chromium .zip hold different manifests"
    unzip -p "$xpi" manifest.json | python3 -c "$(cat <<'PYTHON'
import json, re, sys
manifest = json.load(sys.stdin)
gecko = manifest.get("browser_specific_settings", {}).get("gecko", {})
data = gecko.get("data_collection_permissions", {})
required = data.get("required")
kinds = {"authenticationInfo", "bookmarksInfo", "browsingActivity", "financialAndPaymentInfo", "healthInfo", "locationInfo",
         "personalCommunications", "personallyIdentifyingInfo", "searchTerms", "websiteActivity", "websiteContent"}
problems = []
if manifest.get("version") != sys.argv[1]: problems.append("version %r, not %s" % (manifest.get("version"), sys.argv[1]))
if not gecko.get("id"): problems.append("no browser_specific_settings.gecko.id")
if not re.fullmatch(r"\d+(\.\d+)*", gecko.get("strict_min_version", "")): problems.append("no gecko.strict_min_version")
if not isinstance(required, list) or not required or not (required == ["none"] or set(required) <= kinds):
    problems.append("gecko.data_collection_permissions.required must be [\"none\"] or data types, not %r" % (required,))
for problem in problems: print("FAIL: the Firefox manifest: " + problem)
if not problems:
    print("manifest: version %s; gecko id %s, strict_min_version %s, data_collection_permissions required %s"
          % (manifest["version"], gecko["id"], gecko["strict_min_version"], json.dumps(required)))
sys.exit(1 if problems else 0)
PYTHON
)" "$version" || status=1
}

check_plasma() {
    local plasma5="$dir/com.nobadi.dbmultiverse-$version-plasma5.plasmoid" plasma6="$dir/com.nobadi.dbmultiverse-$version-plasma6.plasmoid"
    ./scripts/real-hosts/plasmoid-store-check.sh "$plasma5" 5 2>&1 || failed "the Plasma 5 .plasmoid (above)"
    [ "$(id -u)" -eq 0 ] || { failed "the Plasma 6 .plasmoid is checked in the Debian 13 chroot, which needs root"; return; }
    ./scripts/real-hosts/release-chroot.sh prepare trixie >/dev/null || { failed "no Debian 13 chroot for Plasma 6"; return; }
    ./scripts/real-hosts/release-chroot.sh run trixie --bind "$PWD:$PWD" --bind "$dir:$dir" -- \
        env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TMPDIR=/tmp "$PWD/scripts/real-hosts/plasmoid-store-check.sh" "$plasma6" 6 2>&1 \
        || failed "the Plasma 6 .plasmoid in Debian 13 (above)"
}

case "$what" in
    shexli) check_shexli ;;
    manifests) check_manifests ;;
    plasma) check_plasma ;;
    all) check_shexli; check_manifests; check_plasma ;;
    *) echo "usage: $0 shexli|manifests|plasma|all DIR" >&2; exit 2 ;;
esac
exit "$status"
