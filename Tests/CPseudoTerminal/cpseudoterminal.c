#define _GNU_SOURCE
#include "cpseudoterminal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int cpseudoterminal_open(char *path, size_t size) {
    int controller = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (controller < 0) return -1;
    if (grantpt(controller) != 0 || unlockpt(controller) != 0 || ptsname_r(controller, path, size) != 0) {
        close(controller);
        return -1;
    }
    return controller;
}
