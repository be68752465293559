/*
 * Evdev nodes without a kernel: descriptors (read ends of pipes, or
 * anything opened on a registered FIFO path) whose evdev ioctls this
 * helper answers from a recording's capabilities and a slot state the
 * test controls, so that libevdev accepts them as devices: EVIOCGBIT,
 * EVIOCGABS, EVIOCGMTSLOTS, EVIOCGNAME, EVIOCGID, EVIOCGPROP, EVIOCGRAB
 * (which a test may make fail with an errno), EVIOCSCLOCKID, ...
 *
 * The helper defines no ioctl() of its own: the test's interposer asks
 * fe_try_ioctl() first (tests/evdev-live defines one; fake-uinput.h's
 * ioctl() does it through fu_set_chain()).  It does define read(): the
 * reads of a fake device marked unplugged fail with ENODEV, as the
 * kernel's do for a node that went away; every other read is the C
 * library's.  A program that relies on it exports it to the libraries
 * (fake_evdev_dep links with -Wl,--export-dynamic-symbol=read).
 */
#ifndef UTOUCH_TEST_FAKE_EVDEV_H
#define UTOUCH_TEST_FAKE_EVDEV_H

#include <stdint.h>
#include <sys/types.h>

#include <libevdev/libevdev.h>

/** Slots each fake device reports. */
#define FE_SLOTS 10
/** Fake devices at once. */
#define FE_MAX 4

/** One fake node. */
struct fe_device {
	int fd;                          /**< the descriptor it answers, -1: by path */
	char path[256];                  /**< the FIFO it answers for, "" : by fd */
	const struct libevdev *caps;     /**< what it says it is */
	int cur_slot;                    /**< ABS_MT_SLOT's value */
	int32_t tracking[FE_SLOTS], x[FE_SLOTS], y[FE_SLOTS];   /**< the slot state */
	int grab, clock;                 /**< last values set */
	int grab_calls, clock_calls, mtslots_calls;
	int fail_grab;                   /**< errno for EVIOCGRAB, 0: it works */
	int unplugged;                   /**< reads fail with ENODEV (see read() below) */
};

/** The fake devices; fe_reset() empties them. */
extern struct fe_device fe_devices[FE_MAX];

/** Forget every fake device. */
void fe_reset(void);

/**
 * A fake device answering for descriptor @p fd (@p path NULL) or for every
 * descriptor open on @p path (@p fd ignored), with the capabilities of
 * @p caps (kept, not copied) and every slot empty.
 *
 * @return it, NULL when FE_MAX are in use
 */
struct fe_device *fe_add(int fd, const char *path, const struct libevdev *caps);

/** The fake device @p fd belongs to, NULL when none. */
struct fe_device *fe_of(int fd);

/**
 * Answer an ioctl when @p fd is a fake device's.
 *
 * @return 1 with *rc the ioctl's result (errno set on -1), 0 when @p fd
 *         is no fake device's
 */
int fe_try_ioctl(int fd, unsigned long req, void *arg, int *rc);

/** A fake device on a FIFO of a device directory. */
struct fe_fifo {
	char path[256];           /**< DIR/eventN */
	int wfd;                  /**< the test's end: write its events here */
	struct fe_device *dev;    /**< what it answers */
};

/**
 * Make FIFOs @p dir/event0 .. event<n-1> (@p dir exists), open the test's
 * end of each (so that they always have a writer) and register them as
 * fake devices with the capabilities of @p caps; fails the test on error.
 */
void fe_fifo_open(struct fe_fifo *f, size_t n, const char *dir, const struct libevdev *caps);

/** Close the test's ends and remove the FIFOs (their fake devices stay
 *  until fe_reset()). */
void fe_fifo_close(struct fe_fifo *f, size_t n);

/**
 * Descriptors of this process open on @p path (NULL: all of them), to
 * check that nothing leaks.
 */
int fe_open_fds(const char *path);

/**
 * Start a process that holds @p path open (what /proc shows of a program
 * that holds a device's grab) and waits; it fails the test when the
 * process cannot open it.  fe_hold_stop() ends it.
 */
pid_t fe_hold_open(const char *path);

/** Stop the process fe_hold_open() started (*@p pid > 0) and reap it; *@p pid becomes 0. */
void fe_hold_stop(pid_t *pid);

#endif
