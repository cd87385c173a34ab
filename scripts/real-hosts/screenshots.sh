#!/usr/bin/env bash
# `make screenshots`: the pictures of the README and docs/ (docs/images/MANIFEST lists them), made by
# the real-host checks themselves. Each check the MANIFEST names runs once with the built binary and
# a screenshot folder of its own, as its test runs it: it checks the host as it does in `make test`,
# and when it fails no picture changes. Then each picture is cropped from its check's screenshot to
# what matters (the crop the MANIFEST names, found from the pixels: a window on a plain background, a
# card in its own colour), quantised (pngquant) and recompressed (optipng) into docs/images/, and
# printed with its size; a picture over 200 KiB fails.
# Installs what only it needs (pngquant, optipng, and an emoji font for the 📖 of the Waybar module)
# when missing. Usage: scripts/real-hosts/screenshots.sh [PATH-TO-dbmultiverse] (default: .build/debug/dbmultiverse)
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="$(realpath "${1:-.build/debug/dbmultiverse}")"
[ -x "$binary" ] || { echo "no dbmultiverse binary at $binary (swift build first)" >&2; exit 2; }
manifest=docs/images/MANIFEST
limit=$(( 200 * 1024 ))

# ---- What only this needs ------------------------------------------------------------------------
missing=()
command -v pngquant >/dev/null || missing+=(pngquant)
command -v optipng >/dev/null || missing+=(optipng)
fonts="$(fc-list : family)"
[[ $fonts == *"Noto Color Emoji"* ]] || missing+=(fonts-noto-color-emoji)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "screenshots: installing ${missing[*]}"
    log="$(mktemp)"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1 \
        || { cat "$log" >&2; exit 1; }
    rm -f "$log"
fi

# ---- Crops: crop_NAME (NAME as the MANIFEST names it, - as _) takes the screenshot and the file to write

# The sizes the checks give their hosts' bars: Waybar's (tray-host-check.sh), GNOME Shell's top bar.
waybar_height=30 gnome_bar_height=32

size_of() { identify -format '%w %h' "$1"; }
# trim_box FILE REGION: "W H X Y" of what differs from REGION's corner colour (X, Y in FILE).
trim_box() {
    local box
    box="$(convert "$1" -crop "$2" -fuzz 3% -trim -format '%w %h %X %Y' info:)"
    read -r w h x y <<<"$box"
    [ "$w" -gt 8 ] && [ "$h" -gt 8 ] || { echo "nothing found in $2 of $1" >&2; return 1; }
    echo "$w $h $(( x )) $(( y ))"
}
# components FILE MIN-AREA MASK...: "W H X Y" of each 8-connected region of at least MIN-AREA pixels
# that the convert options MASK turn white (everything else black).
components() {
    local file="$1" area="$2"
    shift 2
    convert "$file" "$@" -define connected-components:verbose=true -define connected-components:area-threshold="$area" \
        -connected-components 8 null: | awk '/\(255,255,255|gray\(255\)/ { split($2, box, /[x+]/); print box[1], box[2], box[3], box[4] }'
}
# cut IN OUT X0 Y0 X1 Y1: the rectangle, held inside the picture.
cut() {
    local width height x0 y0 x1 y1
    read -r width height <<<"$(size_of "$1")"
    x0=$(( $3 < 0 ? 0 : $3 )) y0=$(( $4 < 0 ? 0 : $4 ))
    x1=$(( $5 > width ? width : $5 )) y1=$(( $6 > height ? height : $6 ))
    convert "$1" -crop "$(( x1 - x0 ))x$(( y1 - y0 ))+$x0+$y0" +repage "$2"
}

# A notification: dunst's window, on the black of an empty X screen.
crop_window() {
    local box w h x y
    box="$(trim_box "$1" "$(size_of "$1" | tr ' ' x)+0+0")" || return 1
    read -r w h x y <<<"$box"
    cut "$1" "$2" "$x" "$y" $(( x + w )) $(( y + h ))
}
# Waybar's menu: the popup under the bar (on sway's plain background), with the bar's right end.
crop_waybar_menu() {
    local width height box w h x y
    read -r width height <<<"$(size_of "$1")"
    box="$(trim_box "$1" "${width}x$(( height - waybar_height ))+0+$waybar_height")" || return 1
    read -r w h x y <<<"$box"
    cut "$1" "$2" $(( x - 16 )) 0 "$width" $(( y + h + 16 ))
}
# Waybar's modules at the bar's right end: what differs from the bar's colour in its right half.
crop_waybar_modules() {
    local width height box w h x y
    read -r width height <<<"$(size_of "$1")"
    box="$(trim_box "$1" "$(( width / 2 ))x$waybar_height+$(( width / 2 ))+0")" || return 1
    read -r w h x y <<<"$box"
    cut "$1" "$2" $(( x - 16 )) 0 "$width" "$waybar_height"
}
# GNOME Shell's card: the menu under the top bar (on the plain desktop), with the top bar above it.
# The margin stays narrow on the right: the shell's unsafe-mode icon (the checks' screenshots need
# unsafe mode) follows the button in the top bar, and is no part of the picture.
crop_gnome_card() {
    local width height box w h x y
    read -r width height <<<"$(size_of "$1")"
    box="$(trim_box "$1" "${width}x$(( height - gnome_bar_height ))+0+$gnome_bar_height")" || return 1
    read -r w h x y <<<"$box"
    cut "$1" "$2" $(( x - 10 )) 0 $(( x + w + 10 )) $(( y + h + 10 ))
}
# GNOME Shell's top bar: the card's button, the widest thing on the black bar.
crop_gnome_button() {
    local box w h x y
    box="$(components "$1" 200 -fuzz 5% -fill black -opaque black -fill white +opaque black | sort -n -r | head -1)"
    [ -n "$box" ] || { echo "no button in the top bar of $1" >&2; return 1; }
    read -r w h x y <<<"$box"
    cut "$1" "$2" $(( x - 12 )) 0 $(( x + w + 12 )) "$gnome_bar_height"
}
# The Plasma widget: the regions in the theme's background colour (Breeze's #eff0f1: the card, and
# in a panel the compact form too), with as much of the wallpaper around them on every side (up to
# 24 px: the containment sometimes puts the card in a corner of the screen, 8 px from its edges).
crop_plasma_card() {
    local box x0 y0 x1 y1 width height margin=24
    box="$(components "$1" 5000 -fuzz 1% -fill white -opaque 'srgb(239,240,241)' -fill black +opaque white \
        | awk 'NR == 1 || $3 < x0 { x0 = $3 } NR == 1 || $4 < y0 { y0 = $4 }
               NR == 1 || $3 + $1 > x1 { x1 = $3 + $1 } NR == 1 || $4 + $2 > y1 { y1 = $4 + $2 }
               END { if (NR) print x0, y0, x1, y1 }')"
    [ -n "$box" ] || { echo "no widget in $1" >&2; return 1; }
    read -r x0 y0 x1 y1 <<<"$box"
    read -r width height <<<"$(size_of "$1")"
    for space in "$x0" "$y0" $(( width - x1 )) $(( height - y1 )); do
        [ "$space" -lt "$margin" ] && margin="$space"
    done
    cut "$1" "$2" $(( x0 - margin )) $(( y0 - margin )) $(( x1 + margin )) $(( y1 + margin ))
}

# The Plasma widget in Breeze Dark, beside the calendar applet of its looks (plasma-card-looks.sh):
# the widget's viewer is the screen's left 640 pixels; the card, the largest region of Breeze Dark's
# background colour (Plasma 6's #202326) there (the viewer's toolbar is another), with the wallpaper
# around it.
crop_plasma_dark_card() {
    local box x0 y0 x1 y1 height margin=24
    read -r _ height <<<"$(size_of "$1")"
    cut "$1" "$raw/left.png" 0 0 640 "$height"
    box="$(components "$raw/left.png" 5000 -fuzz 1% -fill white -opaque 'srgb(32,35,38)' -fill black +opaque white \
        | awk '{ print $1 * $2, $0 }' | sort -n -r | head -1 | cut -d' ' -f2-)"
    [ -n "$box" ] || { echo "no dark widget in $1" >&2; return 1; }
    read -r w h x0 y0 <<<"$box"
    x1=$(( x0 + w )) y1=$(( y0 + h ))
    for space in "$x0" "$y0" $(( 640 - x1 )) $(( height - y1 )); do
        [ "$space" -lt "$margin" ] && margin="$space"
    done
    cut "$1" "$2" $(( x0 - margin )) $(( y0 - margin )) $(( x1 + margin )) $(( y1 + margin ))
}

# ---- The checks, once each --------------------------------------------------------------------------
entries="$(grep -v -e '^#' -e '^[[:space:]]*$' "$manifest")"
raw="$(mktemp -d /tmp/dbm-screenshots.XXXXXX)"
chmod 755 "$raw"
# A check named SCRIPT@RELEASE runs in that Debian release's chroot, from the installed package
# (scripts/real-hosts/release-check.sh RELEASE SCRIPT: the package and the chroot as ReleaseCardTests has them).
for check in $(awk '{ print $2 }' <<<"$entries" | sort -u); do
    script="${check%@*}" release=""
    [ "$script" = "$check" ] || release="${check#*@}"
    [ -x "scripts/real-hosts/$script" ] || { echo "$manifest names scripts/real-hosts/$script, which is not there" >&2; exit 1; }
    mkdir -p "$raw/$check"
    started=$SECONDS
    status=0
    run=("scripts/real-hosts/$script" "$binary")
    [ -z "$release" ] || run=(scripts/real-hosts/release-check.sh "$release" "$script")
    # PLASMA_IDLE_SECONDS: the Plasma check's idle measurement, which no picture shows, kept short.
    SCREENSHOT_DIR="$raw/$check" PLASMA_IDLE_SECONDS=1 "${run[@]}" >"$raw/$check.log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        tail -30 "$raw/$check.log" >&2
        echo "screenshots: ${run[*]} failed (exit $status; its output: $raw/$check.log): no picture changed" >&2
        exit 1
    fi
    echo "${run[*]} passed ($(( SECONDS - started )) s)"
done

# ---- The pictures: made in the screenshots' folder, moved into docs/images/ when all are made and small
pictures=()
while read -r picture check shot crop _; do
    function="crop_${crop//-/_}"
    declare -F "$function" >/dev/null || { echo "$manifest: no crop '$crop' (for $picture) in $0" >&2; exit 1; }
    "$function" "$raw/$check/$shot" "$raw/$picture" || { echo "screenshots: could not crop $picture from $raw/$check/$shot" >&2; exit 1; }
    status=0
    pngquant --quality=70-95 --speed 1 --strip --force --output "$raw/$picture.small" -- "$raw/$picture" || status=$?
    # 99: quantised, it would fall below the quality asked for; it stays lossless.
    case "$status" in 0) ;; 99) cp "$raw/$picture" "$raw/$picture.small" ;; *) exit "$status" ;; esac
    optipng -quiet -o3 -strip all "$raw/$picture.small"
    bytes=$(stat -c %s "$raw/$picture.small")
    [ "$bytes" -le "$limit" ] || { echo "screenshots: $picture would be $bytes bytes, over 200 KiB ($raw)" >&2; exit 1; }
    pictures+=("$picture")
done <<<"$entries"

for picture in "${pictures[@]}"; do
    mv "$raw/$picture.small" "docs/images/$picture"
    printf '%-40s %9s px %6s KiB\n' "docs/images/$picture" "$(size_of "docs/images/$picture" | tr ' ' x)" \
        "$(awk -v bytes="$(stat -c %s "docs/images/$picture")" 'BEGIN { printf "%.1f", bytes / 1024 }')"
done
rm -rf "$raw"
