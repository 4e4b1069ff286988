/* files.c - data files beside the executable. */
#include "files.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool exe_dir(int up, char *out, size_t n)
{
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return false;
    exe[len] = '\0';
    for (int i = 0; i <= up; i++) {
        char *slash = strrchr(exe, '/');
        if (!slash)
            return false;
        *slash = '\0';
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
    if (path[0] == '/' || access(path, F_OK) == 0 || !exe_dir(0, dir, sizeof dir))
        return path;
    int w = snprintf(buf, n, "%s/%s", dir, path);
    return w > 0 && (size_t)w < n && access(buf, F_OK) == 0 ? buf : path;
}
