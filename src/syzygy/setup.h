/* syzygy/setup.h - setting the Syzygy tables up: the path (every folder and
 * file checked, every table set up before a search probes it) and the
 * default folder beside the executable. The probes are in probe.h. */
#ifndef HEXE_SYZYGY_SETUP_H
#define HEXE_SYZYGY_SETUP_H

#include <stdbool.h>
#include <stddef.h>

/* (Re)initialises the tables from a ':'-separated list of directories.
 * "" , NULL or "<empty>" switch the tablebases off. Every directory is
 * checked (exists, readable) and every .rtbw/.rtbz file in it (readable,
 * Syzygy magic number, a plausible size); msg (may be NULL) receives a
 * one-line summary such as "found 80 tablebase files (40 WDL, 40 DTZ), up to
 * 5 pieces" followed by warnings about bad files or directories.
 * Returns true when tables are usable (or were switched off on purpose),
 * false when the path gave no usable table (tablebases are then off).
 * Safe to call any number of times; not while a search runs. */
bool tb_set_path(const char *paths, char *msg, size_t n);

/* WDL tables probed once by tb_set_path() (each must be: see setup.c). */
int tb_tables_set_up(void);

/* The directory "tablebases" next to the running executable (or in one of
 * its three parent directories) when it holds at least one .rtbw file:
 * the default for an empty SyzygyPath. Returns false if there is none. */
bool tb_default_path(char *out, size_t n);

#endif
