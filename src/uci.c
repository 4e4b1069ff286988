/* uci.c - the UCI front end: reads commands, keeps the game position and the
 * options, starts and stops the search thread. It never searches itself. */
#include "uci.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench.h"
#include "book.h"
#include "engine.h"
#include "eval.h"
#include "eval/nnue.h"
#include "fen.h"
#include "movegen.h"
#include "output.h"
#include "search.h"
#include "syzygy/probe.h"
#include "syzygy/setup.h"
#include "tt.h"
#include "tunables.h"

static Position root_pos;
/* The options: those the search takes at every go, and the front end's own. */
static SearchParams params;
static Network *loaded_net; /* EvalFile's network while one is loaded (params.eval.net) */
static EvalContext *trace_ctx; /* the `eval` command's evaluator caches */
static BookPolicy book_policy;
static bool ponder_option, analyse_mode, chess960;

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
    if (len > 0 && s[len - 1] == '\r') /* a CRLF line end (Windows GUIs) */
        len--;
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
    if (!tt_resize((size_t)atoll(v), params.threads)) {
        snprintf(msg, n, "not enough memory for %s MB of hash; keeping %zu MB", v, tt_size_mb());
        return false;
    }
    return true;
}
static bool set_threads(const char *v, char *msg, size_t n)
{
    (void)msg, (void)n;
    engine_set_threads(atoi(v));
    return true;
}
static bool clear_hash(const char *v, char *msg, size_t n)
{
    (void)v, (void)msg, (void)n;
    engine_clear();
    return true;
}
static bool set_chess960(const char *v, char *m, size_t n)
{
    (void)v, (void)m, (void)n;
    root_pos.chess960 = chess960;
    return true;
}
/* The opening book: the file is the engine's (book.c), the policy an option set. */
static bool set_own_book(const char *v, char *m, size_t n)
{
    (void)v;
    if (book_policy.own && !book_in_use())
        snprintf(m, n, "OwnBook is on but no book is open: set BookFile");
    return true;
}
static bool set_book_selection(const char *v, char *m, size_t n)
{
    (void)m, (void)n;
    book_policy.selection = book_selection_parse(v);
    return book_policy.selection >= 0;
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
    if (params.tb.probe_limit > tb_max_pieces())
        snprintf(m, n, "SyzygyProbeLimit %d: the largest tables found have %d pieces", params.tb.probe_limit,
                 tb_max_pieces());
    return true;
}

/* The TT and the search threads keep static evaluations: a different
 * evaluator or weight makes them wrong, so they go. */
static bool eval_changed(const char *v, char *msg, size_t n)
{
    (void)v, (void)msg, (void)n;
    engine_forget_evals();
    return true;
}

/* EvalFile: the nnue evaluator's network; a file that cannot be used leaves
 * the network in use as it was. */
static bool set_eval_file(const char *v, char *msg, size_t n)
{
    const Network *net = nnue_embedded(), *before = params.eval.net;
    Network *next = NULL;
    char err[256];
    if (strcmp(v, "") && strcmp(v, "<internal>") && !(next = nnue_load(v, err, sizeof err))) {
        snprintf(msg, n, "EvalFile not loaded: %s; the network stays %s", err, before ? before->name : "none");
        return false;
    }
    if (next)
        net = next;
    else if (!net) {
        snprintf(msg, n, "EvalFile not loaded: this build has no usable embedded network; the network stays %s",
                 before ? before->name : "none");
        return false;
    }
    params.eval.net = net;
    nnue_unload(loaded_net); /* no search runs: nothing evaluates with it */
    loaded_net = next;
    snprintf(msg, n, "EvalFile %s: %d hidden units, %d output bucket%s%s", net->name, net->hidden, net->buckets,
             net->buckets > 1 ? "s" : "", net->mirrored ? ", mirrored inputs" : "");
    return eval_changed(v, msg, n);
}

static bool set_eval(const char *v, char *msg, size_t n)
{
    if (!eval_choose(&params.eval, v)) {
        snprintf(msg, n, "no usable evaluator named '%s'", v);
        return false;
    }
    return eval_changed(v, msg, n);
}

/* A tuning build's search parameter: the LMR table is made from two of them. */
static bool tunable_changed(const char *v, char *msg, size_t n)
{
    (void)v, (void)msg, (void)n;
    search_init_tables();
    return true;
}

#define MAX_OPTIONS 96
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
    params = search_params_default();
    book_policy = book_policy_default();
    book_policy.own = book_in_use(); /* the default book opened at start-up */
    SearchParams *so = &params;
    char hash_mb[24];
    snprintf(hash_mb, sizeof hash_mb, "%zu", tt_size_mb());
    add_option("Hash", OPT_SPIN, hash_mb, 1, 65536, set_hash);
    add_option("Clear Hash", OPT_BUTTON, "", 0, 0, clear_hash);
    add_int("Threads", &so->threads, 1, 256);
    options[noptions - 1].apply = set_threads;
    add_bool("Ponder", &ponder_option, NULL);
    add_int("MultiPV", &so->multipv, 1, 256);
    add_int("Move Overhead", &so->move_overhead, 0, 5000);
    add_bool("UCI_Chess960", &chess960, set_chess960);
    add_bool("UCI_AnalyseMode", &analyse_mode, NULL);
    add_bool("UCI_ShowWDL", &so->show_wdl, NULL);
    add_int("Skill Level", &so->skill, 0, 20);
    add_bool("UCI_LimitStrength", &so->limit_strength, NULL);
    add_int("UCI_Elo", &so->elo, 1000, 3000);

    add_bool("OwnBook", &book_policy.own, set_own_book);
    add_option("BookFile", OPT_STRING, book_in_use() ? BOOK_DEFAULT_NAME : "", 0, 0, book_use);
    add_int("BookDepth", &book_policy.depth, 1, 255);
    Option *sel = add_option("BookSelection", OPT_COMBO, "weighted", 0, 0, set_book_selection);
    sel->vars[0] = "best", sel->vars[1] = "weighted", sel->vars[2] = "uniform";
    add_int("BookMinWeight", &book_policy.min_weight, 0, 65535);

    add_option("SyzygyPath", OPT_STRING, "", 0, 0, set_syzygy_path);
    add_int("SyzygyProbeDepth", &so->tb.probe_depth, 1, 100);
    add_bool("Syzygy50MoveRule", &so->tb.rule50, NULL);
    add_int("SyzygyProbeLimit", &so->tb.probe_limit, 0, 7);
    options[noptions - 1].apply = set_syzygy_limit;

    Option *ev = add_option("Evaluation", OPT_COMBO, params.eval.evaluator->name, 0, 0, set_eval);
    for (int i = 0; i < eval_count() && i < 15; i++)
        ev->vars[i] = eval_get(i)->name;
    add_option("EvalFile", OPT_STRING, "<internal>", 0, 0, set_eval_file);
    for (int i = 0; i < eval_param_count(); i++) {
        EvalParam *p = eval_param(i);
        add_int(p->name, p->value, p->min, p->max);
        options[noptions - 1].apply = eval_changed;
    }
    for (int i = 0; i < tunable_count(); i++) { /* none in a release build */
        Tunable *p = tunable(i);
        add_int(p->name, p->value, p->min, p->max);
        options[noptions - 1].apply = tunable_changed;
    }
}

static void print_options(void)
{
    for (int i = 0; i < noptions; i++) {
        Option *o = &options[i];
        switch (o->type) {
        case OPT_SPIN:
            send_line("option name %s type spin default %s min %lld max %lld", o->name, o->def, (long long)o->min,
                     (long long)o->max);
            break;
        case OPT_CHECK:
            send_line("option name %s type check default %s", o->name, o->def);
            break;
        case OPT_STRING:
            send_line("option name %s type string default %s", o->name, o->def[0] ? o->def : "<empty>");
            break;
        case OPT_BUTTON:
            send_line("option name %s type button", o->name);
            break;
        case OPT_COMBO: {
            char line[512];
            int n = snprintf(line, sizeof line, "option name %s type combo default %s", o->name, o->def);
            for (int k = 0; o->vars[k] && n < (int)sizeof line - 40; k++)
                n += snprintf(line + n, sizeof line - (size_t)n, " var %s", o->vars[k]);
            send_line("%s", line);
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
        send_line("info string setoption needs 'name <option>'");
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
        send_line("info string no option named '%s'", name);
        return;
    }
    if (engine_running()) {
        send_line("info string option '%s' not changed while a search is running; send it again after bestmove",
                 o->name);
        return;
    }
    char msg[4096] = "";
    switch (o->type) {
    case OPT_SPIN: {
        int64_t x;
        if (!parse_int64(value, &x)) {
            send_line("info string option '%s' needs a whole number, not '%s'; unchanged", o->name, value);
            return;
        }
        if (x < o->min || x > o->max) {
            send_line("info string option '%s' must be between %lld and %lld, not %s; unchanged", o->name,
                     (long long)o->min, (long long)o->max, value);
            return;
        }
        snprintf(value, sizeof value, "%lld", (long long)x);
        break;
    }
    case OPT_CHECK:
        if (strcasecmp(value, "true") && strcasecmp(value, "false")) {
            send_line("info string option '%s' needs true or false, not '%s'; unchanged", o->name, value);
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
            send_line("info string option '%s' has no choice '%s'; unchanged", o->name, value);
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
        send_line("info string %s", msg[0] ? msg : "option refused");
        return;
    }
    if (msg[0])
        send_line("info string %s", msg);
}

/* ---- position ---- */

static void cmd_position(char **tok, int n)
{
    int i = 1;
    char err[160];
    Position tmp = {0};
    tmp.chess960 = chess960;
    if (i < n && !strcmp(tok[i], "startpos")) {
        pos_set_fen(&tmp, START_FEN, err, sizeof err);
        i++;
    } else if (i < n && !strcmp(tok[i], "fen")) {
        char fen[256] = "";
        size_t len = 0;
        for (i++; i < n && strcmp(tok[i], "moves"); i++) {
            size_t tl = strlen(tok[i]);
            if (len + tl + 2 >= sizeof fen) {
                send_line("info string invalid FEN: too long; position unchanged");
                return;
            }
            if (len)
                fen[len++] = ' ';
            memcpy(fen + len, tok[i], tl + 1);
            len += tl;
        }
        if (!pos_set_fen(&tmp, fen, err, sizeof err)) {
            send_line("info string invalid FEN '%s': %s; position unchanged", fen, err);
            return;
        }
    } else {
        send_line("info string position needs 'startpos' or 'fen <FEN>'; position unchanged");
        return;
    }
    if (i < n && !strcmp(tok[i], "moves")) {
        if (!pos_reserve(&tmp, n - i + MAX_PLY)) {
            send_line("info string out of memory; position unchanged");
            pos_free(&tmp);
            return;
        }
        for (i++; i < n; i++) {
            Move m = parse_move(&tmp, tok[i]);
            if (m == MOVE_NONE) {
                char fen[128];
                send_line("info string illegal move '%s' in the move list; position unchanged (still %s)", tok[i],
                         pos_get_fen(&root_pos, fen));
                pos_free(&tmp);
                return;
            }
            make_move(&tmp, m);
        }
    } else if (i < n) {
        send_line("info string unexpected '%s' after the position; ignored", tok[i]);
    }
    pos_copy(&root_pos, &tmp);
    pos_free(&tmp);
}

/* ---- go ---- */

static void cmd_perft(const char *arg)
{
    int64_t depth;
    if (!arg || !parse_int64(arg, &depth) || depth < 1 || depth > 20) {
        send_line("info string go perft needs a depth from 1 to 20");
        return;
    }
    engine_perft(&root_pos, (int)depth); /* on the search thread: isready, stop and quit answered */
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
        if (engine_running()) {
            send_line("info string go perft refused while a search is running");
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
                    send_line("info string searchmoves: '%s' is not a legal move; ignored", tok[i + 1]);
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
                send_line("info string go: '%s' needs a whole number%s%s; ignored", k, i + 1 < n ? ", not " : "",
                         i + 1 < n ? tok[i + 1] : "");
                if (i + 1 < n && !is_go_keyword(tok[i + 1]))
                    i++;
                rejected = true;
                continue;
            }
            i++;
            if (v < 0 && (!strcmp(k, "depth") || !strcmp(k, "nodes") || !strcmp(k, "mate") || !strcmp(k, "movestogo"))) {
                send_line("info string go: '%s' cannot be negative; ignored", k);
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
            send_line("info string go: unknown word '%s'; ignored", k);
            rejected = true;
        }
    }
    /* A bare `go` searches until `stop`; a malformed one must not hang the game. */
    if (rejected && !lim.infinite && !lim.ponder && !lim.depth && !lim.nodes && !lim.mate && lim.movetime < 0 &&
        lim.time[root_pos.side] == NO_TIME) {
        lim.movetime = 1000;
        send_line("info string go: no usable limit left; searching for 1 second");
    }
    if (engine_running())
        engine_stop(); /* one bestmove per go: the old search answers first */
    /* Book moves in play only, not in analysis or an infinite search. */
    if (!lim.infinite && !analyse_mode) {
        char msg[256];
        lim.book_move = book_move_for(&root_pos, &book_policy, lim.searchmoves, lim.nsearchmoves, msg, sizeof msg);
        if (msg[0])
            send_line("info string %s", msg);
    }
    engine_go(&root_pos, &lim, &params);
}

/* ---- The loop ---- */

void uci_init(void)
{
    char err[128];
    pos_set_fen(&root_pos, START_FEN, err, sizeof err);
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
        send_line("id name Hexe %s", HEXE_VERSION);
        send_line("id author the Hexe developers");
        print_options();
        send_line("uciok");
    } else if (!strcmp(tok[0], "isready")) {
        send_line("readyok");
    } else if (!strcmp(tok[0], "debug")) {
        /* accepted; Hexe has no extra debug output */
    } else if (!strcmp(tok[0], "setoption")) {
        cmd_setoption(raw);
    } else if (!strcmp(tok[0], "ucinewgame")) {
        if (engine_running())
            send_line("info string ucinewgame ignored while a search is running; send stop first");
        else
            engine_clear();
    } else if (!strcmp(tok[0], "position")) {
        cmd_position(tok, n);
    } else if (!strcmp(tok[0], "go")) {
        cmd_go(tok, n);
    } else if (!strcmp(tok[0], "stop")) {
        if (engine_running())
            engine_stop();
    } else if (!strcmp(tok[0], "ponderhit")) {
        engine_ponderhit();
    } else if (!strcmp(tok[0], "d")) {
        pos_print(&root_pos, stdout);
    } else if (!strcmp(tok[0], "eval")) {
        if (engine_running())
            send_line("info string eval refused while a search is running");
        else if (trace_ctx || (trace_ctx = eval_context_new())) {
            eval_context_use(trace_ctx, &params.eval);
            params.eval.evaluator->trace(trace_ctx, &root_pos, stdout);
        } else
            send_line("info string eval: out of memory");
    } else if (!strcmp(tok[0], "bench")) {
        if (engine_running())
            send_line("info string bench refused while a search is running");
        else
            bench_run(n > 1 ? atoi(tok[1]) : 0, params.threads, &params.eval);
    } else if (!strcmp(tok[0], "quit")) {
        go_on = false;
    } else {
        send_line("info string unknown command '%s'", tok[0]);
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
    engine_stop(); /* the search's resources are main()'s to free */
    pos_free(&root_pos);
    eval_context_free(trace_ctx);
    trace_ctx = NULL;
}
