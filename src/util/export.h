/*
 * The mark of libutouch-frame's private version node.
 *
 * Functions declared with UT_FRAME_PRIVATE are exported by libutouch-frame
 * in the node UTOUCH_FRAME_PRIVATE_<project version> for grail, geis, the
 * compositor library and the tools of this tree (src/frame/frame-peer.h
 * says more).  The mark lives here because util/log.c, which
 * libutouch-frame builds, uses it too, and util/ includes no layer's
 * headers.
 */
#ifndef UTOUCH_UTIL_EXPORT_H
#define UTOUCH_UTIL_EXPORT_H

#if defined(__GNUC__)
#define UT_FRAME_PRIVATE __attribute__((visibility("default")))
#else
#define UT_FRAME_PRIVATE
#endif

#endif /* UTOUCH_UTIL_EXPORT_H */
