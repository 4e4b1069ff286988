/* play.c - console play against Hexe (`hexe play`): a Unicode board with the
 * last move highlighted, moves typed in SAN or coordinates, the end of the
 * game announced, and every game appended to a PGN file. */
#include "play.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "engine.h"
#include "fen.h"
#include "movegen.h"
#include "platform.h"
#include "san.h"

#define DEFAULT_PGN "hexe-games.pgn"

typedef struct {
    int person;         /* the side the person plays */
    int level;          /* Skill Level, 0..20 */
    double seconds;     /* Hexe's time per move */
    const char *pgn;    /* where games are appended */
    const char *fen;    /* start position, NULL for the standard one */
    bool color;         /* ANSI colours (a terminal, and NO_COLOR not set) */
} Settings;

typedef struct {
    Position pos;
    char start_fen[128];
    int start_side, start_fullmove;
    char (*san)[SAN_MAX]; /* every move played, in SAN; san[i] is ply i */
    int nsan, capsan;
    int round;
    const char *result;   /* "1-0", "0-1", "1/2-1/2" or "*" */
    char reason[80];      /* how it ended: the announcement and the PGN comment */
} Game;

typedef enum { GAME_OVER, GAME_QUIT, GAME_INTERRUPTED, GAME_EOF } Outcome;

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* ------------------------------------------------------------------ input */

/* One line from the person, trimmed; false at the end of input or on Ctrl-C. */
static bool read_input(char *buf, size_t size)
{
    if (interrupted || !fgets(buf, (int)size, stdin))
        return false;
    if (!strchr(buf, '\n')) { /* drop the rest of an over-long line */
        int ch;
        while ((ch = getchar()) != EOF && ch != '\n')
            ;
    }
    size_t n = strlen(buf);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        buf[--n] = '\0';
    size_t skip = strspn(buf, " \t");
    memmove(buf, buf + skip, n - skip + 1);
    if (!isatty(STDIN_FILENO)) /* a terminal echoes what was typed; a pipe does not */
        printf("%s\n", buf);
    return true;
}

/* ------------------------------------------------------------ the board */

static const char *const glyph[16] = {
    [WP] = "\u2659", [WN] = "\u2658", [WB] = "\u2657", [WR] = "\u2656", [WQ] = "\u2655", [WK] = "\u2654",
    [BP] = "\u265F", [BN] = "\u265E", [BB] = "\u265D", [BR] = "\u265C", [BQ] = "\u265B", [BK] = "\u265A",
};

#define BG_LIGHT "\033[48;5;223m"
#define BG_DARK "\033[48;5;137m"
#define BG_LIGHT_LAST "\033[48;5;186m"
#define BG_DARK_LAST "\033[48;5;143m"
#define FG_PIECE "\033[38;5;232m"
#define RESET "\033[0m"

/* The squares the last move left and reached (for castling: where the king
 * stood and where it went). */
static void last_move_squares(const Position *pos, int *from, int *to)
{
    *from = *to = NO_SQ;
    if (!pos->hply)
        return;
    Move m = pos->hist[pos->hply - 1].move;
    *from = MOVE_FROM(m);
    *to = MOVE_TO(m);
    if (MOVE_KIND(m) == MK_CASTLE)
        *to = SQ(*to > *from ? 6 : 2, RANK_OF(*from));
}

/* The board from the person's side: Unicode pieces, coordinates, and the
 * last move's squares in colour (or in brackets without colours). */
static void print_board(const Position *pos, const Settings *s)
{
    int lfrom, lto;
    last_move_squares(pos, &lfrom, &lto);
    bool flip = s->person == BLACK;
    const char *files = flip ? "     h  g  f  e  d  c  b  a\n" : "     a  b  c  d  e  f  g  h\n";
    printf("\n%s", files);
    for (int r = 7; r >= 0; r--) {
        int rank = flip ? 7 - r : r;
        printf("  %d ", rank + 1);
        for (int f = 0; f < 8; f++) {
            int file = flip ? 7 - f : f;
            int sq = SQ(file, rank), p = pos->board[sq];
            bool last = sq == lfrom || sq == lto, dark = (file + rank) % 2 == 0;
            const char *g = p ? glyph[p] : NULL;
            if (s->color)
                printf("%s" FG_PIECE " %s ", dark ? (last ? BG_DARK_LAST : BG_DARK) : (last ? BG_LIGHT_LAST : BG_LIGHT),
                       g ? g : " ");
            else
                printf("%c%s%c", last ? '[' : ' ', g ? g : last ? " " : ".", last ? ']' : ' ');
        }
        printf("%s %d\n", s->color ? RESET : "", rank + 1);
    }
    printf("%s\n", files);
}

/* Sort order for the move list: pawns, then pieces in value order, castling last. */
static int move_rank(const Position *pos, Move m)
{
    return MOVE_KIND(m) == MK_CASTLE ? 9 : PTYPE(pos->board[MOVE_FROM(m)]);
}

static char (*sort_san)[SAN_MAX];

static int cmp_listed(const void *a, const void *b)
{
    return strcmp(sort_san[*(const int *)a], sort_san[*(const int *)b]);
}

static void print_legal_moves(const Position *pos)
{
    MoveList l;
    gen_legal(pos, &l);
    static char san[MAX_MOVES][SAN_MAX];
    int order[MAX_MOVES], n = 0;
    for (int group = 1; group <= 9; group++) {
        int first = n;
        for (int i = 0; i < l.count; i++)
            if (move_rank(pos, l.moves[i]) == group) {
                move_to_san(pos, l.moves[i], san[i]);
                order[n++] = i;
            }
        sort_san = san;
        qsort(order + first, (size_t)(n - first), sizeof *order, cmp_listed);
    }
    int col = printf("Legal moves (%d):", l.count);
    for (int k = 0; k < n; k++) {
        const char *m = san[order[k]];
        if (col + 1 + (int)strlen(m) > 78) {
            printf("\n ");
            col = 1;
        }
        col += printf(" %s", m);
    }
    printf("\n");
}

/* ------------------------------------------------------------------ games */

static const char *side_name(int side) { return side == WHITE ? "White" : "Black"; }

/* "12." for White's move at ply i, "12..." for Black's. */
static char *move_number(const Game *g, int ply, char *buf, size_t n)
{
    int idx = ply + (g->start_side == BLACK);
    snprintf(buf, n, "%d.%s", g->start_fullmove + idx / 2, idx % 2 ? ".." : "");
    return buf;
}

static bool game_start(Game *g, const Settings *s, int round)
{
    char err[160];
    if (!pos_set_fen(&g->pos, s->fen ? s->fen : START_FEN, err, sizeof err)) {
        printf("bad FEN: %s\n", err);
        return false;
    }
    pos_get_fen(&g->pos, g->start_fen);
    g->start_side = g->pos.side;
    g->start_fullmove = g->pos.fullmove;
    g->nsan = 0;
    g->round = round;
    g->result = "*";
    g->reason[0] = '\0';
    return true;
}

static void game_play_move(Game *g, Move m)
{
    if (g->nsan == g->capsan) {
        int cap = g->capsan ? 2 * g->capsan : 128;
        char(*t)[SAN_MAX] = realloc(g->san, (size_t)cap * sizeof *t);
        if (!t)
            abort();
        g->san = t;
        g->capsan = cap;
    }
    move_to_san(&g->pos, m, g->san[g->nsan++]);
    make_move(&g->pos, m);
}

/* Whether the game has ended by the rules; sets the result and reason then. */
static bool game_over(Game *g)
{
    const Position *pos = &g->pos;
    MoveList l;
    gen_legal(pos, &l);
    if (!l.count && in_check(pos)) {
        int winner = pos->side ^ 1;
        g->result = winner == WHITE ? "1-0" : "0-1";
        snprintf(g->reason, sizeof g->reason, "%s wins by checkmate", side_name(winner));
    } else if (!l.count) {
        g->result = "1/2-1/2";
        snprintf(g->reason, sizeof g->reason, "Draw by stalemate");
    } else if (insufficient_material(pos)) {
        g->result = "1/2-1/2";
        snprintf(g->reason, sizeof g->reason, "Draw by insufficient material");
    } else if (is_repetition(pos, 2)) {
        g->result = "1/2-1/2";
        snprintf(g->reason, sizeof g->reason, "Draw by threefold repetition");
    } else if (pos->halfmove >= 100) {
        g->result = "1/2-1/2";
        snprintf(g->reason, sizeof g->reason, "Draw by the fifty-move rule");
    } else {
        return false;
    }
    return true;
}

static void announce(const Game *g, const Settings *s)
{
    if (!strcmp(g->result, "1/2-1/2")) {
        printf("%s. The game is drawn (1/2-1/2).\n", g->reason);
        return;
    }
    bool person_won = !strcmp(g->result, s->person == WHITE ? "1-0" : "0-1");
    bool mate = strstr(g->reason, "checkmate") != NULL;
    printf("%s%s (%s). %s\n", mate ? "Checkmate! " : "", g->reason, g->result,
           person_won ? "You win, congratulations!" : "Hexe wins.");
}

/* Appends the game to the PGN file (games without a move are not kept). */
static void save_pgn(const Game *g, const Settings *s)
{
    if (!g->nsan)
        return;
    FILE *f = fopen(s->pgn, "a");
    if (!f) {
        printf("Could not save the game to %s: %s\n", s->pgn, strerror(errno));
        return;
    }
    char date[16] = "????.??.??", engine[32];
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
    const char *user = getenv("USER");
    if (!user || !*user)
        user = "Player";
    snprintf(engine, sizeof engine, "Hexe (level %d)", s->level);
    fprintf(f, "[Event \"Hexe console game\"]\n");
    fprintf(f, "[Site \"Hexe console\"]\n");
    fprintf(f, "[Date \"%s\"]\n", date);
    fprintf(f, "[Round \"%d\"]\n", g->round);
    fprintf(f, "[White \"%s\"]\n", s->person == WHITE ? user : engine);
    fprintf(f, "[Black \"%s\"]\n", s->person == BLACK ? user : engine);
    fprintf(f, "[Result \"%s\"]\n", g->result);
    fprintf(f, "[Level \"%d\"]\n", s->level);
    fprintf(f, "[TimePerMove \"%g\"]\n", s->seconds);
    fprintf(f, "[Termination \"%s\"]\n", strcmp(g->result, "*") ? "normal" : "unterminated");
    if (strcmp(g->start_fen, START_FEN)) {
        fprintf(f, "[SetUp \"1\"]\n");
        fprintf(f, "[FEN \"%s\"]\n", g->start_fen);
    }
    fprintf(f, "\n");
    /* Movetext, wrapped before 80 columns; the comment says how it ended. */
    int col = 0;
    for (int i = 0; i <= g->nsan + 1; i++) {
        char tok[128], num[16];
        if (i < g->nsan) {
            bool number = i == 0 || (i + (g->start_side == BLACK)) % 2 == 0;
            snprintf(tok, sizeof tok, "%s%s%s", number ? move_number(g, i, num, sizeof num) : "", number ? " " : "",
                     g->san[i]);
        } else if (i == g->nsan) {
            snprintf(tok, sizeof tok, "{%s}", g->reason[0] ? g->reason : "Game unfinished");
        } else {
            snprintf(tok, sizeof tok, "%s", g->result);
        }
        int len = (int)strlen(tok);
        if (col && col + 1 + len > 79) {
            fputc('\n', f);
            col = 0;
        }
        col += fprintf(f, "%s%s", col ? " " : "", tok);
    }
    fprintf(f, "\n\n");
    if (fclose(f))
        printf("Could not save the game to %s: %s\n", s->pgn, strerror(errno));
    else
        printf("Game saved to %s\n", s->pgn);
}

/* --------------------------------------------------------------- the engine */

typedef struct {
    const Position *pos;
    Limits lim;
    SearchParams params;
    SearchResult result;
    atomic_bool done;
} Think;

static void *think_thread(void *arg)
{
    Think *t = arg;
    t->result = engine_search(t->pos, &t->lim, &t->params, true);
    atomic_store(&t->done, true);
    return NULL;
}

/* Hexe's move, searched in a second thread so that Ctrl-C can stop it at
 * once; false if the person interrupted. */
static bool think(const Position *pos, const Settings *s, SearchResult *out)
{
    Think t = {.pos = pos, .params = search_params_default()};
    t.params.skill = s->level;
    limits_init(&t.lim);
    t.lim.movetime = (int64_t)(s->seconds * 1000 + 0.5);
    if (t.lim.movetime < 1)
        t.lim.movetime = 1;
    atomic_init(&t.done, false);
    pthread_t th;
#ifdef _WIN32
    int rc = pthread_create(&th, NULL, think_thread, &t); /* Ctrl-C's handler runs in a thread of its own */
#else
    /* The signals go to this thread, not to the searcher. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int rc = pthread_create(&th, NULL, think_thread, &t);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
#endif
    if (rc) {
        think_thread(&t);
    } else {
        while (!atomic_load(&t.done)) {
            if (interrupted)
                engine_stop(); /* again each time: the search may only just have started */
            struct timespec ts = {0, 5 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        pthread_join(th, NULL);
    }
    *out = t.result;
    return !interrupted;
}

static void score_text(int score, char *buf, size_t n)
{
    if (score >= MATE_IN_MAX)
        snprintf(buf, n, "mate in %d", (MATE - score + 1) / 2);
    else if (score <= -MATE_IN_MAX)
        snprintf(buf, n, "mated in %d", (MATE + score) / 2);
    else
        snprintf(buf, n, "%+.2f", score / 100.0);
}

/* -------------------------------------------------------------- the person */

static void print_help(void)
{
    printf("Type a move in SAN (Nf3, exd5, e8=Q, O-O) or in coordinates (g1f3, e7e8q).\n"
           "Commands:\n"
           "  moves    list the legal moves\n"
           "  board    show the board again\n"
           "  undo     take back your last move (and Hexe's reply)\n"
           "  fen      show the position as FEN\n"
           "  resign   give up this game\n"
           "  quit     leave (the unfinished game is saved)\n"
           "  help     this text\n");
}

static bool looks_like_coordinates(const char *s)
{
    size_t n = strlen(s);
    return (n == 4 || n == 5) && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8' && s[2] >= 'a' &&
           s[2] <= 'h' && s[3] >= '1' && s[3] <= '8' && (n == 4 || strchr("nbrqNBRQ", s[4]));
}

/* Reads the person's input until it is a legal move (*m) or ends the turn. */
typedef enum { TURN_MOVE, TURN_UNDO, TURN_RESIGN, TURN_QUIT, TURN_END } Turn;

static Turn person_turn(Game *g, const Settings *s, Move *m)
{
    char line[256];
    for (;;) {
        printf("Your move: ");
        if (!read_input(line, sizeof line))
            return TURN_END;
        if (!*line)
            continue;
        if (!strcasecmp(line, "quit") || !strcasecmp(line, "exit"))
            return TURN_QUIT;
        if (!strcasecmp(line, "resign"))
            return TURN_RESIGN;
        if (!strcasecmp(line, "help") || !strcmp(line, "?")) {
            print_help();
            continue;
        }
        if (!strcasecmp(line, "moves")) {
            print_legal_moves(&g->pos);
            continue;
        }
        if (!strcasecmp(line, "board")) {
            print_board(&g->pos, s);
            continue;
        }
        if (!strcasecmp(line, "fen")) {
            char fen[128];
            printf("%s\n", pos_get_fen(&g->pos, fen));
            continue;
        }
        if (!strcasecmp(line, "undo") || !strcasecmp(line, "takeback")) {
            if (g->nsan >= 2)
                return TURN_UNDO;
            printf("Nothing to take back.\n");
            continue;
        }
        if ((*m = parse_move(&g->pos, line)) != MOVE_NONE)
            return TURN_MOVE;
        MoveList cand;
        switch (san_parse(&g->pos, line, m, &cand)) {
        case SAN_OK:
            return TURN_MOVE;
        case SAN_AMBIGUOUS:
            printf("ambiguous: %s could be", line);
            for (int i = 0; i < cand.count; i++) {
                char san[SAN_MAX];
                printf("%s %s", i ? (i + 1 == cand.count ? " or" : ",") : "", move_to_san(&g->pos, cand.moves[i], san));
            }
            printf("\n");
            break;
        case SAN_ILLEGAL:
            printf("illegal move: %s (type moves for the legal ones)\n", line);
            break;
        case SAN_SYNTAX:
            if (looks_like_coordinates(line))
                printf("illegal move: %s (type moves for the legal ones)\n", line);
            else
                printf("not a move or a command: %s (type help)\n", line);
            break;
        }
    }
}

/* Plays one game to its end, or until the person leaves. */
static Outcome play_game(Game *g, const Settings *s)
{
    bool show = true;
    for (;;) {
        if (game_over(g)) {
            print_board(&g->pos, s);
            announce(g, s);
            return GAME_OVER;
        }
        if (g->nsan && in_check(&g->pos))
            printf("Check!\n");
        char num[16];
        if (g->pos.side == s->person) {
            if (show) {
                print_board(&g->pos, s);
                print_legal_moves(&g->pos);
            }
            Move m;
            switch (person_turn(g, s, &m)) {
            case TURN_MOVE:
                move_number(g, g->nsan, num, sizeof num);
                game_play_move(g, m);
                printf("You play %s %s\n", num, g->san[g->nsan - 1]);
                show = false;
                break;
            case TURN_UNDO:
                for (int i = 0; i < 2; i++) {
                    unmake_move(&g->pos);
                    g->nsan--;
                }
                printf("Took back %s %s", move_number(g, g->nsan, num, sizeof num), g->san[g->nsan]);
                printf(" and %s %s\n", move_number(g, g->nsan + 1, num, sizeof num), g->san[g->nsan + 1]);
                show = true;
                break;
            case TURN_RESIGN:
                g->result = s->person == WHITE ? "0-1" : "1-0";
                snprintf(g->reason, sizeof g->reason, "%s resigns", side_name(s->person));
                printf("You resign: %s (%s). Hexe wins.\n", g->reason, g->result);
                return GAME_OVER;
            case TURN_QUIT:
                return GAME_QUIT;
            case TURN_END:
                return interrupted ? GAME_INTERRUPTED : GAME_EOF;
            }
        } else {
            printf("Hexe is thinking...\n");
            SearchResult r;
            if (!think(&g->pos, s, &r))
                return GAME_INTERRUPTED;
            if (r.best == MOVE_NONE) { /* cannot happen: game_over saw a legal move */
                printf("Hexe found no move.\n");
                return GAME_QUIT;
            }
            char sc[32];
            score_text(r.score, sc, sizeof sc);
            move_number(g, g->nsan, num, sizeof num);
            game_play_move(g, r.best);
            printf("Hexe plays %s %s  (score %s, depth %d)\n", num, g->san[g->nsan - 1], sc, r.depth);
            show = true;
        }
    }
}

/* ---------------------------------------------------------------- options */

static const char usage[] =
    "usage: hexe play [--white|--black] [--level N] [--time S] [--pgn FILE] [--fen FEN]\n"
    "  --white      you play White (the default)\n"
    "  --black      you play Black\n"
    "  --level N    Hexe's strength, 0 (weakest) to 20 (full strength, the default)\n"
    "  --time S     Hexe's thinking time per move in seconds (default 2)\n"
    "  --pgn FILE   append the games to FILE (default " DEFAULT_PGN ")\n"
    "  --fen FEN    start from this position instead of the usual one\n"
    "  --help       this text\n"
    "Moves are typed in SAN (Nf3, exd5, O-O) or coordinates (g1f3); type help in a game.\n";

/* The settings from the command line; -1 to play, else the exit code. */
static int parse_options(int argc, char **argv, Settings *s)
{
    bool white = false, black = false;
    const ArgSpec specs[] = {
        ARG_SPEC_FLAG("--white", &white),
        ARG_SPEC_FLAG("--black", &black),
        ARG_SPEC_INT("--level", &s->level, 0, 20),
        ARG_SPEC_DOUBLE("--time", &s->seconds, 0.001, 86400),
        ARG_SPEC_STRING("--pgn", &s->pgn),
        ARG_SPEC_STRING("--fen", &s->fen),
    };
    ArgsResult r = args_parse("play", argc, argv, specs, ARG_SPECS(specs));
    if (r == ARGS_OK && white && black)
        r = args_error("play", "--white and --black do not go together");
    if (r == ARGS_OK && !*s->pgn)
        r = args_error("play", "--pgn needs a file name");
    if (r == ARGS_OK && s->fen) {
        Position p = {0};
        char err[160];
        if (!pos_set_fen(&p, s->fen, err, sizeof err))
            r = args_error("play", "bad FEN '%s': %s", s->fen, err);
        pos_free(&p);
    }
    if (r != ARGS_OK)
        return args_finish(r, usage);
    s->person = black ? BLACK : WHITE;
    return -1;
}

/* ------------------------------------------------------------------- main */

int play_main(int argc, char **argv)
{
    Settings s = {.person = WHITE, .level = 20, .seconds = 2, .pgn = DEFAULT_PGN};
    int rc = parse_options(argc, argv, &s);
    if (rc >= 0)
        return rc;
    const char *no_color = getenv("NO_COLOR");
    s.color = isatty(STDOUT_FILENO) && !(no_color && *no_color);
    setvbuf(stdout, NULL, _IONBF, 0);
    platform_console_init();

#ifdef _WIN32
    void (*old_int)(int) = signal(SIGINT, on_signal);
    void (*old_term)(int) = signal(SIGTERM, on_signal);
#else
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: Ctrl-C ends a waiting fgets */
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
#endif

    printf("Hexe %s: you play %s, Hexe plays %s at level %d with %g s a move.\n"
           "Type moves like Nf3 or g1f3; type help for the commands.\n",
           HEXE_VERSION, side_name(s.person), side_name(s.person ^ 1), s.level, s.seconds);

    Game g;
    memset(&g, 0, sizeof g);
    for (int round = 1;; round++) {
        if (!game_start(&g, &s, round))
            break;
        engine_clear();
        Outcome o = play_game(&g, &s);
        if (o != GAME_OVER) {
            g.result = "*";
            snprintf(g.reason, sizeof g.reason, "%s",
                     o == GAME_INTERRUPTED ? "Game interrupted" : o == GAME_QUIT ? "Game left unfinished"
                                                                                 : "Input ended");
            if (o == GAME_INTERRUPTED)
                printf("\n");
            save_pgn(&g, &s);
            break;
        }
        save_pgn(&g, &s);
        printf("Press 1 then Enter for a new game, anything else to quit: ");
        char line[64];
        if (!read_input(line, sizeof line)) {
            printf("\n");
            break;
        }
        if (strcmp(line, "1"))
            break;
        printf("\nNew game %d.\n", round + 1);
    }
    if (s.color)
        printf(RESET);
    printf("Goodbye!\n");
    fflush(stdout);
    pos_free(&g.pos);
    free(g.san);
#ifdef _WIN32
    signal(SIGINT, old_int);
    signal(SIGTERM, old_term);
#else
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
#endif
    return 0;
}
