#ifndef PHOTOBOOTH_CALSA_H
#define PHOTOBOOTH_CALSA_H

#include <alsa/asoundlib.h>

/// Keeps libasound's own messages off standard error: the booth says in one line of its log
/// why it has no sound, instead of libasound's lines about every card it looked for.
void photobooth_alsa_quiet(void);

#endif
