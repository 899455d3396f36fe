#include "CALSA.h"

// A variadic handler cannot be written in Swift.
static void photobooth_alsa_ignore(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file;
    (void)line;
    (void)function;
    (void)err;
    (void)fmt;
}

void photobooth_alsa_quiet(void) {
    snd_lib_error_set_handler(photobooth_alsa_ignore);
}
