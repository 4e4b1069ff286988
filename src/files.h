/* files.h - finding the engine's data files (book, tablebases) beside its
 * executable, so that the defaults work from any working directory. */
#ifndef HEXE_FILES_H
#define HEXE_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* The folder of the running executable (platform_exe_path), or its up-th parent;
 * no trailing slash. False when unknown or when it does not fit in out. */
bool exe_dir(int up, char *out, size_t n);

/* A relative path that does not exist from the working directory, taken
 * beside the executable when it exists there (written to buf); else path
 * itself. */
const char *beside_exe(const char *path, char *buf, size_t n);

#endif
