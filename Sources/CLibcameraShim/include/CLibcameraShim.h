#ifndef CLIBCAMERA_SHIM_H
#define CLIBCAMERA_SHIM_H

// A C face for libcamera's C++ API (Debian's libcamera-dev 0.0.3), which Swift's C++ interop
// cannot import whole (its cameras are shared_ptr'd classes and its signals are templates):
// the booth finds cameras, lists their modes, and films one of them, each finished frame
// handed to a C callback on libcamera's own thread. Every call returns at once or says why not.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// libcamera's camera manager, started: what finds the cameras.
typedef struct pb_lc_manager pb_lc_manager;
/// One camera, acquired, configured for one stream, with its buffers mapped.
typedef struct pb_lc_camera pb_lc_camera;

/// A finished frame, valid during the callback only. `planes` are mapped read-only.
typedef struct {
    /// The buffer's number.
    int32_t buffer;
    /// The sensor's timestamp of the frame's start of exposure, in nanoseconds of the monotonic
    /// clock (libcamera's SensorTimestamp, else the buffer's own).
    int64_t timestamp;
    uint32_t sequence;
    /// 0: complete; 1: cancelled (the camera stopped); 2: an error (the frame is lost);
    /// 3: the camera refused the buffer back (`error` says why: it is gone).
    int32_t status;
    /// The errno of status 3.
    int32_t error;
    uint32_t plane_count;
    const uint8_t *planes[3];
    size_t lengths[3];
} pb_lc_frame;

typedef void (*pb_lc_frame_callback)(void *context, const pb_lc_frame *frame);

/// Starts libcamera's camera manager; NULL with `error` filled on failure.
pb_lc_manager *pb_lc_manager_start(char *error, size_t error_size);
void pb_lc_manager_stop(pb_lc_manager *manager);
/// How many cameras libcamera found.
int32_t pb_lc_camera_count(pb_lc_manager *manager);
/// Camera `index`'s id (a path such as "/base/soc/i2c0mux/i2c@1/imx708@1a", or
/// "platform/vimc.0 Sensor B") into `id`; 0, or -1 when there is no such camera.
int32_t pb_lc_camera_id(pb_lc_manager *manager, int32_t index, char *id, size_t id_size);
/// The still-capture stream's pixel formats and sizes of camera `id`, one line each
/// ("YUV420 640x480-4056x3040"), into `text`; 0, or -1 when there is no such camera.
int32_t pb_lc_camera_modes(pb_lc_manager *manager, const char *id, char *text, size_t text_size);

/// Acquires camera `id` and configures one stream of about `width` x `height` in the first
/// of `formats` (DRM fourcc codes, as libcamera names formats) it offers; NULL with `error`
/// filled on failure.
pb_lc_camera *pb_lc_open(
    pb_lc_manager *manager, const char *id, uint32_t width, uint32_t height, const uint32_t *formats, size_t format_count,
    pb_lc_frame_callback callback, void *context, char *error, size_t error_size);
/// The stream as configured: size, format (DRM fourcc) and bytes per row of the first plane.
void pb_lc_stream(pb_lc_camera *camera, uint32_t *width, uint32_t *height, uint32_t *format, uint32_t *stride);
/// The stream as configured, in libcamera's words ("640x480-YUV420 sYCC (4 buffers)").
void pb_lc_stream_text(pb_lc_camera *camera, char *text, size_t text_size);
/// Camera `id`'s sensor model ("imx708"; empty when the pipeline names none) into `text`; 0,
/// or -1 when there is no such camera.
int32_t pb_lc_camera_model(pb_lc_manager *manager, const char *id, char *text, size_t text_size);
/// Starts the camera at `frames_per_second` (where it lets it be set; 0 for its own rate) and
/// queues every buffer; 0 or a negative errno. Each buffer goes back to the camera once the
/// callback for its frame has returned.
int32_t pb_lc_start(pb_lc_camera *camera, uint32_t frames_per_second);
/// 1 when a camera device node libcamera has open was removed (the camera, or another, was
/// unplugged or its driver unbound), else 0.
int32_t pb_lc_gone(pb_lc_camera *camera);
/// Stops the camera (pending frames come back cancelled) and releases it; a camera whose
/// device went away is not stopped (libcamera 0.0.3 would abort).
void pb_lc_close(pb_lc_camera *camera);

#ifdef __cplusplus
}
#endif

#endif
