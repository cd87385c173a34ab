#!/usr/bin/env bash
# The GNOME Shell card check in a French session (scripts/real-hosts/gnome-shell-check.sh --french): what
# `make screenshots` runs for the README's French card (docs/images/MANIFEST names checks by file).
# Usage: scripts/real-hosts/gnome-shell-check-fr.sh [PATH-TO-dbmultiverse]
exec "$(dirname "$0")/gnome-shell-check.sh" --french "$@"
