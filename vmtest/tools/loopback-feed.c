/*
 * loopback-feed DEVICE FOURCC WIDTH HEIGHT FPS FILE...
 *
 * Plays the part of a webcam behind a v4l2loopback device: opens DEVICE as a video output,
 * sets the format (FOURCC "MJPG" or "BA81") and frame rate, then write()s the FILEs, one per
 * frame, in a loop at FPS frames per second until killed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct frame {
    char *data;
    size_t size;
};

static int xioctl(int fd, unsigned long request, void *arg)
{
    int r;
    do {
        r = ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

static struct frame read_file(const char *path)
{
    struct frame f = {0};
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "loopback-feed: cannot open %s: %s\n", path, strerror(errno));
        exit(1);
    }
    struct stat st;
    if (fstat(fileno(fp), &st) != 0 || st.st_size <= 0) {
        fprintf(stderr, "loopback-feed: %s is empty or unreadable\n", path);
        exit(1);
    }
    f.size = (size_t)st.st_size;
    f.data = malloc(f.size);
    if (!f.data || fread(f.data, 1, f.size, fp) != f.size) {
        fprintf(stderr, "loopback-feed: cannot read %s\n", path);
        exit(1);
    }
    fclose(fp);
    return f;
}

static void timespec_add_ns(struct timespec *t, long ns)
{
    t->tv_nsec += ns;
    while (t->tv_nsec >= 1000000000L) {
        t->tv_nsec -= 1000000000L;
        t->tv_sec++;
    }
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: loopback-feed DEVICE MJPG|BA81 WIDTH HEIGHT FPS FILE...\n");
        return 2;
    }
    const char *device = argv[1];
    const char *fourcc = argv[2];
    unsigned width = (unsigned)strtoul(argv[3], NULL, 10);
    unsigned height = (unsigned)strtoul(argv[4], NULL, 10);
    unsigned fps = (unsigned)strtoul(argv[5], NULL, 10);
    int nframes = argc - 6;
    if (width == 0 || height == 0 || fps == 0) {
        fprintf(stderr, "loopback-feed: WIDTH, HEIGHT and FPS must be positive\n");
        return 2;
    }

    __u32 pixelformat;
    if (strcmp(fourcc, "MJPG") == 0) {
        pixelformat = V4L2_PIX_FMT_MJPEG;
    } else if (strcmp(fourcc, "BA81") == 0) {
        pixelformat = V4L2_PIX_FMT_SBGGR8;
    } else {
        fprintf(stderr, "loopback-feed: unsupported fourcc %s (MJPG or BA81)\n", fourcc);
        return 2;
    }

    struct frame *frames = calloc((size_t)nframes, sizeof *frames);
    size_t largest = 0;
    for (int i = 0; i < nframes; i++) {
        frames[i] = read_file(argv[6 + i]);
        if (frames[i].size > largest)
            largest = frames[i].size;
    }

    int fd = open(device, O_RDWR);
    if (fd < 0) {
        fprintf(stderr, "loopback-feed: cannot open %s: %s\n", device, strerror(errno));
        return 1;
    }

    struct v4l2_format fmt;
    memset(&fmt, 0, sizeof fmt);
    fmt.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    fmt.fmt.pix.width = width;
    fmt.fmt.pix.height = height;
    fmt.fmt.pix.pixelformat = pixelformat;
    fmt.fmt.pix.field = V4L2_FIELD_NONE;
    if (pixelformat == V4L2_PIX_FMT_MJPEG) {
        fmt.fmt.pix.bytesperline = 0;
        fmt.fmt.pix.sizeimage = (__u32)largest;
        fmt.fmt.pix.colorspace = V4L2_COLORSPACE_JPEG;
    } else {
        fmt.fmt.pix.bytesperline = width;
        fmt.fmt.pix.sizeimage = width * height;
        fmt.fmt.pix.colorspace = V4L2_COLORSPACE_RAW;
        for (int i = 0; i < nframes; i++) {
            if (frames[i].size != (size_t)width * height) {
                fprintf(stderr, "loopback-feed: %s has %zu bytes, BA81 %ux%u needs %u\n",
                        argv[6 + i], frames[i].size, width, height, width * height);
                return 2;
            }
        }
    }
    if (xioctl(fd, VIDIOC_S_FMT, &fmt) != 0) {
        fprintf(stderr, "loopback-feed: VIDIOC_S_FMT on %s: %s\n", device, strerror(errno));
        return 1;
    }
    if (fmt.fmt.pix.pixelformat != pixelformat || fmt.fmt.pix.width != width ||
        fmt.fmt.pix.height != height) {
        fprintf(stderr, "loopback-feed: %s refused %s %ux%u\n", device, fourcc, width, height);
        return 1;
    }

    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    parm.parm.output.timeperframe.numerator = 1;
    parm.parm.output.timeperframe.denominator = fps;
    if (xioctl(fd, VIDIOC_S_PARM, &parm) != 0)
        fprintf(stderr, "loopback-feed: VIDIOC_S_PARM (frame rate) not accepted: %s\n",
                strerror(errno));

    printf("loopback-feed: writing %d frame(s) %s %ux%u at %u fps to %s (sizeimage %u)\n",
           nframes, fourcc, width, height, fps, device, fmt.fmt.pix.sizeimage);
    fflush(stdout);

    long period_ns = 1000000000L / (long)fps;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (unsigned long n = 0;; n++) {
        const struct frame *f = &frames[n % (unsigned long)nframes];
        ssize_t w;
        do {
            w = write(fd, f->data, f->size);
        } while (w < 0 && errno == EINTR);
        if (w < 0) {
            fprintf(stderr, "loopback-feed: write to %s: %s\n", device, strerror(errno));
            return 1;
        }
        timespec_add_ns(&next, period_ns);
        int r;
        do {
            r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        } while (r == EINTR);
    }
}
