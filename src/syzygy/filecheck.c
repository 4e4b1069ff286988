/* syzygy/filecheck.c - checking Syzygy table files before Fathom opens them. */
#include "filecheck.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../platform.h"
#include "checksums.h"
#include "md5.h"

/* Syzygy file checks: the first four bytes (little-endian magic numbers) and
 * the size, which the generator always pads to 16 modulo 64 bytes. */
static const unsigned char WDL_MAGIC[4] = {0x71, 0xe8, 0x23, 0x5d};
static const unsigned char DTZ_MAGIC[4] = {0xd7, 0x66, 0x0c, 0xa5};
#define TB_MIN_FILE_SIZE 80

/* "KQRvKR.rtbw" -> 5 pieces (WDL); returns 0 for a name that is no table. */
int table_name_pieces(const char *name, bool *dtz)
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
 * (checksums.c) must have one of the published MD5 checksums; any other
 * table file is first probed in a child process, and refused when the child
 * dies or hangs. The verdicts are kept per file (device, inode, size and
 * modification time), so setting the same path again costs nothing. */

typedef struct {
    FileId id;
    bool ok;
} Verdict;
static Verdict *verdicts;
static int nverdicts, verdicts_cap;

static Verdict *verdict_of(const char *path, const struct stat *st)
{
    FileId id;
    if (!file_id(path, st, &id))
        return NULL;
    for (int i = 0; i < nverdicts; i++)
        if (!memcmp(&verdicts[i].id, &id, sizeof id))
            return &verdicts[i];
    return NULL;
}

void remember_verdict(const char *path, const struct stat *st, bool ok)
{
    FileId id;
    if (!file_id(path, st, &id))
        return; /* checked again next time */
    if (nverdicts == verdicts_cap) {
        int cap = verdicts_cap ? 2 * verdicts_cap : 256;
        Verdict *nv = realloc(verdicts, (size_t)cap * sizeof *nv);
        if (!nv)
            return;
        verdicts = nv;
        verdicts_cap = cap;
    }
    verdicts[nverdicts++] = (Verdict){id, ok};
}

int known_verdict(const char *path, const struct stat *st)
{
    const Verdict *v = verdict_of(path, st);
    return v ? v->ok : -1;
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
static const char *check_checksum(int fd, const char *path, const struct stat *st, const char *name, char *why,
                                  size_t n)
{
    Verdict *v = verdict_of(path, st);
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
    remember_verdict(path, st, ok);
    if (ok)
        return NULL;
    snprintf(why, n, "damaged: MD5 %s is not the published checksum", hex);
    return why;
}

/* Checks one table file; returns NULL when it looks fine, else why not.
 * *unlisted: a good-looking file whose name has no published checksum (it
 * still needs a probe in a child process). Anything but a regular file is
 * refused before it is opened: opening a FIFO would block. */
const char *check_table_file(const char *path, const char *name, bool dtz, bool *unlisted, char *why,
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
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_BINARY); /* never blocks, should it change meanwhile */
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
        res = check_checksum(fd, path, &st, name, why, n);
    }
    close(fd);
    return res;
}


int nameset_find(const NameSet *s, const char *name)
{
    for (int i = 0; i < s->count; i++)
        if (!strcmp(s->names[i], name))
            return i;
    return -1;
}

bool nameset_add(NameSet *s, const char *name, const char *path, bool good, bool unlisted)
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

void nameset_free(NameSet *s)
{
    for (int i = 0; i < s->count; i++)
        free(s->paths[i]);
    free(s->paths);
    free(s->names);
    free(s->good);
    free(s->unlisted);
}

#ifndef _WIN32
bool make_links_dir(char *out, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out, n, "%s/hexe-tables-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(out))
        return true;
    out[0] = '\0';
    return false;
}

bool add_link(const char *dir, const char *name, const char *target)
{
    char abs[PATH_MAX], link[PATH_MAX + 64];
    if (!realpath(target, abs))
        return false;
    snprintf(link, sizeof link, "%s/%s", dir, name);
    return symlink(abs, link) == 0;
}

void remove_links_dir(char *dir)
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
#endif
