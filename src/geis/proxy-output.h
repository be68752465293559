/*
 * Where a touch proxy's clone goes (geis-proxy.c): a uinput device made
 * with the uinput ioctls, or an evemu recording of what that device would
 * emit (UTOUCH_GEIS_INIT_PROXY_OUTPUT).
 */
#ifndef UTOUCH_GEIS_PROXY_OUTPUT_H
#define UTOUCH_GEIS_PROXY_OUTPUT_H

#include <stddef.h>
#include <linux/input.h>

struct libevdev;
struct proxy_output;

/**
 * Create a uinput device described by @p desc (name, ids, properties,
 * every event code and axis) through the node @p node.
 * @return the output, or NULL with a message in @p err
 */
struct proxy_output *proxy_output_uinput(const char *node, const struct libevdev *desc,
					 char *err, size_t errlen);

/**
 * Write @p desc as the header of an evemu recording at @p path; events
 * follow as E: lines.
 * @return the output, or NULL with a message in @p err
 */
struct proxy_output *proxy_output_evemu(const char *path, const struct libevdev *desc,
					char *err, size_t errlen);

/** Write @p n events (a whole report, SYN_REPORT last). @return 0 or -errno */
int proxy_output_write(struct proxy_output *o, const struct input_event *evs, size_t n);

/** Remove the device / close the file; NULL is ignored. */
void proxy_output_close(struct proxy_output *o);

#endif
