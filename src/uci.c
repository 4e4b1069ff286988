/* uci.c - the UCI front end: reads commands, keeps the game position and the
 * options, starts and stops the search thread. It never searches itself. */
#include "uci.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "book.h"
#include "eval.h"
#include "eval/nnue.h"
#include "fen.h"
#include "files.h"
#include "movegen.h"
#include "search.h"
#include "tb.h"
#include "tt.h"

static Position root_pos;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

void uci_send(const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&out_lock);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
}

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
    for (char *t = strtok(line, " \t\r\n"); t && tok; t = strtok(NULL, " \t\r\n")) {
        if (n == cap) {
            char **nt = realloc(tok, (size_t)(cap *= 2) * sizeof *tok);
            if (!nt)
                break;
            tok = nt;
        }
        tok[n++] = t;
    }
    *out = tok;
    return tok ? n : 0;
}

static bool parse_int64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
}

/* ---- Options ---- */

typedef enum { OPT_SPIN, OPT_CHECK, OPT_STRING, OPT_COMBO, OPT_BUTTON } OptType;

typedef struct Option {
    const char *name;
    OptType type;
    int64_t min, max;
    char def[256];
    const char *vars[16];
    /* Where a validated value goes: a plain int or bool setting, and/or a
     * function that applies it (returning false, with msg, to refuse it). */
    int *int_value;
    bool *bool_value;
    bool (*apply)(const char *value, char *msg, size_t n);
} Option;

static bool set_hash(const char *v, char *msg, size_t n)
{
    if (!tt_resize((size_t)atoll(v), search_options.threads)) {
        snprintf(msg, n, "not enough memory for %s MB of hash; keeping %zu MB", v, tt_size_mb());
        return false;
    }
    return true;
}
static bool set_threads(const char *v, char *msg, size_t n)
{
    (void)msg, (void)n;
    search_set_threads(atoi(v));
    return true;
}
static bool clear_hash(const char *v, char *msg, size_t n)
{
    (void)v, (void)msg, (void)n;
    search_clear();
    return true;
}
static bool set_chess960(const char *v, char *m, size_t n)
{
    (void)v, (void)m, (void)n;
    root_pos.chess960 = search_options.chess960;
    return true;
}
/* The opening book (OwnBook, BookFile, BookDepth, BookSelection, BookMinWeight). */
static struct {
    Book *book;
    bool own;
    int depth, selection, min_weight;
    uint64_t rng;
} bk = {NULL, false, 255, BOOK_WEIGHTED, 1, 0};

static bool set_own_book(const char *v, char *m, size_t n)
{
    (void)v;
    if (bk.own && !bk.book)
        snprintf(m, n, "OwnBook is on but no book is open: set BookFile");
    return true;
}
static bool set_book_file(const char *v, char *m, size_t n)
{
    book_close(bk.book);
    bk.book = NULL;
    if (!v[0]) {
        snprintf(m, n, "no opening book");
        return true;
    }
    char err[256], path[1200];
    v = beside_exe(v, path, sizeof path); /* the default books/book.bin works from anywhere */
    bk.book = book_open(v, err, sizeof err);
    if (!bk.book) {
        snprintf(m, n, "book '%s' not used: %s; Hexe searches every move", v, err);
        return false;
    }
    snprintf(m, n, "book '%s' opened: %llu entries", v, (unsigned long long)book_size(bk.book));
    return true;
}
static bool set_book_selection(const char *v, char *m, size_t n)
{
    (void)m, (void)n;
    bk.selection = book_selection_parse(v);
    return bk.selection >= 0;
}
/* A book move for `go`, or MOVE_NONE: only in play, not analysis or infinite. */
static Move book_move_for(const Position *pos, const Limits *lim)
{
    if (!bk.own || !bk.book || lim->infinite || search_options.analyse_mode || pos->fullmove > bk.depth)
        return MOVE_NONE;
    BookEntry e[MAX_MOVES];
    int n = book_probe(bk.book, pos, e, MAX_MOVES);
    if (n < 0) {
        uci_send("info string book not used: %s", book_strerror(n));
        return MOVE_NONE;
    }
    if (lim->nsearchmoves) { /* only moves the GUI allows: each entry kept at most once, so k <= i */
        int k = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < lim->nsearchmoves; j++)
                if (e[i].move == lim->searchmoves[j]) {
                    e[k++] = e[i];
                    break;
                }
        n = k;
    }
    return book_choose(e, n, bk.selection, bk.min_weight, &bk.rng);
}

/* SyzygyPath: "" or <empty> means the tablebases/ folder beside the executable. */
static bool set_syzygy_path(const char *v, char *m, size_t n)
{
    char dir[1024];
    bool have_default = tb_default_path(dir, sizeof dir);
    if (!v[0] && have_default)
        v = dir;
    if (tb_set_path(v, m, n))
        return true;
    /* Folders with no usable table (lichess-bot's ./syzygy/, PolyGlot's
     * /EGT/Syzygy) do not switch off the tables shipped with Hexe. */
    char again[256];
    if (have_default && strcmp(v, dir) && tb_set_path(dir, again, sizeof again)) {
        char *off = strstr(m, "; tablebases off");
        if (off)
            *off = '\0';
        size_t len = strlen(m);
        snprintf(m + len, n - len, "; keeping the tables shipped in %s (%s)", dir, again);
        return true;
    }
    size_t len = strlen(m);
    snprintf(m + len, n - len, "; playing without tablebases");
    return false;
}
static bool set_syzygy_limit(const char *v, char *m, size_t n)
{
    (void)v;
    if (search_options.syzygy_probe_limit > tb_max_pieces())
        snprintf(m, n, "SyzygyProbeLimit %d: the largest tables found have %d pieces", search_options.syzygy_probe_limit,
                 tb_max_pieces());
    return true;
}

/* The TT and the search threads keep static evaluations: a different
 * evaluator or weight makes them wrong, so they go. */
static bool eval_changed(const char *v, char *msg, size_t n)
{
    (void)v, (void)msg, (void)n;
    search_forget_evals();
    return true;
}

/* EvalFile: the nnue evaluator's network; a file that cannot be used leaves
 * the network in use as it was. */
static bool set_eval_file(const char *v, char *msg, size_t n)
{
    char err[256];
    if (!nnue_use(v, err, sizeof err)) {
        snprintf(msg, n, "EvalFile not loaded: %s; the network stays %s", err, nnue_net_name);
        return false;
    }
    snprintf(msg, n, "EvalFile %s: %d hidden units", nnue_net_name, nnue_net->hidden);
    return eval_changed(v, msg, n);
}

static bool set_eval(const char *v, char *msg, size_t n)
{
    if (!eval_select(v)) {
        snprintf(msg, n, "no usable evaluator named '%s'", v);
        return false;
    }
    return eval_changed(v, msg, n);
}

#define MAX_OPTIONS 64
static Option options[MAX_OPTIONS];
static int noptions;

static Option *add_option(const char *name, OptType type, const char *def, int64_t min, int64_t max,
                          bool (*apply)(const char *, char *, size_t))
{
    if (noptions == MAX_OPTIONS)
        abort(); /* a programming error: raise MAX_OPTIONS */
    Option *o = &options[noptions++];
    memset(o, 0, sizeof *o);
    o->name = name;
    o->type = type;
    snprintf(o->def, sizeof o->def, "%s", def);
    o->min = min;
    o->max = max;
    o->apply = apply;
    return o;
}

static void add_int(const char *name, int *target, int min, int max)
{
    char def[16];
    snprintf(def, sizeof def, "%d", *target);
    add_option(name, OPT_SPIN, def, min, max, NULL)->int_value = target;
}

static void add_bool(const char *name, bool *target, bool (*apply)(const char *, char *, size_t))
{
    add_option(name, OPT_CHECK, *target ? "true" : "false", 0, 0, apply)->bool_value = target;
}

static void init_options(void)
{
    SearchOptions *so = &search_options;
    add_option("Hash", OPT_SPIN, "16", 1, 65536, set_hash);
    add_option("Clear Hash", OPT_BUTTON, "", 0, 0, clear_hash);
    add_int("Threads", &so->threads, 1, 256);
    options[noptions - 1].apply = set_threads;
    add_bool("Ponder", &so->ponder, NULL);
    add_int("MultiPV", &so->multipv, 1, 256);
    add_int("Move Overhead", &so->move_overhead, 0, 5000);
    add_bool("UCI_Chess960", &so->chess960, set_chess960);
    add_bool("UCI_AnalyseMode", &so->analyse_mode, NULL);
    add_bool("UCI_ShowWDL", &so->show_wdl, NULL);
    add_int("Skill Level", &so->skill, 0, 20);
    add_bool("UCI_LimitStrength", &so->limit_strength, NULL);
    add_int("UCI_Elo", &so->elo, 1000, 3000);

    char msg[512];
    set_book_file(BOOK_DEFAULT_NAME, msg, sizeof msg);
    bk.own = bk.book != NULL;
    bool have_book = bk.own;
    bk.rng = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid();
    add_bool("OwnBook", &bk.own, set_own_book);
    add_option("BookFile", OPT_STRING, have_book ? BOOK_DEFAULT_NAME : "", 0, 0, set_book_file);
    add_int("BookDepth", &bk.depth, 1, 255);
    Option *sel = add_option("BookSelection", OPT_COMBO, "weighted", 0, 0, set_book_selection);
    sel->vars[0] = "best", sel->vars[1] = "weighted", sel->vars[2] = "uniform";
    add_int("BookMinWeight", &bk.min_weight, 0, 65535);

    set_syzygy_path("", msg, sizeof msg); /* the bundled 3-4-piece tables, when present */
    add_option("SyzygyPath", OPT_STRING, "", 0, 0, set_syzygy_path);
    add_int("SyzygyProbeDepth", &so->syzygy_probe_depth, 1, 100);
    add_bool("Syzygy50MoveRule", &so->syzygy_50_move_rule, NULL);
    add_int("SyzygyProbeLimit", &so->syzygy_probe_limit, 0, 7);
    options[noptions - 1].apply = set_syzygy_limit;

    Option *ev = add_option("Evaluation", OPT_COMBO, eval_current->name, 0, 0, set_eval);
    for (int i = 0; i < eval_count() && i < 15; i++)
        ev->vars[i] = eval_get(i)->name;
    add_option("EvalFile", OPT_STRING, "<internal>", 0, 0, set_eval_file);
    for (int i = 0; i < eval_param_count(); i++) {
        EvalParam *p = eval_param(i);
        add_int(p->name, p->value, p->min, p->max);
        options[noptions - 1].apply = eval_changed;
    }
}

static void print_options(void)
{
    for (int i = 0; i < noptions; i++) {
        Option *o = &options[i];
        switch (o->type) {
        case OPT_SPIN:
            uci_send("option name %s type spin default %s min %lld max %lld", o->name, o->def, (long long)o->min,
                     (long long)o->max);
            break;
        case OPT_CHECK:
            uci_send("option name %s type check default %s", o->name, o->def);
            break;
        case OPT_STRING:
            uci_send("option name %s type string default %s", o->name, o->def[0] ? o->def : "<empty>");
            break;
        case OPT_BUTTON:
            uci_send("option name %s type button", o->name);
            break;
        case OPT_COMBO: {
            char line[512];
            int n = snprintf(line, sizeof line, "option name %s type combo default %s", o->name, o->def);
            for (int k = 0; o->vars[k] && n < (int)sizeof line - 40; k++)
                n += snprintf(line + n, sizeof line - (size_t)n, " var %s", o->vars[k]);
            uci_send("%s", line);
            break;
        }
        }
    }
}

/* setoption name <name, may contain spaces> [value <value, may contain spaces>] */
static void cmd_setoption(const char *raw)
{
    const char *p = strstr(raw, "name");
    if (!p || (p[4] != ' ' && p[4] != '\t')) {
        uci_send("info string setoption needs 'name <option>'");
        return;
    }
    p += 4;
    while (*p == ' ' || *p == '\t')
        p++;
    char name[256], value[1024] = "";
    const char *v = NULL;
    for (const char *q = p; (q = strstr(q, "value")); q++)
        if ((q[-1] == ' ' || q[-1] == '\t') && (q[5] == ' ' || q[5] == '\t' || q[5] == '\0')) {
            v = q;
            break;
        }
    size_t nlen = v ? (size_t)(v - p) : strlen(p);
    if (nlen >= sizeof name)
        nlen = sizeof name - 1;
    memcpy(name, p, nlen);
    name[nlen] = '\0';
    for (int i = (int)nlen - 1; i >= 0 && isspace((unsigned char)name[i]); i--)
        name[i] = '\0';
    if (v) {
        v += 5;
        while (*v == ' ' || *v == '\t')
            v++;
        snprintf(value, sizeof value, "%s", v);
        for (int i = (int)strlen(value) - 1; i >= 0 && isspace((unsigned char)value[i]); i--)
            value[i] = '\0';
    }

    Option *o = NULL;
    for (int i = 0; i < noptions; i++)
        if (!strcasecmp(options[i].name, name))
            o = &options[i];
    if (!o) {
        uci_send("info string no option named '%s'", name);
        return;
    }
    if (search_running()) {
        uci_send("info string option '%s' not changed while a search is running; send it again after bestmove",
                 o->name);
        return;
    }
    char msg[4096] = "";
    switch (o->type) {
    case OPT_SPIN: {
        int64_t x;
        if (!parse_int64(value, &x)) {
            uci_send("info string option '%s' needs a whole number, not '%s'; unchanged", o->name, value);
            return;
        }
        if (x < o->min || x > o->max) {
            uci_send("info string option '%s' must be between %lld and %lld, not %s; unchanged", o->name,
                     (long long)o->min, (long long)o->max, value);
            return;
        }
        snprintf(value, sizeof value, "%lld", (long long)x);
        break;
    }
    case OPT_CHECK:
        if (strcasecmp(value, "true") && strcasecmp(value, "false")) {
            uci_send("info string option '%s' needs true or false, not '%s'; unchanged", o->name, value);
            return;
        }
        for (char *c = value; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        break;
    case OPT_COMBO: {
        bool ok = false;
        for (int k = 0; o->vars[k]; k++)
            if (!strcasecmp(o->vars[k], value)) {
                snprintf(value, sizeof value, "%s", o->vars[k]);
                ok = true;
            }
        if (!ok) {
            uci_send("info string option '%s' has no choice '%s'; unchanged", o->name, value);
            return;
        }
        break;
    }
    case OPT_STRING:
        if (!strcmp(value, "<empty>"))
            value[0] = '\0';
        break;
    case OPT_BUTTON:
        break;
    }
    if (o->int_value)
        *o->int_value = atoi(value);
    if (o->bool_value)
        *o->bool_value = !strcmp(value, "true");
    if (o->apply && !o->apply(value, msg, sizeof msg)) {
        uci_send("info string %s", msg[0] ? msg : "option refused");
        return;
    }
    if (msg[0])
        uci_send("info string %s", msg);
}

/* ---- position ---- */

static void cmd_position(char **tok, int n)
{
    int i = 1;
    char err[160];
    Position tmp = {0};
    tmp.chess960 = search_options.chess960;
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
            uci_send("info string invalid FEN '%s': %s; position unchanged", fen, err);
            return;
        }
    } else {
        uci_send("info string position needs 'startpos' or 'fen <FEN>'; position unchanged");
        return;
    }
    if (i < n && !strcmp(tok[i], "moves")) {
        if (!pos_reserve(&tmp, n - i + MAX_PLY)) {
            uci_send("info string out of memory; position unchanged");
            pos_free(&tmp);
            return;
        }
        for (i++; i < n; i++) {
            Move m = parse_move(&tmp, tok[i]);
            if (m == MOVE_NONE) {
                char fen[128];
                uci_send("info string illegal move '%s' in the move list; position unchanged (still %s)", tok[i],
                         pos_get_fen(&root_pos, fen));
                pos_free(&tmp);
                return;
            }
            make_move(&tmp, m);
        }
    } else if (i < n) {
        uci_send("info string unexpected '%s' after the position; ignored", tok[i]);
    }
    pos_copy(&root_pos, &tmp);
    pos_free(&tmp);
}

/* ---- go ---- */

static void cmd_perft(const char *arg)
{
    int64_t depth;
    if (!arg || !parse_int64(arg, &depth) || depth < 1 || depth > 20) {
        uci_send("info string go perft needs a depth from 1 to 20");
        return;
    }
    search_start_perft(&root_pos, (int)depth); /* on the search thread: isready, stop and quit answered */
}

static bool is_go_keyword(const char *s)
{
    static const char *const kw[] = {"searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo",
                                     "depth", "nodes", "mate", "movetime", "infinite", "perft", NULL};
    for (int i = 0; kw[i]; i++)
        if (!strcmp(s, kw[i]))
            return true;
    return false;
}

static void cmd_go(char **tok, int n)
{
    if (n >= 2 && !strcmp(tok[1], "perft")) {
        if (search_running()) {
            uci_send("info string go perft refused while a search is running");
            return;
        }
        cmd_perft(n >= 3 ? tok[2] : NULL);
        return;
    }
    Limits lim;
    limits_init(&lim);
    bool rejected = false;
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        if (!strcmp(k, "infinite")) {
            lim.infinite = true;
        } else if (!strcmp(k, "ponder")) {
            lim.ponder = true;
        } else if (!strcmp(k, "searchmoves")) {
            for (; i + 1 < n && !is_go_keyword(tok[i + 1]); i++) {
                if (!strcmp(tok[i + 1], "0000"))
                    continue;
                Move m = parse_move(&root_pos, tok[i + 1]);
                if (m == MOVE_NONE) {
                    uci_send("info string searchmoves: '%s' is not a legal move; ignored", tok[i + 1]);
                    rejected = true;
                }
                else {
                    bool dup = false; /* a move given twice counts once */
                    for (int j = 0; j < lim.nsearchmoves && !dup; j++)
                        dup = lim.searchmoves[j] == m;
                    if (!dup && lim.nsearchmoves < MAX_MOVES)
                        lim.searchmoves[lim.nsearchmoves++] = m;
                }
            }
        } else if (is_go_keyword(k)) {
            int64_t v;
            if (i + 1 >= n || !parse_int64(tok[i + 1], &v)) {
                uci_send("info string go: '%s' needs a whole number%s%s; ignored", k, i + 1 < n ? ", not " : "",
                         i + 1 < n ? tok[i + 1] : "");
                if (i + 1 < n && !is_go_keyword(tok[i + 1]))
                    i++;
                rejected = true;
                continue;
            }
            i++;
            if (v < 0 && (!strcmp(k, "depth") || !strcmp(k, "nodes") || !strcmp(k, "mate") || !strcmp(k, "movestogo"))) {
                uci_send("info string go: '%s' cannot be negative; ignored", k);
                rejected = true;
                continue;
            }
            if (!strcmp(k, "wtime"))
                lim.time[WHITE] = clamp_clock(v);
            else if (!strcmp(k, "btime"))
                lim.time[BLACK] = clamp_clock(v);
            else if (!strcmp(k, "winc"))
                lim.inc[WHITE] = clamp_clock(v);
            else if (!strcmp(k, "binc"))
                lim.inc[BLACK] = clamp_clock(v);
            else if (!strcmp(k, "movestogo"))
                lim.movestogo = v > 0 && v < 10000 ? (int)v : 0;
            else if (!strcmp(k, "depth"))
                lim.depth = v < 1 ? 1 : v > MAX_PLY - 4 ? MAX_PLY - 4 : (int)v;
            else if (!strcmp(k, "nodes"))
                lim.nodes = v < 1 ? 1 : (uint64_t)v;
            else if (!strcmp(k, "mate"))
                lim.mate = v < 1 ? 1 : v > 100 ? 100 : (int)v;
            else if (!strcmp(k, "movetime"))
                lim.movetime = v < 0 ? 0 : clamp_clock(v);
        } else {
            uci_send("info string go: unknown word '%s'; ignored", k);
            rejected = true;
        }
    }
    /* A bare `go` searches until `stop`; a malformed one must not hang the game. */
    if (rejected && !lim.infinite && !lim.ponder && !lim.depth && !lim.nodes && !lim.mate && lim.movetime < 0 &&
        lim.time[root_pos.side] == NO_TIME) {
        lim.movetime = 1000;
        uci_send("info string go: no usable limit left; searching for 1 second");
    }
    if (search_running())
        search_stop(); /* one bestmove per go: the old search answers first */
    lim.book_move = book_move_for(&root_pos, &lim);
    search_start(&root_pos, &lim);
}

/* ---- The loop ---- */

void uci_init(void)
{
    char err[128];
    pos_set_fen(&root_pos, START_FEN, err, sizeof err);
    tt_resize(16, 1);
    search_init();
    init_options();
}

/* Handles one command line (changed in place); returns false on quit. */
bool uci_command(char *line)
{
    char *raw = strdup(line);
    char **tok;
    int n = tokenize(line, &tok);
    bool go_on = true;
    if (n == 0 || !raw) {
    } else if (!strcmp(tok[0], "uci")) {
        uci_send("id name Hexe %s", HEXE_VERSION);
        uci_send("id author the Hexe developers");
        print_options();
        uci_send("uciok");
    } else if (!strcmp(tok[0], "isready")) {
        uci_send("readyok");
    } else if (!strcmp(tok[0], "debug")) {
        /* accepted; Hexe has no extra debug output */
    } else if (!strcmp(tok[0], "setoption")) {
        cmd_setoption(raw);
    } else if (!strcmp(tok[0], "ucinewgame")) {
        if (search_running())
            uci_send("info string ucinewgame ignored while a search is running; send stop first");
        else
            search_clear();
    } else if (!strcmp(tok[0], "position")) {
        cmd_position(tok, n);
    } else if (!strcmp(tok[0], "go")) {
        cmd_go(tok, n);
    } else if (!strcmp(tok[0], "stop")) {
        if (search_running())
            search_stop();
    } else if (!strcmp(tok[0], "ponderhit")) {
        search_ponderhit();
    } else if (!strcmp(tok[0], "d")) {
        pos_print(&root_pos, stdout);
    } else if (!strcmp(tok[0], "eval")) {
        if (search_running())
            uci_send("info string eval refused while a search is running");
        else
            eval_current->trace(&root_pos, stdout);
    } else if (!strcmp(tok[0], "bench")) {
        if (search_running())
            uci_send("info string bench refused while a search is running");
        else
            bench_run(n > 1 ? atoi(tok[1]) : 0);
    } else if (!strcmp(tok[0], "quit")) {
        go_on = false;
    } else {
        uci_send("info string unknown command '%s'", tok[0]);
    }
    free(tok);
    free(raw);
    return go_on;
}

void uci_loop(FILE *in)
{
    char *line;
    while ((line = read_line(in))) {
        bool go_on = uci_command(line);
        free(line);
        if (!go_on)
            break;
    }
    search_quit();
    book_close(bk.book);
    tt_free();
    pos_free(&root_pos);
}
