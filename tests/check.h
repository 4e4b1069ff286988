/* check.h - a minimal unit-test harness: CHECK records a pass or a failure,
 * check_report() prints the closing "N passed, N failed" line. */
#ifndef HEXE_CHECK_H
#define HEXE_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (cond) {                                                          \
            check_passed++;                                                  \
        } else {                                                             \
            check_failed++;                                                  \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);           \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
        }                                                                    \
    } while (0)

static inline int check_report(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
