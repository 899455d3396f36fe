#ifndef CJPEGROWS_H
#define CJPEGROWS_H

#include <stddef.h>
#include <stdint.h>

/// Encodes `height` rows of packed RGB (`width * 3` bytes each) as a baseline JPEG at `quality`
/// (1...100), with 4:2:0 chroma subsampling, the standard Huffman tables, and a restart marker
/// after every row of MCUs (16 pixel rows): each MCU row's entropy-coded data then stands
/// alone, so rows of two encodings of the same width and quality can be spliced into one image.
/// TurboJPEG 2.1 cannot ask for restart markers; libjpeg's own API can.
///
/// On success returns 0 and `*output` (free it with `cjpegrows_free`) of `*outputSize` bytes.
/// On failure returns -1, sets `*output` to NULL and writes libjpeg's message into `message`.
int cjpegrows_encode_rgb(const uint8_t *rgb, int width, int height, int quality, uint8_t **output, size_t *outputSize,
                         char *message, size_t messageCapacity);

/// Frees what `cjpegrows_encode_rgb` returned.
void cjpegrows_free(uint8_t *output);

#endif
