#!/usr/bin/env bash
# The Plasma widget's QML tests (desktop/plasma/tests) and its static checks, for both builds:
# the Plasma 5 package with Qt 5's qmltestrunner, the Plasma 6 package with Qt 6's, offscreen.
# Each build's QML files must also parse (qmllint of its Qt); the Plasma 6 main.qml can be checked
# no further here, since Debian 12 has no Plasma 6 modules.
#
# The card's states come from STATES (a states.js file: PlasmoidQMLTests writes it from its table).
# Plasma 6's card needs Plasma 6's QML modules (PlasmaComponents3, Kirigami) to run: on a host
# without them (Debian 12) the Plasma 6 build is linted only; its qmltestrunner run is in the
# Debian 13 chroot (ReleaseCardTests.plasma6CardTests runs this script there).
#
# Not part of `make test` by itself (PlasmoidQMLTests runs it). Exit status: 0 all passed, 1 not.
# Usage: STATES=states.js scripts/test/plasmoid-qml-tests.sh [5|6]...   (default: 5 6)
set -euo pipefail
cd "$(dirname "$0")/../.."
repository="$PWD"
work="$(mktemp -d "${TMPDIR:-/tmp}/dbm-plasmoid-qml.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export QT_QPA_PLATFORM=offscreen QT_QUICK_BACKEND=software XDG_RUNTIME_DIR="$work/runtime"
mkdir -m 700 "$work/runtime"

qt_tool() { # version tool: Qt 5's tools are on PATH, Qt 6's in /usr/lib/qt6/bin
    if [ "$1" = 5 ]; then echo "/usr/lib/qt5/bin/$2"; else echo "/usr/lib/qt6/bin/$2"; fi
}

status=0
for version in "${@:-5 6}"; do
    for v in $version; do
        package="$work/plasma$v"
        "$repository/desktop/plasma/build.sh" "$v" "$package" /usr/bin/dbmultiverse
        cp -r desktop/plasma/tests "$package/tests"
        cp "${STATES:?STATES must name a states.js of the card states}" "$package/tests/states.js"
        echo "== Plasma $v: qmllint"
        # Syntax only: the imports of Plasma are not resolved by qmllint.
        lint="$(qt_tool "$v" qmllint)"
        for file in "$package"/contents/ui/*.qml "$package"/tests/*.qml; do
            if [ "$v" = 5 ]; then
                "$lint" "$file" || { echo "FAIL: qmllint $file"; status=1; }
            else
                # Qt 6's qmllint also resolves imports: it may only warn about Plasma's, which Debian 12 lacks.
                output="$("$lint" --unqualified disable "$file" 2>&1)" || true
                if grep -q "^Error" <<<"$output" || grep -qi "syntax error\|Expected token" <<<"$output"; then
                    echo "$output"; echo "FAIL: qmllint $file"; status=1
                fi
            fi
        done
        python3 -m json.tool "$package/metadata.json" >/dev/null || { echo "FAIL: Plasma $v metadata.json is not JSON"; status=1; }
        if [ "$v" = 6 ] && ! [ -d /usr/lib/x86_64-linux-gnu/qt6/qml/org/kde/plasma/components ] && ! [ -d /usr/lib/qt6/qml/org/kde/plasma/components ]; then
            echo "== Plasma 6: no qmltestrunner run here (no Plasma 6 QML modules on this host)"
            continue
        fi
        echo "== Plasma $v: qmltestrunner"
        "$(qt_tool "$v" qmltestrunner)" -input "$package/tests" 2>&1 || status=1
    done
done
exit "$status"
