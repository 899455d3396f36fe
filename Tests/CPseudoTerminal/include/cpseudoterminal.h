#ifndef CPSEUDOTERMINAL_H
#define CPSEUDOTERMINAL_H

#include <stddef.h>

/// Opens a pseudo-terminal's controller end and writes the path of its device end to `path`.
/// Returns the controller's descriptor, or -1 with errno set. (posix_openpt and ptsname_r need
/// _GNU_SOURCE, which Swift's Glibc module does not see.)
int cpseudoterminal_open(char *path, size_t size);

#endif
