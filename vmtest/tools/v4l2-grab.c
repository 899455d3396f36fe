/*
 * v4l2-grab DEVICE OUTPREFIX [COUNT [TIMEOUT_MS]]
 *
 * Captures COUNT (default 1) frames from a V4L2 capture device with mmap streaming in the
 * device's current format, and writes frame i's bytesused bytes to OUTPREFIX-i. Prints the
 * format once and one line per frame. Exits 1 when a frame does not arrive within TIMEOUT_MS
 * (default 5000).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define NBUF 4

static int xioctl(int fd, unsigned long request, void *arg)
{
    int r;
    do {
        r = ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

static void fail(const char *what, const char *device)
{
    fprintf(stderr, "v4l2-grab: %s on %s: %s\n", what, device, strerror(errno));
    exit(1);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: v4l2-grab DEVICE OUTPREFIX [COUNT [TIMEOUT_MS]]\n");
        return 2;
    }
    const char *device = argv[1];
    const char *prefix = argv[2];
    int count = argc > 3 ? atoi(argv[3]) : 1;
    int timeout_ms = argc > 4 ? atoi(argv[4]) : 5000;

    int fd = open(device, O_RDWR | O_NONBLOCK);
    if (fd < 0)
        fail("open", device);

    struct v4l2_format fmt;
    memset(&fmt, 0, sizeof fmt);
    fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(fd, VIDIOC_G_FMT, &fmt) != 0)
        fail("VIDIOC_G_FMT", device);
    __u32 pf = fmt.fmt.pix.pixelformat;
    printf("format %c%c%c%c %ux%u bytesperline %u sizeimage %u\n", pf & 0xff, (pf >> 8) & 0xff,
           (pf >> 16) & 0xff, (pf >> 24) & 0xff, fmt.fmt.pix.width, fmt.fmt.pix.height,
           fmt.fmt.pix.bytesperline, fmt.fmt.pix.sizeimage);
    fflush(stdout);

    struct v4l2_requestbuffers req;
    memset(&req, 0, sizeof req);
    req.count = NBUF;
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    if (xioctl(fd, VIDIOC_REQBUFS, &req) != 0)
        fail("VIDIOC_REQBUFS", device);
    if (req.count == 0) {
        fprintf(stderr, "v4l2-grab: %s gave no buffers\n", device);
        return 1;
    }

    void *maps[NBUF] = {0};
    for (unsigned i = 0; i < req.count && i < NBUF; i++) {
        struct v4l2_buffer buf;
        memset(&buf, 0, sizeof buf);
        buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        buf.memory = V4L2_MEMORY_MMAP;
        buf.index = i;
        if (xioctl(fd, VIDIOC_QUERYBUF, &buf) != 0)
            fail("VIDIOC_QUERYBUF", device);
        maps[i] = mmap(NULL, buf.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, buf.m.offset);
        if (maps[i] == MAP_FAILED)
            fail("mmap", device);
        if (xioctl(fd, VIDIOC_QBUF, &buf) != 0)
            fail("VIDIOC_QBUF", device);
    }

    enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(fd, VIDIOC_STREAMON, &type) != 0)
        fail("VIDIOC_STREAMON", device);

    for (int n = 0; n < count; n++) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r;
        do {
            r = poll(&pfd, 1, timeout_ms);
        } while (r < 0 && errno == EINTR);
        if (r == 0) {
            fprintf(stderr, "v4l2-grab: no frame from %s within %d ms\n", device, timeout_ms);
            return 1;
        }
        if (r < 0)
            fail("poll", device);

        struct v4l2_buffer buf;
        memset(&buf, 0, sizeof buf);
        buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        buf.memory = V4L2_MEMORY_MMAP;
        if (xioctl(fd, VIDIOC_DQBUF, &buf) != 0) {
            if (errno == EAGAIN) {
                n--;
                continue;
            }
            fail("VIDIOC_DQBUF", device);
        }

        char path[4096];
        snprintf(path, sizeof path, "%s-%d", prefix, n);
        FILE *out = fopen(path, "wb");
        if (!out || fwrite(maps[buf.index], 1, buf.bytesused, out) != buf.bytesused ||
            fclose(out) != 0) {
            fprintf(stderr, "v4l2-grab: cannot write %s: %s\n", path, strerror(errno));
            return 1;
        }
        printf("frame %d sequence %u bytesused %u -> %s\n", n, buf.sequence, buf.bytesused, path);
        fflush(stdout);

        if (xioctl(fd, VIDIOC_QBUF, &buf) != 0)
            fail("VIDIOC_QBUF", device);
    }

    xioctl(fd, VIDIOC_STREAMOFF, &type);
    close(fd);
    return 0;
}
