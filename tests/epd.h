/* epd.h - the tests' one reader of the reference perft suites
 * (tests/data/perft/standard.epd and random.epd): each line's FEN, without
 * its ';' fields, and whether it is a Chess960 position (a "c960" field).
 * Run from the repository root. A file that cannot be opened is a failed
 * check (check.h). */
#ifndef HEXE_TEST_EPD_H
#define HEXE_TEST_EPD_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct {
    char fen[128];
    bool c960;
} EpdPos;

typedef struct {
    EpdPos *pos;
    int count;
} EpdSuite;

static inline EpdSuite epd_read_suites(void)
{
    static const char *const files[] = {"tests/data/perft/standard.epd", "tests/data/perft/random.epd"};
    EpdSuite s = {NULL, 0};
    int cap = 0;
    for (int f = 0; f < 2; f++) {
        FILE *in = fopen(files[f], "r");
        CHECK(in != NULL, "cannot open %s (run from the repository root)", files[f]);
        char line[512];
        while (in && fgets(line, sizeof line, in)) {
            char *semi = strchr(line, ';');
            if (line[0] == '#' || line[0] == '\n' || !semi)
                continue;
            *semi = '\0';
            size_t len = strlen(line);
            if (len >= sizeof s.pos->fen) {
                CHECK(false, "%s: a FEN of %zu characters", files[f], len);
                continue;
            }
            if (s.count == cap) {
                cap = cap ? 2 * cap : 256;
                EpdPos *p = realloc(s.pos, (size_t)cap * sizeof *p);
                if (!p)
                    break;
                s.pos = p;
            }
            EpdPos *e = &s.pos[s.count++];
            memcpy(e->fen, line, len + 1);
            e->c960 = strstr(semi + 1, "c960") != NULL;
        }
        if (in)
            fclose(in);
    }
    return s;
}

static inline void epd_free(EpdSuite *s)
{
    free(s->pos);
    s->pos = NULL;
    s->count = 0;
}

#endif
