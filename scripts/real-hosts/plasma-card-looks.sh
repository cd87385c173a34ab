#!/usr/bin/env bash
# The Plasma widget in the looks readers use (scripts/real-hosts/plasma-card-check.sh --looks): what
# ReleaseCardTests and `make screenshots` run by name (docs/images/MANIFEST names checks by file).
# Usage: scripts/real-hosts/plasma-card-looks.sh [--installed] [PATH-TO-dbmultiverse]
exec "$(dirname "$0")/plasma-card-check.sh" --looks "$@"
