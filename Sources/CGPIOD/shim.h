#ifndef CGPIOD_SHIM_H
#define CGPIOD_SHIM_H

// libgpiod 1.6 (Debian 12 and Raspberry Pi OS bookworm): GPIO through the character device.
// Its request types and flags are enum constants, which Swift imports as they are.
#include <gpiod.h>

#endif
