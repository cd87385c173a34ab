// For the `sitemarkup` fuzz target only (scripts/dev/fuzz.sh): libxml2's heap goes straight to glibc,
// past AddressSanitizer. libxml2 is not instrumented (ASan cannot check its accesses anyway), and
// its parser allocates for every node and every error message it formats: through ASan's
// allocator, with a stack trace for each allocation and a quarantine for each free, that was most
// of the target's time (1.5–3 k executions/s). Our code — the Swift extractors and the C shim —
// stays fully checked; memory libxml2 hands out is released with its own xmlFree, as the shim does.
//
// Runs as a constructor, before the fuzzer's first input: it loads libxml2 (the shim's later
// dlopen gets the same instance) and installs glibc's allocator with xmlMemSetup, which must
// happen before libxml2 allocates anything.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static char *libc_strdup(const char *text) {
    size_t length = strlen(text) + 1;
    char *copy = __libc_malloc(length);
    if (copy != NULL) memcpy(copy, text, length);
    return copy;
}

__attribute__((constructor)) static void use_libc_heap_for_libxml2(void) {
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    int (*setup)(void (*)(void *), void *(*)(size_t), void *(*)(void *, size_t), char *(*)(const char *)) =
        library != NULL ? (int (*)(void (*)(void *), void *(*)(size_t), void *(*)(void *, size_t), char *(*)(const char *)))dlsym(library, "xmlMemSetup") : NULL;
    if (setup == NULL || setup(__libc_free, __libc_malloc, __libc_realloc, libc_strdup) != 0) {
        fprintf(stderr, "SiteMarkupAllocator: cannot install glibc's allocator in libxml2\n");
        abort();
    }
}
