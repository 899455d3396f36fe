/*
 * v4l2-control DEVICE NAME VALUE
 *
 * Sets the integer control called NAME (as VIDIOC_QUERYCTRL names it, e.g. "Integer 32 Bits")
 * of a V4L2 device to VALUE, and prints "NAME = VALUE". Exits 1 when the device has no such
 * control or refuses the value.
 *
 * The test images use it to make vivid's frames differ from one boot to the next: vivid draws
 * the time since streaming started and the frame's sequence number, so the same frame of two
 * boots would otherwise be the same picture, byte for byte.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int xioctl(int fd, unsigned long request, void *arg)
{
    int r;
    do {
        r = ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: v4l2-control DEVICE NAME VALUE\n");
        return 2;
    }
    const char *device = argv[1], *name = argv[2];
    char *end;
    errno = 0;
    long value = strtol(argv[3], &end, 0);
    if (errno != 0 || *end != '\0' || end == argv[3]) {
        fprintf(stderr, "v4l2-control: %s is not an integer\n", argv[3]);
        return 2;
    }
    int fd = open(device, O_RDWR);
    if (fd < 0) {
        fprintf(stderr, "v4l2-control: open %s: %s\n", device, strerror(errno));
        return 1;
    }
    struct v4l2_queryctrl query;
    memset(&query, 0, sizeof query);
    query.id = V4L2_CTRL_FLAG_NEXT_CTRL;
    while (xioctl(fd, VIDIOC_QUERYCTRL, &query) == 0) {
        if (strncmp((const char *)query.name, name, sizeof query.name) == 0) {
            struct v4l2_control control = {.id = query.id, .value = (__s32)value};
            if (value < query.minimum || value > query.maximum) {
                fprintf(stderr, "v4l2-control: %s takes %d to %d, not %ld\n", name, query.minimum, query.maximum,
                        value);
                return 1;
            }
            if (xioctl(fd, VIDIOC_S_CTRL, &control) != 0) {
                fprintf(stderr, "v4l2-control: VIDIOC_S_CTRL %s on %s: %s\n", name, device, strerror(errno));
                return 1;
            }
            printf("%s = %d\n", name, control.value);
            return 0;
        }
        query.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
    }
    fprintf(stderr, "v4l2-control: %s has no control called \"%s\"\n", device, name);
    return 1;
}
