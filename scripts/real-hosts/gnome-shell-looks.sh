#!/usr/bin/env bash
# The GNOME Shell card in the looks readers use (scripts/real-hosts/gnome-shell-check.sh --looks): what
# ReleaseCardTests and `make screenshots` run by name (docs/images/MANIFEST names checks by file).
# Usage: scripts/real-hosts/gnome-shell-looks.sh [--installed] [PATH-TO-dbmultiverse]
exec "$(dirname "$0")/gnome-shell-check.sh" --looks "$@"
