/* Small helpers shared by the core. */
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

char *px__strdup(const char *s)
{
    if (!s) s = "";
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

char *px__concat(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *d = malloc(na + nb + 1);
    if (!d) return NULL;
    memcpy(d, a, na);
    memcpy(d + na, b, nb + 1);
    return d;
}
