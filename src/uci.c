/* uci.c - the UCI front end: reads commands, keeps the game position, prints answers. */
#include "uci.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"

static Position root_pos;

void uci_send(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* Reads one line of any length; NULL at end of input. */
char *read_line(FILE *in)
{
    size_t cap = 256, len = 0;
    char *s = malloc(cap);
    int ch;
    if (!s)
        return NULL;
    while ((ch = getc(in)) != EOF && ch != '\n') {
        if (len + 1 >= cap) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                return NULL;
            }
            s = t;
        }
        s[len++] = (char)ch;
    }
    if (ch == EOF && len == 0) {
        free(s);
        return NULL;
    }
    s[len] = '\0';
    return s;
}

/* Splits a line into whitespace-separated tokens, in place. */
static int tokenize(char *line, char ***out)
{
    int cap = 16, n = 0;
    char **tok = malloc((size_t)cap * sizeof *tok);
    for (char *t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
        if (n == cap) {
            cap *= 2;
            tok = realloc(tok, (size_t)cap * sizeof *tok);
        }
        tok[n++] = t;
    }
    *out = tok;
    return n;
}

static void cmd_position(char **tok, int n)
{
    int i = 1;
    char err[160];
    Position tmp = {0};
    tmp.chess960 = root_pos.chess960;
    if (i < n && !strcmp(tok[i], "startpos")) {
        pos_set_fen(&tmp, START_FEN, err, sizeof err);
        i++;
    } else if (i < n && !strcmp(tok[i], "fen")) {
        char fen[256] = "";
        size_t len = 0;
        for (i++; i < n && strcmp(tok[i], "moves"); i++) {
            size_t tl = strlen(tok[i]);
            if (len + tl + 2 >= sizeof fen) {
                uci_send("info string invalid FEN: too long; position unchanged");
                return;
            }
            if (len)
                fen[len++] = ' ';
            memcpy(fen + len, tok[i], tl + 1);
            len += tl;
        }
        if (!pos_set_fen(&tmp, fen, err, sizeof err)) {
            uci_send("info string invalid FEN (%s): %s; position unchanged", fen, err);
            pos_free(&tmp);
            return;
        }
    } else {
        uci_send("info string position needs 'startpos' or 'fen <FEN>'; position unchanged");
        return;
    }
    if (i < n && !strcmp(tok[i], "moves")) {
        pos_reserve(&tmp, n - i + MAX_PLY);
        for (i++; i < n; i++) {
            Move m = parse_move(&tmp, tok[i]);
            if (m == MOVE_NONE) {
                uci_send("info string illegal move '%s' in the move list; position set up to the move before it",
                         tok[i]);
                break;
            }
            make_move(&tmp, m);
        }
    } else if (i < n) {
        uci_send("info string unexpected '%s' after the position", tok[i]);
    }
    pos_copy(&root_pos, &tmp);
    pos_free(&tmp);
}

static void cmd_perft(int depth)
{
    if (depth < 1 || depth > 20) {
        uci_send("info string perft depth must be 1..20");
        return;
    }
    MoveList l;
    gen_legal(&root_pos, &l);
    uint64_t total = 0;
    for (int i = 0; i < l.count; i++) {
        char b[8];
        uint64_t cnt = 1;
        if (depth > 1) {
            make_move(&root_pos, l.moves[i]);
            cnt = perft(&root_pos, depth - 1);
            unmake_move(&root_pos);
        }
        total += cnt;
        uci_send("%s: %llu", move_to_uci(l.moves[i], root_pos.chess960, b), (unsigned long long)cnt);
    }
    uci_send("\nNodes searched: %llu\n", (unsigned long long)total);
}

static void cmd_go(char **tok, int n)
{
    if (n >= 2 && !strcmp(tok[1], "perft")) {
        if (n < 3) {
            uci_send("info string go perft needs a depth");
            return;
        }
        cmd_perft(atoi(tok[2]));
        return;
    }
    uci_send("info string search not implemented yet");
}

void uci_init(void)
{
    char err[128];
    pos_set_fen(&root_pos, START_FEN, err, sizeof err);
}

void uci_loop(FILE *in)
{
    char *line;
    while ((line = read_line(in))) {
        char **tok;
        int n = tokenize(line, &tok);
        bool quit = false;
        if (n == 0) {
        } else if (!strcmp(tok[0], "uci")) {
            uci_send("id name Hexe %s", HEXE_VERSION);
            uci_send("id author the Hexe developers");
            uci_send("uciok");
        } else if (!strcmp(tok[0], "isready")) {
            uci_send("readyok");
        } else if (!strcmp(tok[0], "ucinewgame")) {
            /* nothing to clear yet */
        } else if (!strcmp(tok[0], "position")) {
            cmd_position(tok, n);
        } else if (!strcmp(tok[0], "go")) {
            cmd_go(tok, n);
        } else if (!strcmp(tok[0], "d")) {
            pos_print(&root_pos, stdout);
        } else if (!strcmp(tok[0], "quit")) {
            quit = true;
        } else {
            uci_send("info string unknown command '%s'", tok[0]);
        }
        free(tok);
        free(line);
        if (quit)
            break;
    }
    pos_free(&root_pos);
}
