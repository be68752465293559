/*
 * A uinput node without /dev/uinput: a regular file (or a FIFO) whose
 * uinput ioctls this helper answers, recording each one, while whatever
 * is written to it lands in the file.  Linking it defines ioctl() for the
 * whole program (export it with -Wl,--export-dynamic-symbol=ioctl so that
 * shared libraries reach it too); every descriptor that is not the node
 * goes to the C library's ioctl().  For the tests of the touch proxy and
 * of utouch-gestured's uinput devices, and the proxy benchmark.  Built as
 * a module too (fake_uinput_preload), for LD_PRELOAD into a program that
 * is run whole: the node is then $UTOUCH_TEST_FAKE_UINPUT.
 */
#ifndef UTOUCH_TEST_FAKE_UINPUT_H
#define UTOUCH_TEST_FAKE_UINPUT_H

#include <linux/input.h>
#include <linux/uinput.h>
#include <stddef.h>

/** One ioctl on the node. */
struct fu_call {
	unsigned long req;
	int value;                          /**< the bit or axis code, else 0 */
	struct input_absinfo abs;           /**< UI_ABS_SETUP */
	char name[UINPUT_MAX_NAME_SIZE];    /**< UI_DEV_SETUP */
	struct input_id id;                 /**< UI_DEV_SETUP */
};

/** The calls so far, in order. */
extern struct fu_call fu_calls[];
extern int fu_ncalls;

/** Answer the ioctls of descriptors open on @p path (copied). */
void fu_set_node(const char *path);

/**
 * Let another fake answer first: @p chain returns 1 with *rc set for the
 * descriptors it knows (fe_try_ioctl() of fake-evdev.h), 0 for the rest,
 * which go on to the node or the C library.  NULL: none.
 */
void fu_set_chain(int (*chain)(int fd, unsigned long req, void *arg, int *rc));

/** Make the node an empty regular file and forget the calls; 0 or -1. */
int fu_reset(void);

/** 1 when @p fd is open on the node. */
int fu_is_node(int fd);

/** Index of the first call of @p req (and @p value unless < 0) at or
 * after @p from, -1 when there is none. */
int fu_find(unsigned long req, int value, int from);

/** How many calls of @p req there were. */
int fu_count(unsigned long req);

/** Everything written to the node (a regular file), malloc'ed; NULL on
 * failure.  *n is the number of events. */
struct input_event *fu_written(size_t *n);

#endif
