#include "cv4l2.h"

#include <libv4l2.h>
#include <sys/ioctl.h>

const unsigned long cv4l2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long cv4l2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long cv4l2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long cv4l2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long cv4l2_VIDIOC_G_FMT = VIDIOC_G_FMT;
const unsigned long cv4l2_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long cv4l2_VIDIOC_G_PARM = VIDIOC_G_PARM;
const unsigned long cv4l2_VIDIOC_S_PARM = VIDIOC_S_PARM;
const unsigned long cv4l2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
const unsigned long cv4l2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
const unsigned long cv4l2_VIDIOC_QBUF = VIDIOC_QBUF;
const unsigned long cv4l2_VIDIOC_DQBUF = VIDIOC_DQBUF;
const unsigned long cv4l2_VIDIOC_STREAMON = VIDIOC_STREAMON;
const unsigned long cv4l2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;

const uint32_t cv4l2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
const uint32_t cv4l2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
const uint32_t cv4l2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
const uint32_t cv4l2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;

int cv4l2_ioctl(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}

int cv4l2_libv4l2_ioctl(int fd, unsigned long request, void *argument) {
    return v4l2_ioctl(fd, request, argument);
}

int cv4l2_libv4l2_open(int fd) {
    // No V4L2_DISABLE_CONVERSION: conversion is why the booth goes through libv4l2 at all.
    return v4l2_fd_open(fd, 0);
}

int cv4l2_libv4l2_close(int fd) {
    return v4l2_close(fd);
}

void *cv4l2_libv4l2_mmap(void *start, size_t length, int prot, int flags, int fd, int64_t offset) {
    return v4l2_mmap(start, length, prot, flags, fd, offset);
}

int cv4l2_libv4l2_munmap(void *start, size_t length) {
    return v4l2_munmap(start, length);
}
