/* fuzz_uci.c - libFuzzer target: whole UCI input lines against one live
 * engine (the position, options, book, tablebases and search state carry
 * over from input to input). Each input is split into lines and every line
 * is handled like one from the GUI, so a `go` may still be searching while
 * the next lines arrive; at the end of each input a running search is
 * stopped, so that nothing blocks. Kept cheap, and off the file system:
 * Hash at most 64 MB, Threads at most 4, `bench` at depth 1, `go perft` at
 * most depth 3, no BookFile or SyzygyPath changes, `quit` ignored. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "startup.h"
#include "uci.h"

/* The words of a line, lower-cased, for the checks below. */
static bool has_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = line; (p = strcasestr(p, word)); p += n)
        if ((p == line || isspace((unsigned char)p[-1])) && (!p[n] || isspace((unsigned char)p[n])))
            return true;
    return false;
}

/* Rewrites or drops a line that would be slow or touch files; false: drop. */
static bool tame(char *line, size_t cap)
{
    const char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    if (!strncmp(p, "quit", 4) || !strncmp(p, "bench", 5))
        return false;
    if (!strncmp(p, "setoption", 9)) {
        if (strcasestr(line, "bookfile") || strcasestr(line, "syzygypath"))
            return false;
        if (has_word(line, "hash") && !has_word(line, "clear")) {
            snprintf(line, cap, "setoption name Hash value %d", 1 + (int)(strlen(line) % 64));
        } else if (has_word(line, "threads")) {
            snprintf(line, cap, "setoption name Threads value %d", 1 + (int)(strlen(line) % 4));
        }
        return true;
    }
    if (!strncmp(p, "go", 2) && has_word(line, "perft")) {
        const char *d = strcasestr(line, "perft") + 5;
        int depth = atoi(d);
        snprintf(line, cap, "go perft %d", depth < 1 ? 1 : depth > 3 ? 3 : depth);
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        if (!freopen("/dev/null", "w", stdout)) /* the engine's output */
            abort();
        hexe_start();
        uci_init();
        /* The shipped book and tables, from the repository root. */
        char cmd[] = "setoption name BookFile value books/book.bin";
        uci_command(cmd);
        char tb[] = "setoption name SyzygyPath value tablebases";
        uci_command(tb);
        ready = true;
    }
    if (size > 16384)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        size_t cap = strlen(l) + 64;
        char *line = malloc(cap);
        snprintf(line, cap, "%s", l);
        if (tame(line, cap))
            uci_command(line);
        free(line);
    }
    free(text);
    if (engine_running()) {
        char stop[] = "stop";
        uci_command(stop);
    }
    return 0;
}
