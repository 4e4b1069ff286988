/* syzygy/filecheck.h - the Syzygy table files as setup.c finds them along a path:
 * their names, the checks that keep a damaged file away from Fathom (size,
 * magic number, published MD5 checksum), the set of files found, and the
 * private folders of links that give Fathom the good files only. Internal
 * to the tablebase module (setup.c). */
#ifndef HEXE_SYZYGY_FILECHECK_H
#define HEXE_SYZYGY_FILECHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* "KQRvKR.rtbw" -> 5 pieces (WDL); returns 0 for a name that is no table. */
int table_name_pieces(const char *name, bool *dtz);

/* Checks one table file; returns NULL when it looks fine, else why not (in
 * why, or a constant text). *unlisted: a good-looking file whose name has no
 * published checksum (it still needs a probe in a child process). */
const char *check_table_file(const char *path, const char *name, bool dtz, bool *unlisted, char *why, size_t n);

/* Keeps the verdict on the file at path (st: its stat), by its identity,
 * size and time (platform.h's file_id), so that setting the same path again
 * costs nothing. */
void remember_verdict(const char *path, const struct stat *st, bool ok);
/* The verdict kept for the file: 1 good, 0 bad, -1 none yet. */
int known_verdict(const char *path, const struct stat *st);

/* A set of file names, to count each table file once across directories
 * (Fathom opens the first one it finds along the path). */
typedef struct {
    char (*names)[32];
    bool *good;
    bool *unlisted; /* good so far, but with no published checksum: probe it in a child */
    char **paths;   /* where the file is (the first copy along the path) */
    int count, cap;
} NameSet;

int nameset_find(const NameSet *s, const char *name);
bool nameset_add(NameSet *s, const char *name, const char *path, bool good, bool unlisted);
void nameset_free(NameSet *s);

/* A new private folder under $TMPDIR or /tmp (out: its path, "" on failure),
 * a link in it to target named name, and the folder's removal (dir becomes "").
 * Not on Windows, where making links takes privileges. */
#ifndef _WIN32
bool make_links_dir(char *out, size_t n);
bool add_link(const char *dir, const char *name, const char *target);
void remove_links_dir(char *dir);
#endif

#endif
