#include "cjpegrows.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/// libjpeg reports errors by calling `error_exit`, which must not return: it jumps back into
/// `cjpegrows_encode_rgb` with the message kept.
struct failure {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
    size_t capacity;
};

static void fail(j_common_ptr info) {
    struct failure *failure = (struct failure *)info->err;
    if (failure->capacity > 0) {
        char text[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, text);
        snprintf(failure->message, failure->capacity, "%s", text);
    }
    longjmp(failure->jump, 1);
}

/// Warnings are not printed on the booth's standard error.
static void stay_quiet(j_common_ptr info) { (void)info; }

/// A destination that grows its own buffer, so that the buffer is ours to free on every path
/// (libjpeg's `jpeg_mem_dest` replaces its buffer as it grows, out of the caller's sight).
struct growing_destination {
    struct jpeg_destination_mgr manager;
    uint8_t *buffer;
    size_t capacity;
};

static void start_destination(j_compress_ptr info) {
    struct growing_destination *destination = (struct growing_destination *)info->dest;
    destination->manager.next_output_byte = destination->buffer;
    destination->manager.free_in_buffer = destination->capacity;
}

static boolean grow_destination(j_compress_ptr info) {
    struct growing_destination *destination = (struct growing_destination *)info->dest;
    size_t capacity = destination->capacity * 2;
    uint8_t *grown = realloc(destination->buffer, capacity);
    if (grown == NULL) {
        ERREXIT1(info, JERR_OUT_OF_MEMORY, 10);
    }
    // libjpeg asks for more only when the buffer is full.
    destination->manager.next_output_byte = grown + destination->capacity;
    destination->manager.free_in_buffer = capacity - destination->capacity;
    destination->buffer = grown;
    destination->capacity = capacity;
    return TRUE;
}

static void finish_destination(j_compress_ptr info) { (void)info; }

int cjpegrows_encode_rgb(const uint8_t *rgb, int width, int height, int quality, uint8_t **output, size_t *outputSize,
                         char *message, size_t messageCapacity) {
    struct jpeg_compress_struct info;
    struct failure failure = {.message = message, .capacity = messageCapacity};
    *output = NULL;
    *outputSize = 0;
    // On the heap, and not changed after `setjmp`: what it points to is still right after a
    // failure jumps back. A first size that fits a noisy frame at high quality; it grows if not.
    struct growing_destination *destination = calloc(1, sizeof *destination);
    if (destination != NULL) {
        destination->capacity = (size_t)width * (size_t)height / 2 + 4096;
        destination->buffer = malloc(destination->capacity);
    }
    if (destination == NULL || destination->buffer == NULL) {
        free(destination);
        snprintf(message, messageCapacity, "out of memory");
        return -1;
    }
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = fail;
    failure.manager.output_message = stay_quiet;
    if (setjmp(failure.jump)) {
        jpeg_destroy_compress(&info);
        free(destination->buffer);
        free(destination);
        return -1;
    }
    jpeg_create_compress(&info);
    destination->manager.init_destination = start_destination;
    destination->manager.empty_output_buffer = grow_destination;
    destination->manager.term_destination = finish_destination;
    info.dest = &destination->manager;
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    info.restart_in_rows = 1;
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)info.next_scanline * (size_t)width * 3);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *outputSize = destination->capacity - destination->manager.free_in_buffer;
    *output = destination->buffer;
    free(destination);
    return 0;
}

void cjpegrows_free(uint8_t *output) { free(output); }
