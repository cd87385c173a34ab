// JPEG and PNG decoding into small ARGB32 pixmaps, with libjpeg and libpng loaded with dlopen for
// each decode and closed after it.
//
// Why dlopen, and why closed again: the notifier decodes a cover only when the chapter's cover
// changes (it shows it in the tray item's tooltip), and it runs for the whole session. Linked, the
// two libraries (and zlib) would be mapped and relocated at every start of every process of the
// one `dbmultiverse` binary; loaded and closed around a decode, they cost that decode only.
//
// Why C: both libraries report errors by longjmp, which Swift cannot catch.
#ifndef CIMAGE_DECODING_H
#define CIMAGE_DECODING_H

#include <stddef.h>
#include <stdint.h>

/// A decoded image: `width × height` pixels, 4 bytes each, A R G B (network byte order, as the
/// StatusNotifierItem specification's pixmaps are). Free `pixels` with cimage_free.
typedef struct {
    int width;
    int height;
    uint8_t *pixels;
} cimage_pixmap;

/// Decodes the JPEG or PNG image (told apart by its magic number) read from `fd`, scaled down to
/// fit `max_side × max_side` (never up), into `*out`. `fd` stays open and the caller's. 0 on
/// success; otherwise -1 with the reason in `error` (a missing library, an unknown format, a
/// damaged file, an interlaced PNG, more than CIMAGE_MAX_SIDE pixels a side).
int cimage_decode(int fd, int max_side, cimage_pixmap *out, char *error, size_t error_size);

/// The longest side of an image this decodes (larger images are refused before decoding): the
/// covers' limit, Limits.maxCoverSide, which callers check first from the header in Swift.
#define CIMAGE_MAX_SIDE 4096

void cimage_free(uint8_t *pixels);

#endif
