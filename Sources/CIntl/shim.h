#ifndef CINTL_SHIM_H
#define CINTL_SHIM_H
// gettext (glibc's libintl), which Glibc's Swift module does not export, and setlocale.
#include <libintl.h>
#include <locale.h>
#endif
