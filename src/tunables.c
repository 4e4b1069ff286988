/* tunables.c - the tuning build's parameters as variables (src/tunables.h). */
#include "tunables.h"

#include <stddef.h>

#ifdef HEXE_TUNE
#define X(name, def, min, max, c) int name = def;
TUNABLES(X)
#undef X

static Tunable list[] = {
#define X(name, def, min, max, c) {#name, &name, def, min, max},
    TUNABLES(X)
#undef X
};

int tunable_count(void) { return (int)(sizeof list / sizeof *list); }

Tunable *tunable(int i) { return i >= 0 && i < tunable_count() ? &list[i] : NULL; }
#else
int tunable_count(void) { return 0; }

Tunable *tunable(int i)
{
    (void)i;
    return NULL;
}
#endif
