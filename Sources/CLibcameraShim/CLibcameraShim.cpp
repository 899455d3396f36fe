#include "CLibcameraShim.h"

#include <libcamera/libcamera.h>
#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace libcamera;

struct pb_lc_manager {
    CameraManager cameras;
};

namespace {

void say(char *buffer, size_t size, const std::string &text) {
    if (buffer != nullptr && size > 0) std::snprintf(buffer, size, "%s", text.c_str());
}

/// A buffer's planes, mapped once for the camera's life.
struct Mapping {
    std::vector<std::pair<const uint8_t *, size_t>> planes;
    std::vector<std::pair<void *, size_t>> regions;
};

/// Whether a device node this process has open (a camera's /dev/video*, /dev/v4l-subdev* or
/// /dev/media*, which only libcamera opens in the booth) was removed: its device went away.
bool deviceNodeRemoved() {
    DIR *folder = opendir("/proc/self/fd");
    if (folder == nullptr) return false;
    bool removed = false;
    while (dirent *entry = readdir(folder)) {
        char target[256];
        std::string link = std::string("/proc/self/fd/") + entry->d_name;
        ssize_t length = readlink(link.c_str(), target, sizeof(target) - 1);
        if (length <= 0) continue;
        std::string path(target, static_cast<size_t>(length));
        bool camera = path.rfind("/dev/video", 0) == 0 || path.rfind("/dev/v4l-subdev", 0) == 0 || path.rfind("/dev/media", 0) == 0;
        const std::string deleted = " (deleted)";
        if (camera && path.size() > deleted.size() && path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0) {
            removed = true;
            break;
        }
    }
    closedir(folder);
    return removed;
}

}  // namespace

struct pb_lc_camera {
    std::shared_ptr<Camera> camera;
    std::unique_ptr<CameraConfiguration> configuration;
    std::unique_ptr<FrameBufferAllocator> allocator;
    std::vector<std::unique_ptr<Request>> requests;
    std::vector<Mapping> mappings;
    Stream *stream = nullptr;
    pb_lc_frame_callback callback = nullptr;
    void *context = nullptr;
    bool started = false;
    std::atomic<bool> stopping{false};

    /// On libcamera's thread: hands the finished request's frame over.
    void completed(Request *request) {
        pb_lc_frame frame{};
        frame.buffer = static_cast<int32_t>(request->cookie());
        frame.status = request->status() == Request::RequestComplete ? 0 : request->status() == Request::RequestCancelled ? 1 : 2;
        if (auto timestamp = request->metadata().get(controls::SensorTimestamp)) frame.timestamp = *timestamp;
        auto found = request->buffers().find(stream);
        if (found != request->buffers().end()) {
            const FrameMetadata &metadata = found->second->metadata();
            frame.sequence = metadata.sequence;
            // The buffer's own time where the pipeline gave no sensor timestamp: the driver's,
            // on the same monotonic clock.
            if (frame.timestamp == 0) frame.timestamp = static_cast<int64_t>(metadata.timestamp);
            if (metadata.status == FrameMetadata::FrameError) frame.status = 2;
            const Mapping &mapping = mappings.at(frame.buffer);
            frame.plane_count = static_cast<uint32_t>(std::min<size_t>(3, mapping.planes.size()));
            for (uint32_t plane = 0; plane < frame.plane_count; ++plane) {
                frame.planes[plane] = mapping.planes[plane].first;
                // What the camera filled, never more than the mapping.
                size_t used = plane < metadata.planes().size() ? metadata.planes()[plane].bytesused : 0;
                frame.lengths[plane] = std::min(used, mapping.planes[plane].second);
            }
        }
        callback(context, &frame);
        // The buffer goes back to the camera once its frame is copied, but not while stopping.
        if (request->status() == Request::RequestCancelled || stopping) return;
        request->reuse(Request::ReuseBuffers);
        if (int status = camera->queueRequest(request); status != 0) {
            pb_lc_frame refused{};
            refused.buffer = frame.buffer;
            refused.status = 3;
            refused.error = -status;
            callback(context, &refused);
        }
    }
};

extern "C" pb_lc_manager *pb_lc_manager_start(char *error, size_t error_size) {
    auto manager = std::make_unique<pb_lc_manager>();
    int status = manager->cameras.start();
    if (status != 0) {
        say(error, error_size, std::string("libcamera's camera manager cannot start: ") + std::strerror(-status));
        return nullptr;
    }
    return manager.release();
}

extern "C" void pb_lc_manager_stop(pb_lc_manager *manager) {
    if (manager == nullptr) return;
    manager->cameras.stop();
    delete manager;
}

extern "C" int32_t pb_lc_camera_count(pb_lc_manager *manager) {
    return static_cast<int32_t>(manager->cameras.cameras().size());
}

extern "C" int32_t pb_lc_camera_id(pb_lc_manager *manager, int32_t index, char *id, size_t id_size) {
    auto cameras = manager->cameras.cameras();
    if (index < 0 || static_cast<size_t>(index) >= cameras.size()) return -1;
    say(id, id_size, cameras[index]->id());
    return 0;
}

extern "C" int32_t pb_lc_camera_modes(pb_lc_manager *manager, const char *id, char *text, size_t text_size) {
    std::shared_ptr<Camera> camera = manager->cameras.get(id);
    if (!camera) return -1;
    std::unique_ptr<CameraConfiguration> configuration = camera->generateConfiguration({StreamRole::StillCapture});
    if (!configuration || configuration->empty()) {
        say(text, text_size, "");
        return 0;
    }
    std::string lines;
    const StreamFormats &formats = configuration->at(0).formats();
    for (const PixelFormat &format : formats.pixelformats()) {
        SizeRange range = formats.range(format);
        lines += format.toString() + " " + range.min.toString() + "-" + range.max.toString() + "\n";
    }
    say(text, text_size, lines);
    return 0;
}

extern "C" pb_lc_camera *pb_lc_open(
    pb_lc_manager *manager, const char *id, uint32_t width, uint32_t height, const uint32_t *formats, size_t format_count,
    pb_lc_frame_callback callback, void *context, char *error, size_t error_size) {
    auto opened = std::make_unique<pb_lc_camera>();
    opened->camera = manager->cameras.get(id);
    if (!opened->camera) {
        say(error, error_size, std::string("libcamera has no camera ") + id);
        return nullptr;
    }
    if (int status = opened->camera->acquire(); status != 0) {
        say(error, error_size, std::string("the camera is in use by another program: ") + std::strerror(-status));
        return nullptr;
    }
    // A camera acquired is given back on every way out below: requests and buffers first
    // (libcamera refuses to release a camera whose buffers are allocated), then the mappings.
    auto release = [&opened]() {
        opened->requests.clear();
        opened->allocator.reset();
        for (auto &mapping : opened->mappings) {
            for (auto &region : mapping.regions) munmap(region.first, region.second);
        }
        opened->camera->release();
    };
    opened->configuration = opened->camera->generateConfiguration({StreamRole::VideoRecording});
    if (!opened->configuration || opened->configuration->empty()) {
        release();
        say(error, error_size, "the camera offers no video stream");
        return nullptr;
    }
    StreamConfiguration &stream = opened->configuration->at(0);
    stream.size = Size(width, height);
    const std::vector<PixelFormat> offered = stream.formats().pixelformats();
    for (size_t index = 0; index < format_count; ++index) {
        PixelFormat wanted(formats[index]);
        bool found = false;
        for (const PixelFormat &format : offered) found = found || format == wanted;
        if (found) {
            stream.pixelFormat = wanted;
            break;
        }
    }
    // YUV as JPEG has it (full-range BT.601): the booth encodes the shot from the planes as
    // they are, without converting colours.
    if (stream.pixelFormat == formats::YUV420) stream.colorSpace = ColorSpace::Sycc;
    if (opened->configuration->validate() == CameraConfiguration::Invalid) {
        release();
        say(error, error_size, "the camera cannot be configured for " + stream.toString());
        return nullptr;
    }
    if (int status = opened->camera->configure(opened->configuration.get()); status != 0) {
        release();
        say(error, error_size, "configuring " + stream.toString() + " failed: " + std::strerror(-status));
        return nullptr;
    }
    opened->stream = stream.stream();
    opened->allocator = std::make_unique<FrameBufferAllocator>(opened->camera);
    if (opened->allocator->allocate(opened->stream) < 0) {
        release();
        say(error, error_size, "the camera's buffers cannot be allocated");
        return nullptr;
    }
    const auto &buffers = opened->allocator->buffers(opened->stream);
    for (size_t index = 0; index < buffers.size(); ++index) {
        Mapping mapping;
        for (const FrameBuffer::Plane &plane : buffers[index]->planes()) {
            // Planes may share one dma-buf at offsets: map from 0 to the plane's end.
            size_t length = plane.offset + plane.length;
            void *region = mmap(nullptr, length, PROT_READ, MAP_SHARED, plane.fd.get(), 0);
            if (region == MAP_FAILED) {
                opened->mappings.push_back(std::move(mapping));
                release();
                say(error, error_size, std::string("mapping a camera buffer failed: ") + std::strerror(errno));
                return nullptr;
            }
            mapping.regions.push_back({region, length});
            mapping.planes.push_back({static_cast<const uint8_t *>(region) + plane.offset, plane.length});
        }
        opened->mappings.push_back(std::move(mapping));
        std::unique_ptr<Request> request = opened->camera->createRequest(index);
        if (!request || request->addBuffer(opened->stream, buffers[index].get()) != 0) {
            release();
            say(error, error_size, "a capture request cannot be made");
            return nullptr;
        }
        opened->requests.push_back(std::move(request));
    }
    opened->callback = callback;
    opened->context = context;
    opened->camera->requestCompleted.connect(opened.get(), &pb_lc_camera::completed);
    return opened.release();
}

extern "C" void pb_lc_stream(pb_lc_camera *camera, uint32_t *width, uint32_t *height, uint32_t *format, uint32_t *stride) {
    const StreamConfiguration &stream = camera->configuration->at(0);
    *width = stream.size.width;
    *height = stream.size.height;
    *format = stream.pixelFormat.fourcc();
    *stride = stream.stride;
}

extern "C" void pb_lc_stream_text(pb_lc_camera *camera, char *text, size_t text_size) {
    const StreamConfiguration &stream = camera->configuration->at(0);
    say(text, text_size, stream.toString() + " " + ColorSpace::toString(stream.colorSpace) + " (" +
        std::to_string(stream.bufferCount) + " buffers)");
}

extern "C" int32_t pb_lc_camera_model(pb_lc_manager *manager, const char *id, char *text, size_t text_size) {
    std::shared_ptr<Camera> camera = manager->cameras.get(id);
    if (!camera) return -1;
    const auto model = camera->properties().get(properties::Model);
    say(text, text_size, model ? *model : std::string());
    return 0;
}

extern "C" int32_t pb_lc_start(pb_lc_camera *camera, uint32_t frames_per_second) {
    // The frame rate, where the camera lets it be set (vimc does not).
    ControlList controls(controls::controls);
    if (frames_per_second > 0 && camera->camera->controls().count(&controls::FrameDurationLimits) > 0) {
        const int64_t frame = 1000000 / frames_per_second;
        controls.set(controls::FrameDurationLimits, Span<const int64_t, 2>({frame, frame}));
    }
    if (int status = camera->camera->start(&controls); status != 0) return status;
    camera->started = true;
    for (auto &request : camera->requests) {
        if (int status = camera->camera->queueRequest(request.get()); status != 0) return status;
    }
    return 0;
}

extern "C" int32_t pb_lc_gone(pb_lc_camera *camera) {
    (void)camera;
    return deviceNodeRemoved() ? 1 : 0;
}

extern "C" void pb_lc_close(pb_lc_camera *camera) {
    if (camera == nullptr) return;
    camera->stopping = true;
    // A camera whose device went away is left as it is: libcamera 0.0.3 cannot stop it (its
    // devices refuse to stop streaming, so its requests never come back) and aborts the
    // process on that. Its buffers and devices are freed with the camera manager.
    if (camera->started && !deviceNodeRemoved()) camera->camera->stop();
    camera->camera->requestCompleted.disconnect(camera);
    camera->requests.clear();
    camera->allocator.reset();
    for (auto &mapping : camera->mappings) {
        for (auto &region : mapping.regions) munmap(region.first, region.second);
    }
    camera->camera->release();
    delete camera;
}
