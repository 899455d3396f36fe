#ifndef CV4L2_H
#define CV4L2_H

// V4L2 for Swift. The ioctl request numbers and pixel format codes are function-like macros
// (_IOWR, v4l2_fourcc) that Swift cannot import; they are re-exported here as constants that the
// C compiler computes from the kernel's own header, never hard-coded.
#include <linux/videodev2.h>
#include <stdint.h>
#include <stddef.h>

extern const unsigned long cv4l2_VIDIOC_QUERYCAP;
extern const unsigned long cv4l2_VIDIOC_ENUM_FMT;
extern const unsigned long cv4l2_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long cv4l2_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long cv4l2_VIDIOC_G_FMT;
extern const unsigned long cv4l2_VIDIOC_S_FMT;
extern const unsigned long cv4l2_VIDIOC_G_PARM;
extern const unsigned long cv4l2_VIDIOC_S_PARM;
extern const unsigned long cv4l2_VIDIOC_REQBUFS;
extern const unsigned long cv4l2_VIDIOC_QUERYBUF;
extern const unsigned long cv4l2_VIDIOC_QBUF;
extern const unsigned long cv4l2_VIDIOC_DQBUF;
extern const unsigned long cv4l2_VIDIOC_STREAMON;
extern const unsigned long cv4l2_VIDIOC_STREAMOFF;

extern const uint32_t cv4l2_PIX_FMT_MJPEG;
extern const uint32_t cv4l2_PIX_FMT_JPEG;
extern const uint32_t cv4l2_PIX_FMT_YUYV;
extern const uint32_t cv4l2_PIX_FMT_RGB24;

/// ioctl(2) on a V4L2 device, with a fixed argument. Returns 0 or -1 with errno set (the Swift
/// side retries on EINTR).
int cv4l2_ioctl(int fd, unsigned long request, void *argument);

/// libv4l2's v4l2_ioctl (variadic in C) with fixed arguments.
int cv4l2_libv4l2_ioctl(int fd, unsigned long request, void *argument);

/// libv4l2's v4l2_fd_open with the flag that lets it convert formats the device lacks.
int cv4l2_libv4l2_open(int fd);
int cv4l2_libv4l2_close(int fd);
void *cv4l2_libv4l2_mmap(void *start, size_t length, int prot, int flags, int fd, int64_t offset);
int cv4l2_libv4l2_munmap(void *start, size_t length);


#endif
