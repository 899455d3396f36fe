#ifndef CDRM_SHIM_H
#define CDRM_SHIM_H

// libdrm: kernel modesetting (KMS) with atomic commits, dumb buffers and page flip events.
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

// The pixel formats the booth draws or decodes into, as numbers: drm_fourcc.h builds them with
// a function-like macro, which Swift does not import.
static const uint32_t CDRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
static const uint32_t CDRM_FORMAT_ARGB8888 = DRM_FORMAT_ARGB8888;
static const uint32_t CDRM_FORMAT_YUV420 = DRM_FORMAT_YUV420;
static const uint32_t CDRM_FORMAT_YUV422 = DRM_FORMAT_YUV422;
static const uint32_t CDRM_FORMAT_YUV444 = DRM_FORMAT_YUV444;

#endif
