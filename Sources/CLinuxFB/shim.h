#ifndef CLINUXFB_SHIM_H
#define CLINUXFB_SHIM_H

// The Linux framebuffer device (FBIOGET_VSCREENINFO, FBIOGET_FSCREENINFO) and the console's
// graphics mode switch (KDSETMODE), which keeps the text console from drawing over the screen.
#include <linux/fb.h>
#include <linux/kd.h>

#endif
