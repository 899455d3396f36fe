#ifndef CQRENCODE_SHIM_H
#define CQRENCODE_SHIM_H

// libqrencode (4.1 on Debian 12 and Raspberry Pi OS bookworm): QR codes for the photo page's
// address on the "Saved as" screen.
#include <qrencode.h>

#endif
