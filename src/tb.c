/* tb.c - Syzygy tablebases through Fathom: path set-up with file checks,
 * Position -> bitboards, WDL probes, and the root probe that ranks the root
 * moves and picks the one to play. Fathom itself is linked (-lfathom). */
#define _POSIX_C_SOURCE 200809L /* strdup, readlink, opendir under -std=c17 */
#include "tb.h"

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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tbprobe.h>

#include "fen.h"
#include "files.h"
#include "md5.h"
#include "movegen.h"
#include "tb_checksums.h"

#if TB_LOSS != 0 || TB_BLESSED_LOSS != 1 || TB_DRAW != 2 || TB_CURSED_WIN != 3 || TB_WIN != 4
#error "tb.h's WDL values must equal Fathom's"
#endif

/* Our own record of what is loaded. Fathom's TB_LARGEST is not reset when
 * its path is set to "" (and probing then would touch freed memory), so
 * every probe checks this value instead. Written only by tb_set_path(). */
static int tb_largest;

/* Syzygy file checks: the first four bytes (little-endian magic numbers) and
 * the size, which the generator always pads to 16 modulo 64 bytes. */
static const unsigned char WDL_MAGIC[4] = {0x71, 0xe8, 0x23, 0x5d};
static const unsigned char DTZ_MAGIC[4] = {0xd7, 0x66, 0x0c, 0xa5};
#define TB_MIN_FILE_SIZE 80

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

/* ---- Path set-up ---- */

/* "KQRvKR.rtbw" -> 5 pieces (WDL); returns 0 for a name that is no table. */
static int table_name_pieces(const char *name, bool *dtz)
{
    size_t len = strlen(name);
    if (len < 8 || (strcmp(name + len - 5, ".rtbw") && strcmp(name + len - 5, ".rtbz")))
        return 0;
    *dtz = name[len - 1] == 'z';
    int pieces = 0, sides = 0;
    for (size_t i = 0; i < len - 5; i++) {
        char c = name[i];
        if (c == 'v') {
            if (i == 0 || name[i + 1] != 'K')
                return 0;
            sides++;
        } else if (strchr("KQRBNP", c)) {
            if (c == 'K' && i > 0 && name[i - 1] != 'v')
                return 0;
            pieces++;
        } else {
            return 0;
        }
    }
    return sides == 1 && name[0] == 'K' && pieces >= 3 ? pieces : 0;
}

/* ---- Damaged files ----
 *
 * Fathom trusts its files: a damaged table with the right magic number and
 * size makes it fail an assertion, recurse without end or read wild memory
 * on the first probe. A file whose name is in the published list
 * (tb_checksums.c) must have one of the published MD5 checksums; any other
 * table file is first probed in a child process, and refused when the child
 * dies or hangs. The verdicts are kept per file (device, inode, size and
 * modification time), so setting the same path again costs nothing. */

typedef struct {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    bool ok;
} Verdict;
static Verdict *verdicts;
static int nverdicts, verdicts_cap;

static Verdict *verdict_of(const struct stat *st)
{
    for (int i = 0; i < nverdicts; i++)
        if (verdicts[i].dev == st->st_dev && verdicts[i].ino == st->st_ino && verdicts[i].size == st->st_size &&
            verdicts[i].mtime.tv_sec == st->st_mtim.tv_sec && verdicts[i].mtime.tv_nsec == st->st_mtim.tv_nsec)
            return &verdicts[i];
    return NULL;
}

static void remember_verdict(const struct stat *st, bool ok)
{
    if (nverdicts == verdicts_cap) {
        int cap = verdicts_cap ? 2 * verdicts_cap : 256;
        Verdict *nv = realloc(verdicts, (size_t)cap * sizeof *nv);
        if (!nv)
            return; /* checked again next time */
        verdicts = nv;
        verdicts_cap = cap;
    }
    verdicts[nverdicts++] = (Verdict){st->st_dev, st->st_ino, st->st_size, st->st_mtim, ok};
}

/* Whether the name is in the published list. */
static bool checksum_listed(const char *name)
{
    for (int i = 0; i < tb_checksum_count; i++)
        if (!strcmp(tb_checksums[i].name, name))
            return true;
    return false;
}

/* NULL when the open file fd (at offset 0) has a published checksum of its
 * name, else why not. */
static const char *check_checksum(int fd, const struct stat *st, const char *name, char *why, size_t n)
{
    Verdict *v = verdict_of(st);
    if (v)
        return v->ok ? NULL : "damaged: its MD5 checksum is not the published one";
    unsigned char digest[16];
    char hex[33];
    if (!md5_fd(fd, digest)) {
        snprintf(why, n, "unreadable (%s)", strerror(errno));
        return why;
    }
    md5_hex(digest, hex);
    bool ok = false;
    for (int i = 0; i < tb_checksum_count && !ok; i++)
        ok = !strcmp(tb_checksums[i].name, name) && !strcmp(tb_checksums[i].md5, hex);
    remember_verdict(st, ok);
    if (ok)
        return NULL;
    snprintf(why, n, "damaged: MD5 %s is not the published checksum", hex);
    return why;
}

/* Checks one table file; returns NULL when it looks fine, else why not.
 * *unlisted: a good-looking file whose name has no published checksum (it
 * still needs a probe in a child process). Anything but a regular file is
 * refused before it is opened: opening a FIFO would block. */
static const char *check_table_file(const char *path, const char *name, bool dtz, bool *unlisted, char *why,
                                    size_t n)
{
    struct stat st;
    *unlisted = false;
    if (stat(path, &st) != 0) {
        snprintf(why, n, "unreadable (%s)", strerror(errno));
        return why;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, n, "not a regular file (%s); not opened",
                 S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory"
                 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket"
                 : "not a plain file");
        return why;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* never blocks, should it change meanwhile */
    if (fd < 0) {
        snprintf(why, n, "unreadable (%s)", strerror(errno));
        return why;
    }
    unsigned char head[4];
    const char *res = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        res = "not a regular file";
    } else if (st.st_size < TB_MIN_FILE_SIZE || (st.st_size & 63) != 16) {
        snprintf(why, n, "truncated or padded wrongly (%lld bytes)", (long long)st.st_size);
        res = why;
    } else if (read(fd, head, 4) != 4) {
        snprintf(why, n, "unreadable (%s)", strerror(errno));
        res = why;
    } else if (memcmp(head, dtz ? DTZ_MAGIC : WDL_MAGIC, 4)) {
        snprintf(why, n, "wrong magic number: not a Syzygy %s file", dtz ? "DTZ" : "WDL");
        res = why;
    } else if (!checksum_listed(name)) {
        *unlisted = true;
    } else if (lseek(fd, 0, SEEK_SET) != 0) {
        snprintf(why, n, "unreadable (%s)", strerror(errno));
        res = why;
    } else {
        res = check_checksum(fd, &st, name, why, n);
    }
    close(fd);
    return res;
}

/* A set of file names, to count each table file once across directories
 * (Fathom opens the first one it finds along the path). */
typedef struct {
    char (*names)[32];
    bool *good;
    bool *unlisted; /* good so far, but with no published checksum: probe it in a child */
    char **paths;   /* where the file is (the first copy along the path) */
    int count, cap;
} NameSet;

static int nameset_find(const NameSet *s, const char *name)
{
    for (int i = 0; i < s->count; i++)
        if (!strcmp(s->names[i], name))
            return i;
    return -1;
}

static bool nameset_add(NameSet *s, const char *name, const char *path, bool good, bool unlisted)
{
    if (s->count == s->cap) {
        int cap = s->cap ? 2 * s->cap : 256;
        char (*nn)[32] = realloc(s->names, (size_t)cap * sizeof *nn);
        if (!nn)
            return false;
        s->names = nn;
        bool *ng = realloc(s->good, (size_t)cap * sizeof *ng);
        if (!ng)
            return false;
        s->good = ng;
        bool *nu = realloc(s->unlisted, (size_t)cap * sizeof *nu);
        if (!nu)
            return false;
        s->unlisted = nu;
        char **np = realloc(s->paths, (size_t)cap * sizeof *np);
        if (!np)
            return false;
        s->paths = np;
        s->cap = cap;
    }
    size_t len = strlen(name);
    char *p = strdup(path);
    if (len >= sizeof s->names[0] || !p) {
        free(p);
        return false;
    }
    memcpy(s->names[s->count], name, len + 1);
    s->paths[s->count] = p;
    s->unlisted[s->count] = unlisted;
    s->good[s->count++] = good;
    return true;
}

static void nameset_free(NameSet *s)
{
    for (int i = 0; i < s->count; i++)
        free(s->paths[i]);
    free(s->paths);
    free(s->names);
    free(s->good);
    free(s->unlisted);
}

/* ---- Private folders of links ----
 * Fathom opens tables by name along its path and cannot be told to skip a
 * file. When some file was refused, Fathom gets a folder of links to the
 * good files only (made under $TMPDIR or /tmp, removed when the path changes
 * and at exit); a table is probed in a child process from such a folder too. */

static char links_dir[PATH_MAX]; /* the folder Fathom uses now, or "" */

static bool make_links_dir(char *out, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out, n, "%s/hexe-tables-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(out))
        return true;
    out[0] = '\0';
    return false;
}

static bool add_link(const char *dir, const char *name, const char *target)
{
    char abs[PATH_MAX], link[PATH_MAX + 64];
    if (!realpath(target, abs))
        return false;
    snprintf(link, sizeof link, "%s/%s", dir, name);
    return symlink(abs, link) == 0;
}

static void remove_links_dir(char *dir)
{
    if (!dir[0])
        return;
    DIR *d = opendir(dir);
    if (d) {
        char path[PATH_MAX + 300];
        for (struct dirent *e; (e = readdir(d));)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(dir);
    dir[0] = '\0';
}

static void remove_links_at_exit(void) { remove_links_dir(links_dir); }

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
    int null = open("/dev/null", O_WRONLY);
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
        tb_largest = (int)TB_LARGEST;
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
                    remember_verdict(&st, true);
                continue;
            }
            s->good[f] = false;
            if (stat(s->paths[f], &st) == 0 && !strncmp(bad, "damaged", 7))
                remember_verdict(&st, false);
            if (s->names[f][strlen(s->names[f]) - 1] == 'z')
                (*ndtz)--;
            else
                (*nwdl)--;
            if ((*nbad)++ < 8)
                msg_add(warn, "; bad file %s: %s; not used", s->paths[f], bad);
        }
    }
}

bool tb_set_path(const char *paths, char *msg, size_t n)
{
    Msg m = {msg, n, 0};
    if (msg && n)
        msg[0] = '\0';

    /* Nothing loaded while we look; Fathom's re-initialisation frees the old
     * tables itself (tb_free() would leave Fathom unusable). */
    tb_largest = tables_set_up = 0;
    static bool cleanup_registered;
    if (!cleanup_registered)
        cleanup_registered = atexit(remove_links_at_exit) == 0;
    if (!paths || !*paths || !strcmp(paths, "<empty>")) {
        fathom_init("");
        remove_links_dir(links_dir);
        msg_add(&m, "tablebases off");
        return true;
    }

    char *copy = strdup(paths), *clean = calloc(strlen(paths) + 1, 1);
    if (!copy || !clean) {
        free(copy);
        free(clean);
        fathom_init("");
        msg_add(&m, "out of memory");
        return false;
    }
    NameSet seen = {0};
    int nwdl = 0, ndtz = 0, nbad = 0, maxp = 0, ndirs = 0;
    Msg warn = {malloc(2048), 2048, 0};
    if (warn.buf)
        warn.buf[0] = '\0';

    for (char *dir = copy, *next; dir; dir = next) {
        next = strchr(dir, ':');
        if (next)
            *next++ = '\0';
        if (!*dir)
            continue;
        ndirs++;
        struct stat st;
        if (stat(dir, &st) != 0) {
            msg_add(&warn, "; directory '%s' %s", dir,
                    errno == ENOENT ? "does not exist" : strerror(errno));
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            msg_add(&warn, "; '%s' is not a directory", dir);
            continue;
        }
        DIR *d = opendir(dir);
        if (!d) {
            msg_add(&warn, "; directory '%s' is not readable (%s)", dir, strerror(errno));
            continue;
        }
        if (*clean)
            strcat(clean, ":");
        strcat(clean, dir);
        int here = 0;
        for (struct dirent *e; (e = readdir(d));) {
            bool dtz;
            int pieces = table_name_pieces(e->d_name, &dtz);
            if (!pieces || strlen(e->d_name) >= 32)
                continue;
            here++;
            int earlier = nameset_find(&seen, e->d_name);
            if (earlier >= 0 && seen.good[earlier])
                continue; /* shadowed by the good copy in an earlier directory */
            char path[PATH_MAX], why[160];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            bool unlisted;
            const char *bad = check_table_file(path, e->d_name, dtz, &unlisted, why, sizeof why);
            if (unlisted) {
                struct stat fst;
                Verdict *v = stat(path, &fst) == 0 ? verdict_of(&fst) : NULL;
                if (v) { /* probed before */
                    unlisted = false;
                    if (!v->ok)
                        bad = "damaged: a test probe failed earlier";
                }
            }
            if (earlier >= 0 && !bad) { /* a good copy after a bad one: this one is used */
                char *p = strdup(path);
                if (p) {
                    free(seen.paths[earlier]);
                    seen.paths[earlier] = p;
                    seen.good[earlier] = true;
                    seen.unlisted[earlier] = unlisted;
                }
            } else if (earlier < 0) {
                nameset_add(&seen, e->d_name, path, !bad, unlisted);
            }
            if (bad) {
                if (nbad++ < 8)
                    msg_add(&warn, "; bad file %s: %s; not used", path, bad);
                continue;
            }
            if (dtz)
                ndtz++;
            else
                nwdl++;
            if (pieces > maxp)
                maxp = pieces;
        }
        closedir(d);
        if (!here)
            msg_add(&warn, "; '%s' holds no .rtbw/.rtbz files", dir);
    }
    probe_unlisted(&seen, &warn, &nbad, &nwdl, &ndtz);
    if (nbad > 8)
        msg_add(&warn, "; %d more bad files", nbad - 8);

    /* WDL files whose DTZ partner is missing or bad. */
    int nodtz = 0;
    for (int i = 0; i < seen.count; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s", seen.names[i]);
        size_t len = strlen(name);
        if (!seen.good[i] || name[len - 1] != 'w')
            continue;
        name[len - 1] = 'z';
        int j = nameset_find(&seen, name);
        if (j < 0 || !seen.good[j])
            nodtz++;
    }

    /* Fathom gets only the readable directories: it reads past its buffer on
     * an empty component ("a::b", a trailing ':'). It skips files of a wrong
     * size itself (printing a line of its own); a file with a wrong magic
     * number makes the probes of that material fail, which every caller
     * handles as "not in the tables". */
    remove_links_dir(links_dir);
    const char *fathom_path = clean;
    if (nbad > 0) {
        /* Fathom would open the refused files: it gets links to the good ones. */
        bool linked = make_links_dir(links_dir, sizeof links_dir);
        for (int i = 0; linked && i < seen.count; i++)
            if (seen.good[i] && !add_link(links_dir, seen.names[i], seen.paths[i]))
                linked = false;
        if (linked) {
            fathom_path = links_dir;
        } else {
            remove_links_dir(links_dir);
            fathom_path = "";
            nwdl = 0;
            msg_add(&warn, "; cannot set aside the bad files (no folder of links in /tmp: %s)", strerror(errno));
        }
    }
    fathom_init(fathom_path);
    bool ok = TB_LARGEST > 0 && nwdl > 0;
    tb_largest = ok ? (int)TB_LARGEST : 0;
    tables_set_up = ok ? set_up_tables(&seen) : 0;

    const char *warnings = warn.buf && warn.len > 2 ? warn.buf + 2 : NULL;
    if (ndirs == 0) {
        msg_add(&m, "no directory in the tablebase path '%s'; tablebases off", paths);
    } else if (!ok) {
        msg_add(&m, "no usable tablebase files in '%s'", paths);
        if (warnings)
            msg_add(&m, " (%s)", warnings);
        msg_add(&m, "; tablebases off");
    } else {
        msg_add(&m, "found %d tablebase file%s (%d WDL, %d DTZ), up to %d pieces", nwdl + ndtz,
                nwdl + ndtz == 1 ? "" : "s", nwdl, ndtz, tb_largest);
        if (nodtz)
            msg_add(&m, "; warning: %d WDL table%s without a usable DTZ table (root moves then ranked by WDL only)",
                    nodtz, nodtz == 1 ? "" : "s");
        if (warnings)
            msg_add(&m, "; warning: %s", warnings);
        if (maxp > tb_largest)
            msg_add(&m, "; warning: files with up to %d pieces, but Fathom uses only up to %d", maxp, tb_largest);
    }

    free(warn.buf);
    nameset_free(&seen);
    free(copy);
    free(clean);
    return ok;
}

int tb_max_pieces(void)
{
    return tb_largest;
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
        snprintf(dir, sizeof dir, "%s/tablebases", exe);
        if (dir_has_tables(dir)) {
            if (strlen(dir) >= n)
                return false;
            memcpy(out, dir, strlen(dir) + 1);
            return true;
        }
    }
    return false;
}

/* ---- Positions and moves ---- */

void tb_boards(const Position *pos, TbBoards *b)
{
    memset(b, 0, sizeof *b);
    for (int c = WHITE; c <= BLACK; c++) {
        uint64_t *side = c == WHITE ? &b->white : &b->black;
        for (int i = 0; i < pos->npieces[c]; i++) {
            int sq = pos->pieces[c][i];
            uint64_t bit = 1ULL << SQ64(sq);
            *side |= bit;
            switch (PTYPE(pos->board[sq])) {
            case KING: b->kings |= bit; break;
            case QUEEN: b->queens |= bit; break;
            case ROOK: b->rooks |= bit; break;
            case BISHOP: b->bishops |= bit; break;
            case KNIGHT: b->knights |= bit; break;
            default: break;
            }
        }
        for (int i = 0; i < pos->npawns[c]; i++) {
            uint64_t bit = 1ULL << SQ64(pos->pawns[c][i]);
            *side |= bit;
            b->pawns |= bit;
        }
    }
    b->ep = pos->ep == NO_SQ ? 0 : (unsigned)SQ64(pos->ep);
    b->rule50 = (unsigned)(pos->halfmove < 100 ? pos->halfmove : 100);
    b->turn = pos->side == WHITE;
}

static int piece_count(const Position *pos)
{
    return pos->npieces[WHITE] + pos->npieces[BLACK] + pos->npawns[WHITE] + pos->npawns[BLACK];
}

int tb_probe_wdl_pos(const Position *pos)
{
    int largest = tb_largest;
    if (!largest || pos->castle || pos->halfmove || piece_count(pos) > largest)
        return -1;
    TbBoards b;
    tb_boards(pos, &b);
    unsigned r = tb_probe_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                              b.pawns, 0, 0, b.ep, b.turn);
    return r == TB_RESULT_FAILED ? -1 : (int)r;
}

int tb_wdl_score(int wdl, int ply, bool rule50)
{
    int win = TB_WIN_SCORE - TB_MAX_DTZ - ply;
    switch (wdl) {
    case TB_WIN: return win;
    case TB_CURSED_WIN: return rule50 ? 0 : win;
    case TB_BLESSED_LOSS: return rule50 ? 0 : -win;
    case TB_LOSS: return -win;
    default: return 0;
    }
}

/* Index of the root move with Fathom's from/to/promotion, or -1. */
static int find_move(const TbRootResult *r, unsigned from, unsigned to, unsigned promotes)
{
    int promo = promotes == TB_PROMOTES_NONE ? 0 : 6 - (int)promotes; /* 1 Q .. 4 N -> QUEEN .. KNIGHT */
    for (int i = 0; i < r->count; i++) {
        Move mv = r->moves[i].move;
        int mpromo = MOVE_KIND(mv) == MK_PROMO ? MOVE_PROMO(mv) : 0;
        if ((unsigned)(mv & 63) == to && (unsigned)((mv >> 6) & 63) == from && mpromo == promo)
            return i;
    }
    return -1;
}

/* Has a position repeated since the last capture or pawn move? Fathom then
 * ranks wins that are not sure to beat the 50-move rule lower. */
static bool repeated_since_zeroing(const Position *pos)
{
    int back = pos->halfmove < pos->hply ? pos->halfmove : pos->hply;
    for (int i = 0; i <= back; i++) {
        uint64_t ki = i == 0 ? pos->key : pos->hist[pos->hply - i].key;
        for (int j = i + 4; j <= back; j += 2)
            if (pos->hist[pos->hply - j].key == ki)
                return true;
    }
    return false;
}

/* wdl folded to TB_WIN, TB_DRAW or TB_LOSS. */
static int fold(int wdl, bool rule50)
{
    if (wdl == TB_WIN || (wdl == TB_CURSED_WIN && !rule50))
        return TB_WIN;
    if (wdl == TB_LOSS || (wdl == TB_BLESSED_LOSS && !rule50))
        return TB_LOSS;
    return TB_DRAW;
}

static int signed_dtz(int wdl, unsigned dtz)
{
    return wdl > TB_DRAW ? (int)dtz : wdl < TB_DRAW ? -(int)dtz : 0;
}

/* Replies' DTZ after a winning zeroing move, for tie-breaks (0: unknown). */
static int reply_dtz(Position *tmp, Move mv)
{
    make_move(tmp, mv);
    TbBoards b;
    tb_boards(tmp, &b);
    unsigned res = tb_probe_root(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                 b.pawns, 0, 0, b.ep, b.turn, NULL);
    unmake_move(tmp);
    if (res == TB_RESULT_FAILED || res == TB_RESULT_CHECKMATE || res == TB_RESULT_STALEMATE)
        return 0;
    return (int)TB_GET_DTZ(res);
}

bool tb_probe_root_moves(const Position *pos, bool rule50, TbRootResult *out)
{
    /* Too big for a thread's stack; the root probe is single-threaded anyway. */
    static struct TbRootMoves rm;
    static unsigned results[TB_MAX_MOVES];

    out->count = 0;
    out->best = MOVE_NONE;
    out->score = 0;
    if (!tb_largest || pos->castle || piece_count(pos) > tb_largest)
        return false;
    MoveList legal;
    gen_legal(pos, &legal);
    if (legal.count == 0)
        return false;

    Position tmp = {0};
    pos_copy(&tmp, pos);
    out->count = legal.count;
    for (int i = 0; i < legal.count; i++) {
        TbRootMove *m = &out->moves[i];
        Move mv = legal.moves[i];
        memset(m, 0, sizeof *m);
        m->move = mv;
        m->zeroing = pos->board[MOVE_TO(mv)] != EMPTY || PTYPE(pos->board[MOVE_FROM(mv)]) == PAWN;
        make_move(&tmp, mv);
        MoveList replies;
        gen_legal(&tmp, &replies);
        m->mate = replies.count == 0 && in_check(&tmp);
        unmake_move(&tmp);
    }

    TbBoards b;
    tb_boards(pos, &b);
    bool ok = true;

    /* 1. WDL and DTZ of the root and of every move (Fathom's DTZ root probe). */
    unsigned res = tb_probe_root(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                 b.pawns, b.rule50, 0, b.ep, b.turn, results);
    out->dtz_ok = res != TB_RESULT_FAILED && res != TB_RESULT_CHECKMATE && res != TB_RESULT_STALEMATE;
    if (out->dtz_ok) {
        out->wdl = (int)TB_GET_WDL(res);
        out->dtz = signed_dtz(out->wdl, TB_GET_DTZ(res));
        int found = 0;
        for (int k = 0; k < TB_MAX_MOVES && results[k] != TB_RESULT_FAILED; k++) {
            int i = find_move(out, TB_GET_FROM(results[k]), TB_GET_TO(results[k]), TB_GET_PROMOTES(results[k]));
            if (i < 0) {
                ok = false;
                break;
            }
            out->moves[i].wdl = (int)TB_GET_WDL(results[k]);
            out->moves[i].dtz = signed_dtz(out->moves[i].wdl, TB_GET_DTZ(results[k]));
            found++;
        }
        ok = ok && found == out->count;
    }

    /* 2. Fathom's ranks and scores: from the DTZ tables, or from the WDL
     * tables when DTZ ones are missing. */
    bool repeated = repeated_since_zeroing(pos);
    int got = ok && out->dtz_ok
                  ? tb_probe_root_dtz(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                      b.pawns, b.rule50, 0, b.ep, b.turn, repeated, rule50, &rm)
                  : 0;
    if (ok && !got) {
        out->dtz_ok = false;
        got = tb_probe_root_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights,
                                b.pawns, b.rule50, 0, b.ep, b.turn, rule50, &rm);
    }
    ok = ok && got && (int)rm.size == out->count;
    out->best_rank = -1000000;
    for (unsigned k = 0; ok && k < rm.size; k++) {
        TbMove tm = rm.moves[k].move;
        int i = find_move(out, TB_MOVE_FROM(tm), TB_MOVE_TO(tm), TB_MOVE_PROMOTES(tm));
        if (i < 0) {
            ok = false;
            break;
        }
        out->moves[i].tb_rank = rm.moves[k].tbRank;
        out->moves[i].tb_score = rm.moves[k].tbScore;
        if (rm.moves[k].tbRank > out->best_rank)
            out->best_rank = rm.moves[k].tbRank;
    }

    /* 3. Without DTZ tables: each move's WDL from the WDL table of the
     * position it leads to (the halfmove clock cannot be counted then). */
    if (ok && !out->dtz_ok) {
        out->wdl = TB_LOSS;
        out->dtz = 0;
        for (int i = 0; ok && i < out->count; i++) {
            TbRootMove *m = &out->moves[i];
            make_move(&tmp, m->move);
            TbBoards c;
            tb_boards(&tmp, &c);
            unsigned w = tb_probe_wdl(c.white, c.black, c.kings, c.queens, c.rooks, c.bishops, c.knights,
                                      c.pawns, 0, 0, c.ep, c.turn);
            unmake_move(&tmp);
            ok = w != TB_RESULT_FAILED;
            m->wdl = ok ? TB_WIN - (int)w : TB_DRAW;
            m->dtz = 0;
            if (m->wdl > out->wdl)
                out->wdl = m->wdl;
        }
    }

    /* 4. Tie-break data for winning zeroing moves. */
    if (ok && out->dtz_ok && fold(out->wdl, rule50) == TB_WIN) {
        int nzero = 0;
        for (int i = 0; i < out->count; i++)
            nzero += out->moves[i].zeroing && out->moves[i].wdl == TB_WIN && !out->moves[i].mate;
        for (int i = 0; nzero > 1 && i < out->count; i++) {
            TbRootMove *m = &out->moves[i];
            if (m->zeroing && m->wdl == TB_WIN && !m->mate)
                m->reply_dtz = reply_dtz(&tmp, m->move);
        }
    }
    pos_free(&tmp);
    if (!ok) {
        out->count = 0;
        return false;
    }
    tb_pick_root_move(out, rule50);
    return true;
}

/* Is a a better choice than b, both keeping the root result `result`? */
static bool better(const TbRootMove *a, const TbRootMove *b, int result)
{
    if (a->wdl != b->wdl)
        return a->wdl > b->wdl;
    if (result == TB_WIN || a->wdl > TB_DRAW) {
        if (a->mate != b->mate)
            return a->mate;
        if (a->dtz != b->dtz && a->dtz > 0 && b->dtz > 0)
            return a->dtz < b->dtz;
        if (a->zeroing != b->zeroing)
            return a->zeroing;
        if (a->zeroing && a->reply_dtz != b->reply_dtz && a->reply_dtz > 0 && b->reply_dtz > 0)
            return a->reply_dtz < b->reply_dtz;
        return false;
    }
    if (a->wdl < TB_DRAW) /* losing, or a blessed loss kept as a draw: resist longest */
        return a->dtz < b->dtz;
    return false;
}

Move tb_pick_root_move(TbRootResult *r, bool rule50)
{
    r->best = MOVE_NONE;
    r->score = 0;
    if (r->count == 0)
        return MOVE_NONE;
    int result = TB_LOSS;
    for (int i = 0; i < r->count; i++)
        if (fold(r->moves[i].wdl, rule50) > result)
            result = fold(r->moves[i].wdl, rule50);
    r->result = result;
    int best = -1;
    for (int i = 0; i < r->count; i++) {
        TbRootMove *m = &r->moves[i];
        m->keeps = fold(m->wdl, rule50) == result;
        if (m->keeps && (best < 0 || better(m, &r->moves[best], result)))
            best = i;
    }
    const TbRootMove *b = &r->moves[best];
    int d = b->dtz < 0 ? -b->dtz : b->dtz;
    int dist = d == 0 || d > TB_MAX_DTZ ? TB_MAX_DTZ : d;
    r->best = b->move;
    r->score = result == TB_WIN ? TB_WIN_SCORE - dist : result == TB_LOSS ? -(TB_WIN_SCORE - dist) : 0;
    return r->best;
}
