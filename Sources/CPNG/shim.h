#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

// libpng 1.6's simplified API: the PNG files a layout names (its overlay with transparency, a
// background), read once when the booth starts or reloads.
#include <png.h>

// The macros Swift does not import: the API's version and the pixel layout asked for.
static inline unsigned int cpng_image_version(void) { return PNG_IMAGE_VERSION; }
// Blue, green, red, alpha (straight, not premultiplied): the framebuffer's byte order, with
// alpha where the unused byte is.
static inline unsigned int cpng_format_bgra(void) { return PNG_FORMAT_BGRA; }
static inline int cpng_image_failed(png_imagep image) { return PNG_IMAGE_FAILED(*image); }

#endif
