/* syzygy/setup.c - Syzygy tablebases through Fathom: setting the path up
 * (each file checked by filecheck.c, every table set up before the search
 * threads probe) and the default folder. The probes are in probe.c. Fathom
 * itself is linked (-lfathom), or compiled from Debian's source of it in the
 * portable builds (Makefile: FATHOM_SRC). */
#define _POSIX_C_SOURCE 200809L /* strdup, readlink, opendir under -std=c17 */
#include "setup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <sys/wait.h>
#endif
#include <time.h>
#include <unistd.h>

#include <tbprobe.h>

#include "../fen.h"
#include "../files.h"
#include "../movegen.h"
#include "../platform.h"
#include "filecheck.h"
#include "md5.h"
#include "probe.h"

/* ---- Messages ---- */

typedef struct {
    char *buf;
    size_t size, len;
} Msg;

static void msg_add(Msg *m, const char *fmt, ...)
{
    if (!m->buf || m->size == 0 || m->len + 1 >= m->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(m->buf + m->len, m->size - m->len, fmt, ap);
    va_end(ap);
    if (k > 0)
        m->len = m->len + (size_t)k < m->size ? m->len + (size_t)k : m->size - 1;
}

/* ---- Private folders of links ----
 * Fathom opens tables by name along its path and cannot be told to skip a
 * file. When some file was refused, Fathom gets a folder of links to the
 * good files only (made under $TMPDIR or /tmp, removed when the path changes
 * and at exit); a table is probed in a child process from such a folder too.
 * Windows has neither links (without privileges) nor fork(): there Fathom
 * gets only the folders that hold no refused file, and a file with no
 * published checksum is used without a test probe; the set-up message says
 * both. */

#ifndef _WIN32
static char links_dir[PATH_MAX]; /* the folder Fathom uses now, or "" */

static void remove_links_at_exit(void) { remove_links_dir(links_dir); }
#endif
#define LEFT_OUT "; a folder holding a refused file is left out whole (Windows: no links to set single files aside)"

/* ---- Every table set up before the search threads probe ---- */

/* Fathom sets a table up (maps the file, reads its header) on the first
 * probe of its material. Debian's build has no locks (the library makes no
 * pthread call at all), so two search threads meeting a fresh table at once
 * race there: a crash seen with Threads 2. Every WDL table is therefore
 * probed once by tb_set_path(), while no search runs, in a position of its
 * material with no capture to make (a capture could answer the probe
 * without the table). DTZ tables are probed only at the root, before the
 * helper threads start. */
static int tables_set_up;

static bool quiet_position(const char *name, uint64_t *seed, Position *pos)
{
    for (int attempt = 0; attempt < 1000; attempt++) {
        if (!pos_set_random(pos, name, WHITE, seed))
            continue; /* a side not to move in check, kings side by side */
        MoveList l;
        gen_noisy(pos, &l);
        bool capture = false;
        for (int i = 0; i < l.count; i++)
            if (MOVE_KIND(l.moves[i]) == MK_EP || pos->board[MOVE_TO(l.moves[i])] != EMPTY)
                capture = true;
        if (!capture)
            return true;
    }
    return false;
}

/* The seed of a table's set-up position: from its name, so that the test
 * probe in a child process (probe_in_child) makes the same first probe. */
static uint64_t set_up_seed(const char *name)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (; *name && *name != '.'; name++)
        h = (h ^ (unsigned char)*name) * 0x100000001B3ULL;
    return h;
}

static int set_up_tables(const NameSet *s)
{
    int count = 0;
    Position pos = {0};
    for (int i = 0; i < s->count; i++) {
        size_t len = strlen(s->names[i]);
        if (!s->good[i] || s->names[i][len - 1] != 'w')
            continue;
        uint64_t seed = set_up_seed(s->names[i]);
        if (quiet_position(s->names[i], &seed, &pos) && tb_probe_wdl_pos(&pos) >= 0)
            count++;
    }
    pos_free(&pos);
    return count;
}

int tb_tables_set_up(void) { return tables_set_up; }

/* tb_init() with stderr silenced: re-initialising makes Fathom print a
 * misleading "munmap: ..." line for every table it unmaps, and the files it
 * skips are reported by tb_set_path() itself. Only called with no search
 * running, so no other thread writes to stderr meanwhile. Debug and
 * sanitizer builds keep stderr. */
static void fathom_init(const char *paths)
{
#ifdef HEXE_DEBUG
    tb_init(paths); /* keep stderr: sanitizer reports go there */
#else
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int null = open(NULL_DEVICE, O_WRONLY);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    tb_init(paths);
    fflush(stderr);
    if (saved >= 0 && null >= 0)
        dup2(saved, STDERR_FILENO);
    if (saved >= 0)
        close(saved);
    if (null >= 0)
        close(null);
#endif
}

/* Probes the table of one material (its WDL file, and its DTZ file when
 * dtz >= 0: indexes into s) in a child process: Fathom set up on a folder
 * holding just these files, WDL probes of random positions of the material
 * with either side to move, and DTZ root probes. NULL when the child ends
 * well, else why not (it died of a signal, failed, or hung). */
#ifndef _WIN32
#define CHILD_PROBES 64
#define CHILD_SECONDS 30
static const char *probe_in_child(const NameSet *s, int wdl, int dtz, char *why, size_t n)
{
    char dir[PATH_MAX];
    if (!make_links_dir(dir, sizeof dir)) {
        snprintf(why, n, "no test probe possible (cannot make a folder in /tmp: %s)", strerror(errno));
        return why;
    }
    if (!add_link(dir, s->names[wdl], s->paths[wdl]) || (dtz >= 0 && !add_link(dir, s->names[dtz], s->paths[dtz]))) {
        snprintf(why, n, "no test probe possible (%s)", strerror(errno));
        remove_links_dir(dir);
        return why;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        /* The child: quiet, bounded in time, never back into the caller. */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        alarm(CHILD_SECONDS);
        tb_init(dir);
        tb_set_max_pieces((int)TB_LARGEST);
        uint64_t seed = set_up_seed(s->names[wdl]);
        Position pos = {0};
        if (quiet_position(s->names[wdl], &seed, &pos)) /* the probe tb_set_path makes next */
            tb_probe_wdl_pos(&pos);
        for (int i = 0; i < CHILD_PROBES; i++) {
            if (!pos_set_random(&pos, s->names[wdl], i & 1 ? BLACK : WHITE, &seed))
                continue;
            tb_probe_wdl_pos(&pos);
            if (dtz >= 0 && i < CHILD_PROBES / 4) {
                TbRootResult r;
                tb_probe_root_moves(&pos, true, &r);
            }
        }
        _exit(0);
    }
    const char *res = NULL;
    if (pid < 0) {
        snprintf(why, n, "no test probe possible (fork: %s)", strerror(errno));
        res = why;
    } else {
        int status = 0;
        struct timespec step = {0, 2000000};
        long waited_ms = 0;
        pid_t w;
        while ((w = waitpid(pid, &status, WNOHANG)) == 0 && waited_ms < CHILD_SECONDS * 1000L) {
            nanosleep(&step, NULL);
            waited_ms += 2;
        }
        if (w == 0) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            snprintf(why, n, "damaged: a test probe did not end in %d s", CHILD_SECONDS);
            res = why;
        } else if (w < 0) {
            snprintf(why, n, "no test probe possible (waitpid: %s)", strerror(errno));
            res = why;
        } else if (WIFSIGNALED(status)) {
            snprintf(why, n, "damaged: a test probe died of signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
            res = why;
        } else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
            snprintf(why, n, "damaged: a test probe failed (exit %d)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            res = why;
        }
    }
    remove_links_dir(dir);
    return res;
}

/* The files in s with no published checksum, probed per material in a child
 * process; a failure marks the material's files bad and is reported. */
static void probe_unlisted(NameSet *s, Msg *warn, int *nbad, int *nwdl, int *ndtz)
{
    for (int i = 0; i < s->count; i++) {
        if (!s->good[i] || !s->unlisted[i])
            continue;
        char name[32];
        snprintf(name, sizeof name, "%s", s->names[i]);
        size_t len = strlen(name);
        name[len - 1] = 'w';
        int w = nameset_find(s, name);
        name[len - 1] = 'z';
        int z = nameset_find(s, name);
        if (w < 0 || !s->good[w]) {
            s->unlisted[i] = false; /* a DTZ file without its WDL file: Fathom never opens it */
            continue;
        }
        if (z >= 0 && !s->good[z])
            z = -1;
        char why[160];
        const char *bad = probe_in_child(s, w, z, why, sizeof why);
        int files[2] = {w, z};
        for (int k = 0; k < 2; k++) {
            int f = files[k];
            if (f < 0)
                continue;
            s->unlisted[f] = false;
            struct stat st;
            if (!bad) {
                if (stat(s->paths[f], &st) == 0)
                    remember_verdict(s->paths[f], &st, true);
                continue;
            }
            s->good[f] = false;
            if (stat(s->paths[f], &st) == 0 && !strncmp(bad, "damaged", 7))
                remember_verdict(s->paths[f], &st, false);
            if (s->names[f][strlen(s->names[f]) - 1] == 'z')
                (*ndtz)--;
            else
                (*nwdl)--;
            if ((*nbad)++ < 8)
                msg_add(warn, "; bad file %s: %s; not used", s->paths[f], bad);
        }
    }
}
#else
/* No fork() on Windows: the files with no published checksum (the 6- and
 * 7-piece tables) are used without a test probe, and the message says so. */
static void probe_unlisted(NameSet *s, Msg *warn, int *nbad, int *nwdl, int *ndtz)
{
    (void)nbad, (void)nwdl, (void)ndtz;
    int untested = 0;
    for (int i = 0; i < s->count; i++)
        if (s->good[i] && s->unlisted[i]) {
            s->unlisted[i] = false;
            untested++;
        }
    if (untested)
        msg_add(warn, "; %d file%s with no published checksum used untested (the Windows build has no test probe)",
                untested, untested == 1 ? "" : "s");
}
#endif

/* ---- Setting the path up, step by step ---- */

/* What the folders of a path hold, as tb_set_path() finds them. */
typedef struct {
    NameSet seen;   /* every table file by name: the first good copy wins */
    int nwdl, ndtz; /* good files */
    int nbad, maxp, ndirs;
    char *clean;    /* the readable folders, PATH_LIST_SEP-separated, for Fathom */
    char *kept;     /* those of them that hold no refused file (Windows) */
    Msg warn;       /* "; ..." warnings */
} Scan;

/* One table file of a folder: checked, and kept in the scan unless a good
 * copy was found in an earlier folder. */
static void scan_file(Scan *sc, const char *dir, const char *name, int pieces, bool dtz)
{
    int earlier = nameset_find(&sc->seen, name);
    if (earlier >= 0 && sc->seen.good[earlier])
        return; /* shadowed by the good copy in an earlier directory */
    char path[PATH_MAX], why[160];
    snprintf(path, sizeof path, "%s" DIR_SEP "%s", dir, name);
    bool unlisted;
    const char *bad = check_table_file(path, name, dtz, &unlisted, why, sizeof why);
    if (unlisted) {
        struct stat fst;
        int verdict = stat(path, &fst) == 0 ? known_verdict(path, &fst) : -1;
        if (verdict >= 0) { /* probed before */
            unlisted = false;
            if (!verdict)
                bad = "damaged: a test probe failed earlier";
        }
    }
    if (earlier >= 0 && !bad) { /* a good copy after a bad one: this one is used */
        char *p = strdup(path);
        if (p) {
            free(sc->seen.paths[earlier]);
            sc->seen.paths[earlier] = p;
            sc->seen.good[earlier] = true;
            sc->seen.unlisted[earlier] = unlisted;
        }
    } else if (earlier < 0) {
        nameset_add(&sc->seen, name, path, !bad, unlisted);
    }
    if (bad) {
        if (sc->nbad++ < 8)
            msg_add(&sc->warn, "; bad file %s: %s; not used", path, bad);
        return;
    }
    if (dtz)
        sc->ndtz++;
    else
        sc->nwdl++;
    if (pieces > sc->maxp)
        sc->maxp = pieces;
}

/* One folder of the path: it must be a readable directory; each of its
 * table files is scanned. */
static void scan_dir(Scan *sc, const char *dir)
{
    sc->ndirs++;
    struct stat st;
    if (stat(dir, &st) != 0) {
        msg_add(&sc->warn, "; directory '%s' %s", dir, errno == ENOENT ? "does not exist" : strerror(errno));
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        msg_add(&sc->warn, "; '%s' is not a directory", dir);
        return;
    }
    DIR *d = opendir(dir);
    if (!d) {
        msg_add(&sc->warn, "; directory '%s' is not readable (%s)", dir, strerror(errno));
        return;
    }
    const char sep[2] = {PATH_LIST_SEP, '\0'};
    if (*sc->clean)
        strcat(sc->clean, sep);
    strcat(sc->clean, dir);
    int here = 0, refused = sc->nbad;
    for (struct dirent *e; (e = readdir(d));) {
        bool dtz;
        int pieces = table_name_pieces(e->d_name, &dtz);
        if (!pieces || strlen(e->d_name) >= 32)
            continue;
        here++;
        scan_file(sc, dir, e->d_name, pieces, dtz);
    }
    closedir(d);
    if (!here)
        msg_add(&sc->warn, "; '%s' holds no .rtbw/.rtbz files", dir);
    if (sc->nbad == refused) {
        if (*sc->kept)
            strcat(sc->kept, sep);
        strcat(sc->kept, dir);
    }
}

/* Good WDL files whose DTZ partner is missing or bad. */
static int wdl_without_dtz(const NameSet *seen)
{
    int n = 0;
    for (int i = 0; i < seen->count; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s", seen->names[i]);
        size_t len = strlen(name);
        if (!seen->good[i] || name[len - 1] != 'w')
            continue;
        name[len - 1] = 'z';
        int j = nameset_find(seen, name);
        if (j < 0 || !seen->good[j])
            n++;
    }
    return n;
}

/* The path Fathom gets: the readable folders, or, when some file was
 * refused, a folder of links to the good ones (Fathom would open the
 * refused files). Fathom must never see an empty component ("a::b", a
 * trailing ':'): it reads past its buffer. It skips files of a wrong size
 * itself (printing a line of its own); a file with a wrong magic number makes
 * the probes of that material fail, which every caller handles as "not in the
 * tables". "" when there is nothing to give it. */
static const char *fathom_path(Scan *sc)
{
#ifdef _WIN32
    if (sc->nbad == 0)
        return sc->clean;
    sc->nwdl = 0; /* no links on Windows: see tb_set_path() */
    msg_add(&sc->warn, "%s", LEFT_OUT);
    return "";
#else
    remove_links_dir(links_dir);
    if (sc->nbad == 0)
        return sc->clean;
    bool linked = make_links_dir(links_dir, sizeof links_dir);
    for (int i = 0; linked && i < sc->seen.count; i++)
        if (sc->seen.good[i] && !add_link(links_dir, sc->seen.names[i], sc->seen.paths[i]))
            linked = false;
    if (linked)
        return links_dir;
    remove_links_dir(links_dir);
    sc->nwdl = 0;
    msg_add(&sc->warn, "; cannot set aside the bad files (no folder of links in /tmp: %s)", strerror(errno));
    return "";
#endif
}

/* The one-line summary of what is loaded, with the warnings. */
static void summarise(Msg *m, const Scan *sc, const char *paths, bool ok)
{
    const char *warnings = sc->warn.buf && sc->warn.len > 2 ? sc->warn.buf + 2 : NULL;
    if (sc->ndirs == 0) {
        msg_add(m, "no directory in the tablebase path '%s'; tablebases off", paths);
    } else if (!ok) {
        msg_add(m, "no usable tablebase files in '%s'", paths);
        if (warnings)
            msg_add(m, " (%s)", warnings);
        msg_add(m, "; tablebases off");
    } else {
        int nodtz = wdl_without_dtz(&sc->seen);
        msg_add(m, "found %d tablebase file%s (%d WDL, %d DTZ), up to %d pieces", sc->nwdl + sc->ndtz,
                sc->nwdl + sc->ndtz == 1 ? "" : "s", sc->nwdl, sc->ndtz, tb_max_pieces());
        if (nodtz)
            msg_add(m, "; warning: %d WDL table%s without a usable DTZ table (root moves then ranked by WDL only)",
                    nodtz, nodtz == 1 ? "" : "s");
        if (warnings)
            msg_add(m, "; warning: %s", warnings);
        if (sc->maxp > tb_max_pieces())
            msg_add(m, "; warning: files with up to %d pieces, but Fathom uses only up to %d", sc->maxp,
                    tb_max_pieces());
    }
}

static void scan_free(Scan *sc)
{
    free(sc->warn.buf);
    nameset_free(&sc->seen);
    free(sc->clean);
    free(sc->kept);
}

/* Nothing loaded: Fathom's re-initialisation frees the old tables itself
 * (tb_free() would leave Fathom unusable). */
static void tables_off(void)
{
    fathom_init("");
#ifndef _WIN32
    remove_links_dir(links_dir);
#endif
}

bool tb_set_path(const char *paths, char *msg, size_t n)
{
    Msg m = {msg, n, 0};
    if (msg && n)
        msg[0] = '\0';
    tb_set_max_pieces(0); /* nothing loaded while we look */
    tables_set_up = 0;
#ifndef _WIN32
    static bool cleanup_registered;
    if (!cleanup_registered)
        cleanup_registered = atexit(remove_links_at_exit) == 0;
#endif
    if (!paths || !*paths || !strcmp(paths, "<empty>")) {
        tables_off();
        msg_add(&m, "tablebases off");
        return true;
    }

    char *copy = strdup(paths);
    Scan sc = {.clean = calloc(strlen(paths) + 1, 1), .kept = calloc(strlen(paths) + 1, 1),
               .warn = {malloc(2048), 2048, 0}};
    if (!copy || !sc.clean || !sc.kept || !sc.warn.buf) {
        free(copy);
        scan_free(&sc);
        tables_off();
        msg_add(&m, "out of memory");
        return false;
    }
    sc.warn.buf[0] = '\0';
    for (char *dir = copy, *next; dir; dir = next) {
        next = strchr(dir, PATH_LIST_SEP);
        if (next)
            *next++ = '\0';
        path_trim(dir); /* Windows' stat refuses "C:\tb\" */
        if (*dir)
            scan_dir(&sc, dir);
    }
    probe_unlisted(&sc.seen, &sc.warn, &sc.nbad, &sc.nwdl, &sc.ndtz);
    if (sc.nbad > 8)
        msg_add(&sc.warn, "; %d more bad files", sc.nbad - 8);

#ifdef _WIN32
    /* Fathom would open the refused files, and Windows makes no links
     * without privileges: the path is set up again from the folders that
     * hold no refused file (a good copy in a later folder is then used). */
    static bool again;
    if (sc.nbad > 0 && !again && *sc.kept) {
        again = true;
        bool ok = tb_set_path(sc.kept, msg, n);
        again = false;
        m.len = msg && n ? strlen(msg) : 0;
        if (sc.warn.len > 2)
            msg_add(&m, "; warning: %s%s", sc.warn.buf + 2, LEFT_OUT);
        free(copy);
        scan_free(&sc);
        return ok;
    }
#endif
    fathom_init(fathom_path(&sc));
    bool ok = TB_LARGEST > 0 && sc.nwdl > 0;
    tb_set_max_pieces(ok ? (int)TB_LARGEST : 0);
    tables_set_up = ok ? set_up_tables(&sc.seen) : 0;
    summarise(&m, &sc, paths, ok);
    free(copy);
    scan_free(&sc);
    return ok;
}

static bool dir_has_tables(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        bool dtz;
        found = table_name_pieces(e->d_name, &dtz) && !dtz;
    }
    closedir(d);
    return found;
}

bool tb_default_path(char *out, size_t n)
{
    char exe[4096], dir[4200];
    for (int up = 0; up < 4; up++) {
        if (!exe_dir(up, exe, sizeof exe))
            return false;
        snprintf(dir, sizeof dir, "%s" DIR_SEP "tablebases", exe);
        if (dir_has_tables(dir)) {
            if (strlen(dir) >= n)
                return false;
            memcpy(out, dir, strlen(dir) + 1);
            return true;
        }
    }
    return false;
}

