#ifndef CSPAWN_H
#define CSPAWN_H

#include <spawn.h>

/// Adds to `actions` the closing, in the child, of every descriptor from `lowest` up: a child
/// then inherits only what the actions gave it, whatever other threads had open when it was
/// spawned. Returns 0 or an error number. (posix_spawn_file_actions_addclosefrom_np, glibc
/// 2.34, needs _GNU_SOURCE, which Swift's Glibc module does not see.)
int cspawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
