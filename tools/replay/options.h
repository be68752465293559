/*
 * The command-line options every replay tool takes (utouch-replay,
 * utouch-plot): subscriptions, the device description, the client's
 * policy and the framing of the evdev stream.  Each tool adds its own
 * options to the same getopt_long() loop and hands the codes it does not
 * know to replay_opts_handle().
 */
#ifndef UTOUCH_REPLAY_OPTIONS_H
#define UTOUCH_REPLAY_OPTIONS_H

#include <getopt.h>
#include <stddef.h>

#include "input/evdev/evstream.h"
#include "run.h"
#include "subspec.h"

/** getopt codes of the shared long options without a short letter; a tool's
 * own codes start at REPLAY_OPT_TOOL. */
enum {
	REPLAY_OPT_POLICY = 256, REPLAY_OPT_REJECT, REPLAY_OPT_X11, REPLAY_OPT_SPLIT,
	REPLAY_OPT_REVERSE, REPLAY_OPT_BEGIN_FIRST, REPLAY_OPT_OWN, REPLAY_OPT_DIRECT,
	REPLAY_OPT_INDIRECT, REPLAY_OPT_SCREEN, REPLAY_OPT_WINDOW_RES,
	REPLAY_OPT_TOOL = 512,
};

/** The shared entries of a struct option table (-s and -d included). */
#define REPLAY_OPTS_LONGOPTS \
	{ "sub", required_argument, NULL, 's' }, \
	{ "device", required_argument, NULL, 'd' }, \
	{ "policy", required_argument, NULL, REPLAY_OPT_POLICY }, \
	{ "reject", no_argument, NULL, REPLAY_OPT_REJECT }, \
	{ "x11", no_argument, NULL, REPLAY_OPT_X11 }, \
	{ "split", no_argument, NULL, REPLAY_OPT_SPLIT }, \
	{ "reverse", no_argument, NULL, REPLAY_OPT_REVERSE }, \
	{ "begin-first", no_argument, NULL, REPLAY_OPT_BEGIN_FIRST }, \
	{ "own", required_argument, NULL, REPLAY_OPT_OWN }, \
	{ "direct", no_argument, NULL, REPLAY_OPT_DIRECT }, \
	{ "indirect", no_argument, NULL, REPLAY_OPT_INDIRECT }, \
	{ "screen", required_argument, NULL, REPLAY_OPT_SCREEN }, \
	{ "window-res", required_argument, NULL, REPLAY_OPT_WINDOW_RES }

/** The short letters of the shared options, for getopt_long()'s optstring. */
#define REPLAY_OPTS_SHORT "s:d:"

/** Help text of the shared options, one line each, for usage messages. */
extern const char replay_opts_help[];

/** What the options say. */
struct replay_opts {
	struct subspec subs[REPLAY_MAX_SUBS];
	int nsubs;
	const char *devfile;          /**< NULL: the recording's own description */
	enum replay_policy policy;
	struct ut_evstream_opts stream;
	float window_res;
};

/** Defaults: no subscription yet, policy accept, X11-style ownership
 * events, device type from the recording, a 1024x768 screen. */
void replay_opts_init(struct replay_opts *o);

/**
 * Apply getopt code @p c with argument @p arg.  Returns 1 when the code is
 * a shared option and was applied, 0 when it is not a shared option, or -1
 * with a message in @p err when its argument is bad.
 */
int replay_opts_handle(struct replay_opts *o, int c, const char *arg,
		       char *err, size_t errlen);

/** After parsing: add the default subscription (mask=drag) when none was
 * given. */
void replay_opts_finish(struct replay_opts *o);

/**
 * Load the recording at @p path with the options' device description and
 * build its script with the options' framing.  Returns 0, or -1 with
 * "PATH[:LINE]: what is wrong" in @p err and nothing left allocated.
 */
int replay_opts_load(const struct replay_opts *o, const char *path,
		     struct ut_recording **rec, struct ut_script *script,
		     char *err, size_t errlen);

/**
 * Open the recording at @p path as a stream (ut_recording_open()) with the
 * options' device description and open its streamed script with the
 * options' framing: memory does not depend on the recording's length.
 * Returns 0, or -1 with "PATH[:LINE]: what is wrong" in @p err and
 * nothing left open.  The caller releases the script, then closes the
 * reader.
 */
int replay_opts_open(const struct replay_opts *o, const char *path,
		     struct ut_recording_reader **reader, struct ut_script *script,
		     char *err, size_t errlen);

/** Fill the configuration part of @p run from the options: the device
 * @p dev, and @p script (built or streamed). */
void replay_opts_configure(const struct replay_opts *o, struct replay_run *run,
			   const struct libevdev *dev, struct ut_script *script);

#endif
