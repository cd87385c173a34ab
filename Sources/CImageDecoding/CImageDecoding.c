#include "CImageDecoding.h"

#include <dlfcn.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>
#include <png.h>

// MARK: Shrinking

/// A box filter from source rows, arriving top to bottom, to a target at most `max_side` a side:
/// each target pixel averages the source pixels that fall on it, colours weighted by alpha. It
/// keeps one target row of sums, so a large image never needs its whole decoded size in memory.
typedef struct {
    int source_width, source_height, width, height;
    int *column_of;    // the target column of each source column
    uint64_t *sums;    // per target column: alpha, red × alpha, green × alpha, blue × alpha
    uint32_t *counts;  // source pixels summed per target column
    int row;           // the target row being summed
    uint8_t *pixels;   // the result, A R G B
} shrinker;

static int shrinker_start(shrinker *s, int source_width, int source_height, int max_side) {
    s->source_width = source_width;
    s->source_height = source_height;
    int longest = source_width > source_height ? source_width : source_height;
    if (longest <= max_side) {
        s->width = source_width;
        s->height = source_height;
    } else {
        s->width = (int)((int64_t)source_width * max_side / longest);
        s->height = (int)((int64_t)source_height * max_side / longest);
        if (s->width < 1) s->width = 1;
        if (s->height < 1) s->height = 1;
    }
    s->row = 0;
    s->column_of = malloc(sizeof(int) * (size_t)source_width);
    s->sums = calloc((size_t)s->width * 4, sizeof(uint64_t));
    s->counts = calloc((size_t)s->width, sizeof(uint32_t));
    s->pixels = malloc((size_t)s->width * (size_t)s->height * 4);
    if (s->column_of == NULL || s->sums == NULL || s->counts == NULL || s->pixels == NULL) return -1;
    for (int x = 0; x < source_width; x++) s->column_of[x] = (int)((int64_t)x * s->width / source_width);
    return 0;
}

static void shrinker_flush(shrinker *s) {
    uint8_t *out = s->pixels + (size_t)s->row * (size_t)s->width * 4;
    for (int x = 0; x < s->width; x++, out += 4) {
        const uint64_t *sum = s->sums + (size_t)x * 4;
        if (s->counts[x] == 0 || sum[0] == 0) {
            memset(out, 0, 4);
            continue;
        }
        out[0] = (uint8_t)(sum[0] / s->counts[x]);
        out[1] = (uint8_t)(sum[1] / sum[0]);
        out[2] = (uint8_t)(sum[2] / sum[0]);
        out[3] = (uint8_t)(sum[3] / sum[0]);
    }
    memset(s->sums, 0, sizeof(uint64_t) * (size_t)s->width * 4);
    memset(s->counts, 0, sizeof(uint32_t) * (size_t)s->width);
}

/// Adds source row `y` (rows come in order): `channels` bytes a pixel, R G B (and A when 4).
static void shrinker_add(shrinker *s, int y, const uint8_t *row, int channels) {
    int target_row = (int)((int64_t)y * s->height / s->source_height);
    while (s->row < target_row) {
        shrinker_flush(s);
        s->row++;
    }
    for (int x = 0; x < s->source_width; x++, row += channels) {
        uint64_t alpha = channels == 4 ? row[3] : 255;
        uint64_t *sum = s->sums + (size_t)s->column_of[x] * 4;
        sum[0] += alpha;
        sum[1] += row[0] * alpha;
        sum[2] += row[1] * alpha;
        sum[3] += row[2] * alpha;
        s->counts[s->column_of[x]]++;
    }
}

/// Writes the last row and hands the pixels to `out`.
static void shrinker_finish(shrinker *s, cimage_pixmap *out) {
    shrinker_flush(s);
    out->width = s->width;
    out->height = s->height;
    out->pixels = s->pixels;
    s->pixels = NULL;
}

static void shrinker_release(shrinker *s) {
    free(s->column_of);
    free(s->sums);
    free(s->counts);
    free(s->pixels);
}

// MARK: Loading

/// Resolves each name in `names` into the matching slot of `table` (an array of pointers).
static int resolve(void *library, const char *const *names, void **table, size_t count, char *error, size_t error_size) {
    for (size_t i = 0; i < count; i++) {
        table[i] = dlsym(library, names[i]);
        if (table[i] == NULL) {
            snprintf(error, error_size, "symbol %s missing", names[i]);
            return -1;
        }
    }
    return 0;
}

// MARK: JPEG

// The library whose ABI the header describes (libjpeg-turbo builds one of the three).
#if JPEG_LIB_VERSION >= 80
#define JPEG_LIBRARY "libjpeg.so.8"
#elif JPEG_LIB_VERSION >= 70
#define JPEG_LIBRARY "libjpeg.so.7"
#else
#define JPEG_LIBRARY "libjpeg.so.62"
#endif

static const char *const jpeg_names[] = {
    "jpeg_std_error", "jpeg_CreateDecompress", "jpeg_stdio_src", "jpeg_read_header",
    "jpeg_start_decompress", "jpeg_read_scanlines", "jpeg_destroy_decompress",
};

typedef struct {
    struct jpeg_error_mgr *(*std_error)(struct jpeg_error_mgr *);
    void (*create_decompress)(j_decompress_ptr, int, size_t);
    void (*stdio_src)(j_decompress_ptr, FILE *);
    int (*read_header)(j_decompress_ptr, boolean);
    boolean (*start_decompress)(j_decompress_ptr);
    JDIMENSION (*read_scanlines)(j_decompress_ptr, JSAMPARRAY, JDIMENSION);
    void (*destroy_decompress)(j_decompress_ptr);
} jpeg_functions;

/// Everything a JPEG decode touches after its setjmp, on the heap so a longjmp finds it as left.
typedef struct {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    jmp_buf failed;
    char *error;
    size_t error_size;
    int created;
    uint8_t *scanline;
    shrinker shrink;
} jpeg_decode;

static void jpeg_fail(j_common_ptr info) {
    jpeg_decode *decode = (jpeg_decode *)info->client_data;
    char message[JMSG_LENGTH_MAX];
    decode->errors.format_message(info, message);
    snprintf(decode->error, decode->error_size, "damaged JPEG: %s", message);
    longjmp(decode->failed, 1);
}

static void jpeg_silent(j_common_ptr info) { (void)info; }

static int decode_jpeg(void *library, FILE *file, int max_side, cimage_pixmap *out, char *error, size_t error_size) {
    jpeg_functions jpeg;
    if (resolve(library, jpeg_names, (void **)&jpeg, sizeof jpeg_names / sizeof *jpeg_names, error, error_size) != 0) return -1;
    jpeg_decode *decode = calloc(1, sizeof *decode);
    if (decode == NULL) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    decode->error = error;
    decode->error_size = error_size;
    volatile int status = -1;
    if (setjmp(decode->failed) == 0) {
        decode->info.err = jpeg.std_error(&decode->errors);
        decode->errors.error_exit = jpeg_fail;
        decode->errors.output_message = jpeg_silent;
        decode->info.client_data = decode;
        jpeg.create_decompress(&decode->info, JPEG_LIB_VERSION, sizeof decode->info);
        decode->created = 1;
        jpeg.stdio_src(&decode->info, file);
        jpeg.read_header(&decode->info, TRUE);
        int width = (int)decode->info.image_width, height = (int)decode->info.image_height;
        if (width > CIMAGE_MAX_SIDE || height > CIMAGE_MAX_SIDE) {
            snprintf(error, error_size, "JPEG of %d×%d pixels, more than %d a side", width, height, CIMAGE_MAX_SIDE);
        } else {
            // Let the decoder scale by 1/2, 1/4 or 1/8 while staying at least as large as the target.
            int longest = width > height ? width : height;
            unsigned denominator = 1;
            while (denominator < 8 && longest / (int)(denominator * 2) >= max_side) denominator *= 2;
            decode->info.scale_num = 1;
            decode->info.scale_denom = denominator;
            decode->info.out_color_space = JCS_RGB;
            jpeg.start_decompress(&decode->info);
            int columns = (int)decode->info.output_width, rows = (int)decode->info.output_height;
            decode->scanline = malloc((size_t)columns * 3);
            if (decode->scanline == NULL || shrinker_start(&decode->shrink, columns, rows, max_side) != 0) {
                snprintf(error, error_size, "out of memory");
            } else {
                JSAMPROW row = decode->scanline;
                int y = 0;
                for (; y < rows && jpeg.read_scanlines(&decode->info, &row, 1) == 1; y++) {
                    shrinker_add(&decode->shrink, y, decode->scanline, 3);
                }
                if (y == rows) {
                    shrinker_finish(&decode->shrink, out);
                    status = 0;
                } else {
                    snprintf(error, error_size, "JPEG ends after %d of %d rows", y, rows);
                }
            }
        }
    }
    if (decode->created) jpeg.destroy_decompress(&decode->info);
    free(decode->scanline);
    shrinker_release(&decode->shrink);
    free(decode);
    return status;
}

// MARK: PNG

// The library whose ABI the header describes: libpng16.so.16 for libpng 1.6.
#define STRING_OF(number) #number
#define DIGITS(number) STRING_OF(number)
#define PNG_LIBRARY "libpng" DIGITS(PNG_LIBPNG_VER_DLLNUM) ".so." DIGITS(PNG_LIBPNG_VER_SONUM)

static const char *const png_names[] = {
    "png_create_read_struct", "png_create_info_struct", "png_destroy_read_struct", "png_init_io",
    "png_set_user_limits", "png_read_info", "png_get_image_width", "png_get_image_height",
    "png_set_expand", "png_set_strip_16", "png_set_gray_to_rgb", "png_set_add_alpha",
    "png_set_interlace_handling", "png_read_update_info", "png_get_rowbytes", "png_read_row",
};

typedef struct {
    png_structp (*create_read_struct)(png_const_charp, png_voidp, png_error_ptr, png_error_ptr);
    png_infop (*create_info_struct)(png_const_structrp);
    void (*destroy_read_struct)(png_structpp, png_infopp, png_infopp);
    void (*init_io)(png_structrp, FILE *);
    void (*set_user_limits)(png_structrp, png_uint_32, png_uint_32);
    void (*read_info)(png_structrp, png_inforp);
    png_uint_32 (*get_image_width)(png_const_structrp, png_const_inforp);
    png_uint_32 (*get_image_height)(png_const_structrp, png_const_inforp);
    void (*set_expand)(png_structrp);
    void (*set_strip_16)(png_structrp);
    void (*set_gray_to_rgb)(png_structrp);
    void (*set_add_alpha)(png_structrp, png_uint_32, int);
    int (*set_interlace_handling)(png_structrp);
    void (*read_update_info)(png_structrp, png_inforp);
    size_t (*get_rowbytes)(png_const_structrp, png_const_inforp);
    void (*read_row)(png_structrp, png_bytep, png_bytep);
} png_functions;

/// Everything a PNG decode touches after its setjmp, on the heap so a longjmp finds it as left.
typedef struct {
    jmp_buf failed;
    char *error;
    size_t error_size;
    png_structp reader;
    png_infop info;
    uint8_t *row;
    shrinker shrink;
} png_decode;

/// The decode under way on this thread: libpng's error callback reaches it through here, since
/// the library's own way back (png_get_error_ptr) is one more loaded symbol to call.
static _Thread_local png_decode *png_current;

static void png_fail(png_structp reader, png_const_charp message) {
    (void)reader;
    snprintf(png_current->error, png_current->error_size, "damaged PNG: %s", message);
    longjmp(png_current->failed, 1);
}

static void png_warn(png_structp reader, png_const_charp message) {
    (void)reader;
    (void)message;
}

static int decode_png(void *library, FILE *file, int max_side, cimage_pixmap *out, char *error, size_t error_size) {
    png_functions png;
    if (resolve(library, png_names, (void **)&png, sizeof png_names / sizeof *png_names, error, error_size) != 0) return -1;
    png_decode *decode = calloc(1, sizeof *decode);
    if (decode == NULL) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    decode->error = error;
    decode->error_size = error_size;
    png_current = decode;
    volatile int status = -1;
    decode->reader = png.create_read_struct(PNG_LIBPNG_VER_STRING, decode, png_fail, png_warn);
    if (decode->reader == NULL || (decode->info = png.create_info_struct(decode->reader)) == NULL) {
        snprintf(error, error_size, "libpng could not start (version %s expected)", PNG_LIBPNG_VER_STRING);
    } else if (setjmp(decode->failed) == 0) {
        png.init_io(decode->reader, file);
        png.set_user_limits(decode->reader, CIMAGE_MAX_SIDE, CIMAGE_MAX_SIDE);
        png.read_info(decode->reader, decode->info);
        // Whatever the colour type and depth: 8-bit R G B A.
        png.set_expand(decode->reader);
        png.set_strip_16(decode->reader);
        png.set_gray_to_rgb(decode->reader);
        png.set_add_alpha(decode->reader, 0xFF, PNG_FILLER_AFTER);
        if (png.set_interlace_handling(decode->reader) != 1) {
            // Each pass fills other pixels of every row: it would need the whole image in memory.
            snprintf(error, error_size, "interlaced PNG (not decoded for a pixmap)");
        } else {
            png.read_update_info(decode->reader, decode->info);
            int width = (int)png.get_image_width(decode->reader, decode->info);
            int height = (int)png.get_image_height(decode->reader, decode->info);
            if (png.get_rowbytes(decode->reader, decode->info) != (size_t)width * 4) {
                snprintf(error, error_size, "PNG rows of an unexpected layout");
            } else if ((decode->row = malloc((size_t)width * 4)) == NULL || shrinker_start(&decode->shrink, width, height, max_side) != 0) {
                snprintf(error, error_size, "out of memory");
            } else {
                for (int y = 0; y < height; y++) {
                    png.read_row(decode->reader, decode->row, NULL);
                    shrinker_add(&decode->shrink, y, decode->row, 4);
                }
                shrinker_finish(&decode->shrink, out);
                status = 0;
            }
        }
    }
    if (decode->reader != NULL) png.destroy_read_struct(&decode->reader, decode->info == NULL ? NULL : &decode->info, NULL);
    png_current = NULL;
    free(decode->row);
    shrinker_release(&decode->shrink);
    free(decode);
    return status;
}

// MARK: Decoding

void cimage_free(uint8_t *pixels) { free(pixels); }

int cimage_decode(int fd, int max_side, cimage_pixmap *out, char *error, size_t error_size) {
    out->width = 0;
    out->height = 0;
    out->pixels = NULL;
    if (max_side < 1) {
        snprintf(error, error_size, "a pixmap of %d pixels a side", max_side);
        return -1;
    }
    uint8_t magic[8];
    if (pread(fd, magic, sizeof magic, 0) != (ssize_t)sizeof magic) {
        snprintf(error, error_size, "too short for an image");
        return -1;
    }
    static const uint8_t jpeg_magic[] = {0xFF, 0xD8, 0xFF};
    static const uint8_t png_magic[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    int is_jpeg = memcmp(magic, jpeg_magic, sizeof jpeg_magic) == 0;
    int is_png = memcmp(magic, png_magic, sizeof png_magic) == 0;
    if (!is_jpeg && !is_png) {
        snprintf(error, error_size, "neither JPEG nor PNG");
        return -1;
    }
    const char *name = is_jpeg ? JPEG_LIBRARY : PNG_LIBRARY;
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(error, error_size, "cannot load %s: %s", name, dlerror());
        return -1;
    }
    int own = dup(fd);
    FILE *file = own < 0 ? NULL : fdopen(own, "rb");
    volatile int status = -1;
    if (file == NULL) {
        if (own >= 0) close(own);
        snprintf(error, error_size, "cannot read the image");
    } else {
        rewind(file);
        status = is_jpeg ? decode_jpeg(library, file, max_side, out, error, error_size)
                         : decode_png(library, file, max_side, out, error, error_size);
        fclose(file);
    }
    dlclose(library);
    // The decoders' working memory is freed by now, but glibc keeps the pages it came from: give
    // them back, or a notifier that decoded one cover stays larger for the rest of the session.
    malloc_trim(0);
    return status;
}
