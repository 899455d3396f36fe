#ifndef CCUPS_SHIM_H
#define CCUPS_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/mman.h>

// libcups 2.4 (Debian's libcups2-dev): IPP requests to a CUPS server over HTTP. The booth prints
// through the server's queues; it never opens a printer itself.
#include <cups/cups.h>

// An anonymous file in memory, closed on exec: a print's document, which libcups sends from a
// descriptor as `lp` sends a file (memfd_create, which Swift's Glibc module leaves out).
static inline int ccups_document_file(void) { return memfd_create("print document", MFD_CLOEXEC); }

#endif
