#!/bin/sh
# The Chromium family's id for the extension is fixed by the public key in browser/manifest.json's
# "key": the first 32 hex digits of the SHA-256 of the key (DER), written with the letters a…p.
# The private key is not needed to load, pack or publish the extension as a .zip and is never
# committed.
#   scripts/build/browser-extension-key.sh id            prints the id the manifest's key gives
#   scripts/build/browser-extension-key.sh new KEY.pem   makes a new key pair in KEY.pem (outside the
#                                                  repository) and prints the "key" value and id
# After `new`, put the key in browser/manifest.json and the id in BrowserExtension.chromiumID
# (Sources/Recorder/BrowserHost/BrowserCaller.swift) and desktop/com.nobadi.dbmultiverse.chromium.json;
# installed host manifests must then be reinstalled (`make install`).
set -eu
cd "$(dirname "$0")/../.."

id_of() { # base64 DER public key on stdin
    base64 -d | sha256sum | cut -c1-32 | tr '0-9a-f' 'a-p'
}

case "${1:-}" in
    id)
        sed -n 's/^ *"key": *"\([A-Za-z0-9+/=]*\)",*$/\1/p' browser/manifest.json | id_of ;;
    new)
        pem=${2:?usage: $0 new KEY.pem}
        case "$(cd "$(dirname "$pem")" && pwd)/" in
            "$(pwd)/"*) echo "browser-extension-key.sh: keep the private key out of the repository" >&2; exit 2 ;;
        esac
        [ ! -e "$pem" ] || { echo "browser-extension-key.sh: $pem exists" >&2; exit 2; }
        (umask 077 && openssl genpkey -quiet -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$pem")
        key=$(openssl pkey -in "$pem" -pubout -outform DER | base64 -w0)
        echo "key: $key"
        echo "id:  $(printf '%s' "$key" | id_of)" ;;
    *) echo "usage: $0 id | new KEY.pem" >&2; exit 2 ;;
esac
