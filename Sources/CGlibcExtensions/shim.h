#ifndef CGLIBCEXTENSIONS_SHIM_H
#define CGLIBCEXTENSIONS_SHIM_H

// What Swift's Glibc module leaves out of glibc: its GNU extensions (pthread_setname_np, which
// names a thread for the kernel) and malloc's tuning (malloc_trim).
#define _GNU_SOURCE 1
#include <pthread.h>
#include <malloc.h>

#endif
