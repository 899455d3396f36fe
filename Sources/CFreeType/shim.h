#ifndef CFREETYPE_SHIM_H
#define CFREETYPE_SHIM_H

// FreeType 2, for anti-aliased text on the framebuffer.
#include <ft2build.h>
#include FT_FREETYPE_H

#endif
