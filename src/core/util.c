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
