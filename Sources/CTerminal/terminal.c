// See include/terminal.h.
#define _XOPEN_SOURCE 700
#include "terminal.h"

#include <langinfo.h>
#include <locale.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

void tidings_prepare_ctype(void) {
    setlocale(LC_CTYPE, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset && (strcasecmp(codeset, "UTF-8") == 0 || strcasecmp(codeset, "UTF8") == 0)) return;
    setlocale(LC_CTYPE, "C.UTF-8");
}

int tidings_wcwidth(unsigned int code_point) { return wcwidth((wchar_t)code_point); }
