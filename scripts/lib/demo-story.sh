# Sourced by the real-host checks (tray-host-check.sh, gnome-shell-check.sh, plasma-card-check.sh,
# real-notification-daemon.sh): the one reader they all show, so that the pictures `make screenshots`
# takes from them (docs/images/) tell one story. Chapter 42, 35 % read, 3 pages published after the
# reader's page. The name has an `&`, which markup would eat or reject: every host shows it as text.
DEMO_CHAPTER=42
DEMO_NAME="Goku & Vegeta Unite!"
DEMO_PROGRESS=35
# The reader's page, and the chapter's pages on the site: 970–981, then chapter 43 from 982; the
# latest page 983, 3 after 980 (the card offers the next chapter: the catalogue has it).
DEMO_PAGE=980
DEMO_FIRST_PAGE=970
DEMO_LAST_PAGE=981
DEMO_LATEST_PAGE=983
DEMO_NEXT_NAME="The Next Round"
# The names the looks checks show the card with (gnome-shell-check.sh --looks, plasma-card-check.sh
# --looks): the site's names can be this long (120 characters), or in a right-to-left script.
DEMO_LONG_NAME="Goku and Vegeta face the strongest fighters of each universe in a tournament that will decide the fate of the multiverse"
DEMO_ARABIC_NAME="غوكو وفيجيتا يتحدان في معركة أخيرة ضد العدو القديم الذي عاد من الأكوان الأخرى"

# demo_cover FILE: a cover drawn here (never the comic's art): a gradient with the chapter's number,
# a portrait PNG the size of a comic page's thumbnail. Needs ImageMagick's convert.
demo_cover() {
    convert -size 240x336 gradient:'#16325c'-'#e8641b' \
        \( -size 240x336 radial-gradient:'#ffd76a'-none \) -compose screen -composite \
        -font DejaVu-Sans-Bold -gravity center -fill white \
        -pointsize 132 -stroke '#0b1a33' -strokewidth 4 -annotate +0+10 "$DEMO_CHAPTER" \
        -stroke none -annotate +0+10 "$DEMO_CHAPTER" \
        -pointsize 26 -fill '#fff3d6' -annotate +0-92 CHAPTER \
        -alpha off -depth 8 "$1"
}

# demo_catalogue FILE [LATEST]: the stored chapter list (docs/usage.md#the-comics-site, `chapters-<lang>.json`) as a
# sync would have written it when the comic's latest page was LATEST (default DEMO_LATEST_PAGE):
# chapter 42 up to DEMO_LAST_PAGE, and chapter 43 once LATEST is past it. Written to FILE; the caller renames it into the data folder, where the
# service sees it arrive as it sees a sync's: the first list is `requested`, a later one with a newer
# latest page `pages-published`, which the notifier announces.
demo_catalogue() {
    local latest="${2:-$DEMO_LATEST_PAGE}" next=""
    if [ "$latest" -gt "$DEMO_LAST_PAGE" ]; then
        next=", {\"number\": $((DEMO_CHAPTER + 1)), \"name\": \"$DEMO_NEXT_NAME\", \"startPage\": $((DEMO_LAST_PAGE + 1)), \"endPage\": $latest, \"universe\": null, \"thumbnailURL\": \"\"}"
    fi
    cat >"$1" <<JSON
{"language": "en", "latestPage": $latest,
 "chapters": [{"number": $DEMO_CHAPTER, "name": "$DEMO_NAME", "startPage": $DEMO_FIRST_PAGE, "endPage": $(( latest < DEMO_LAST_PAGE ? latest : DEMO_LAST_PAGE )),
               "universe": null, "thumbnailURL": "https://www.dragonball-multiverse.com/image.php?comic=page&num=$DEMO_FIRST_PAGE"}$next],
 "fetch": {"url": "https://www.dragonball-multiverse.com/en/chapters.html?comic=page&chaptersmode=1",
           "etag": null, "lastModified": null, "fetchedAt": $(date +%s)}}
JSON
}
