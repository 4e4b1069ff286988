/* check.h - a minimal unit-test harness: CHECK records a pass or a failure,
 * SKIP records checks left out because optional test data is missing,
 * check_report() prints the closing "N passed, N failed[, N skipped]" line.
 *
 * Optional data (the 5-piece tables, the large book) lives in the folder
 * named by $HEXE_TEST_DATA, laid out like the project's shared data:
 * syzygy/, books/, perft/, openings/. test_data_path() finds a file there. */
#ifndef HEXE_CHECK_H
#define HEXE_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static int check_passed, check_failed, check_skipped;

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

/* n checks not run; the reason is printed on a SKIP line. */
#define SKIP(n, ...)                                                         \
    do {                                                                     \
        check_skipped += (n);                                                \
        printf("SKIP %d: ", (int)(n));                                       \
        printf(__VA_ARGS__);                                                 \
        printf("\n");                                                        \
    } while (0)

/* The path of REL inside $HEXE_TEST_DATA in buf, or NULL when the variable
 * is unset or empty or the file (or folder) is not there. */
static inline const char *test_data_path(const char *rel, char *buf, size_t size)
{
    const char *root = getenv("HEXE_TEST_DATA");
    struct stat st;
    if (!root || !*root)
        return NULL;
    int n = snprintf(buf, size, "%s/%s", root, rel);
    if (n < 0 || (size_t)n >= size || stat(buf, &st) != 0)
        return NULL;
    return buf;
}

static inline int check_report(const char *suite)
{
    if (check_skipped)
        printf("%s: %d passed, %d failed, %d skipped\n", suite, check_passed, check_failed, check_skipped);
    else
        printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
