/* files.c - data files beside the executable. */
#include "files.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"

bool exe_dir(int up, char *out, size_t n)
{
    char exe[4096];
    if (!platform_exe_path(exe, sizeof exe))
        return false;
    for (int i = 0; i <= up; i++) {
        char *sep = NULL;
        for (char *c = exe; *c; c++)
            if (path_sep(*c))
                sep = c;
        if (!sep)
            return false;
        *sep = '\0';
    }
    size_t l = strlen(exe);
    if (l >= n)
        return false;
    memcpy(out, exe, l + 1);
    return true;
}

const char *beside_exe(const char *path, char *buf, size_t n)
{
    char dir[4096];
    if (path_absolute(path) || access(path, F_OK) == 0 || !exe_dir(0, dir, sizeof dir))
        return path;
    int w = snprintf(buf, n, "%s" DIR_SEP "%s", dir, path);
    return w > 0 && (size_t)w < n && access(buf, F_OK) == 0 ? buf : path;
}
