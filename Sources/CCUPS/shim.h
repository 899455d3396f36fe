#ifndef CCUPS_SHIM_H
#define CCUPS_SHIM_H

// No feature macro (_GNU_SOURCE) here: the system headers this module includes must read as
// they do in every other module (Dispatch's among them), or Clang finds two `fd_set`s.
#include <sys/mman.h>

// libcups 2.4 (Debian's libcups2-dev): IPP requests to a CUPS server over HTTP. The booth prints
// through the server's queues; it never opens a printer itself.
#include <cups/cups.h>

// glibc declares memfd_create only under _GNU_SOURCE; it is in every Linux since 3.17.
extern int memfd_create(const char *name, unsigned int flags);
#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#endif

// An anonymous file in memory, closed on exec: a print's document, which libcups sends from a
// descriptor as `lp` sends a file (memfd_create, which Swift's Glibc module leaves out).
static inline int ccups_document_file(void) { return memfd_create("print document", MFD_CLOEXEC); }

#endif
