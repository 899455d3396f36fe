#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H

// libjpeg-turbo's TurboJPEG API (2.1 on Debian 12 and Raspberry Pi OS bookworm).
#include <turbojpeg.h>

#endif
