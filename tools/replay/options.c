#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

const char replay_opts_help[] =
"  -s, --sub SPEC       subscription (repeatable), a comma list of\n"
"                       mask=drag|pinch|rotate|tap|touch|flick|all|hold|edge\n"
"                       (joined by +; all is grail 3.1's five, flick a drag),\n"
"                       start=N min=N max=N touches=N atomic=0|1\n"
"                       drag-timeout=MS drag-threshold=M (metres)\n"
"                       pinch-timeout=MS pinch-threshold=RATIO\n"
"                       rotate-timeout=MS rotate-threshold=RAD\n"
"                       tap-timeout=MS tap-threshold=M\n"
"                       utouch extensions: hold-timeout=MS hold-threshold=M\n"
"                       multitap-timeout=MS multitap-threshold=M\n"
"                       multitap-max=N edges=left+right+top+bottom|all\n"
"                       edge-margin=M edge-velocity=M/S velocity-window=MS\n"
"                       whole-hand=0|1 (only gestures of every touch down)\n"
"                       default: mask=drag (start=2, grail's defaults)\n"
"  -d, --device FILE    evemu device description (default: the recording's\n"
"                       own, or device.prop beside it)\n"
"      --policy P       accept (default) | accept-cf | reject | none\n"
"      --reject         same as --policy reject\n"
"      --x11            same as --split --reverse --own event\n"
"      --split          one frame per changed touch\n"
"      --reverse        walk slots from highest to lowest\n"
"      --begin-first    new touches first within a report\n"
"      --own MODE       event (ownership in its own frame, default) | begin\n"
"      --direct, --indirect   override the device type\n"
"      --screen WxH     window size for direct devices (default 1024x768)\n"
"      --window-res R   window resolution in px/m (default 0)\n";

void
replay_opts_init(struct replay_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->policy = REPLAY_POLICY_ACCEPT;
	o->stream.own = UT_OWN_EVENT;
	o->stream.direct = -1;
	o->stream.screen_w = 1024;
	o->stream.screen_h = 768;
}

int
replay_opts_handle(struct replay_opts *o, int c, const char *arg, char *err,
		   size_t errlen)
{
	char *end;

	switch (c) {
	case 's':
		if (o->nsubs >= REPLAY_MAX_SUBS) {
			snprintf(err, errlen, "at most %d subscriptions", REPLAY_MAX_SUBS);
			return -1;
		}
		if (subspec_parse(arg, &o->subs[o->nsubs], err, errlen)) {
			char why[256];

			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen, "-s %s: %s", arg, why);
			return -1;
		}
		o->nsubs++;
		return 1;
	case 'd':
		o->devfile = arg;
		return 1;
	case REPLAY_OPT_POLICY:
		if (!strcmp(arg, "accept"))
			o->policy = REPLAY_POLICY_ACCEPT;
		else if (!strcmp(arg, "accept-cf"))
			o->policy = REPLAY_POLICY_ACCEPT_CF;
		else if (!strcmp(arg, "reject"))
			o->policy = REPLAY_POLICY_REJECT;
		else if (!strcmp(arg, "none"))
			o->policy = REPLAY_POLICY_NONE;
		else {
			snprintf(err, errlen, "unknown policy '%s'", arg);
			return -1;
		}
		return 1;
	case REPLAY_OPT_REJECT:
		o->policy = REPLAY_POLICY_REJECT;
		return 1;
	case REPLAY_OPT_X11:
		o->stream.split = 1;
		o->stream.reverse = 1;
		o->stream.own = UT_OWN_EVENT;
		return 1;
	case REPLAY_OPT_SPLIT:
		o->stream.split = 1;
		return 1;
	case REPLAY_OPT_REVERSE:
		o->stream.reverse = 1;
		return 1;
	case REPLAY_OPT_BEGIN_FIRST:
		o->stream.begin_first = 1;
		return 1;
	case REPLAY_OPT_OWN:
		if (!strcmp(arg, "event"))
			o->stream.own = UT_OWN_EVENT;
		else if (!strcmp(arg, "begin"))
			o->stream.own = UT_OWN_BEGIN;
		else {
			snprintf(err, errlen, "--own takes 'event' or 'begin', not '%s'", arg);
			return -1;
		}
		return 1;
	case REPLAY_OPT_DIRECT:
		o->stream.direct = 1;
		return 1;
	case REPLAY_OPT_INDIRECT:
		o->stream.direct = 0;
		return 1;
	case REPLAY_OPT_SCREEN: {
		double w, h;
		char x;

		if (sscanf(arg, "%lf%c%lf", &w, &x, &h) != 3 || x != 'x' ||
		    !(w > 0) || !(h > 0) || w > 1e6 || h > 1e6) {
			snprintf(err, errlen,
				 "--screen takes WxH with positive sizes, not '%s'", arg);
			return -1;
		}
		o->stream.screen_w = w;
		o->stream.screen_h = h;
		return 1;
	}
	case REPLAY_OPT_WINDOW_RES:
		errno = 0;
		o->window_res = strtof(arg, &end);
		if (errno || end == arg || *end || !(o->window_res >= 0)) {
			snprintf(err, errlen, "--window-res takes a number >= 0, not '%s'", arg);
			return -1;
		}
		return 1;
	default:
		return 0;
	}
}

void
replay_opts_finish(struct replay_opts *o)
{
	char err[64];

	if (o->nsubs == 0 && subspec_parse("mask=drag", &o->subs[0], err, sizeof(err)) == 0)
		o->nsubs = 1;
}

/* The message for a script that could not be made. */
static void
script_error(const char *path, int rc, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", path,
		 rc == -EINVAL ? "the device has no ABS_MT_POSITION_X/Y axes" : strerror(-rc));
}

int
replay_opts_load(const struct replay_opts *o, const char *path,
		 struct ut_recording **rec, struct ut_script *script,
		 char *err, size_t errlen)
{
	int rc = ut_recording_load(path, o->devfile, rec, err, errlen);

	if (rc < 0)
		return -1;
	rc = ut_script_build(script, *rec, &o->stream);
	if (rc < 0) {
		script_error(path, rc, err, errlen);
		ut_recording_free(*rec);
		*rec = NULL;
		return -1;
	}
	return 0;
}

int
replay_opts_open(const struct replay_opts *o, const char *path,
		 struct ut_recording_reader **reader, struct ut_script *script,
		 char *err, size_t errlen)
{
	int rc = ut_recording_open(path, o->devfile, reader, err, errlen);

	if (rc < 0)
		return -1;
	rc = ut_script_open(script, *reader, &o->stream);
	if (rc < 0) {
		if (rc == -EINVAL || rc == -ENOMEM)
			script_error(path, rc, err, errlen);
		else
			snprintf(err, errlen, "%s", (*reader)->error);
		ut_recording_close(*reader);
		*reader = NULL;
		return -1;
	}
	return 0;
}

void
replay_opts_configure(const struct replay_opts *o, struct replay_run *run,
		      const struct libevdev *dev, struct ut_script *script)
{
	run->dev = dev;
	run->script = script;
	run->subs = o->subs;
	run->nsubs = o->nsubs;
	run->own_at_begin = o->stream.own == UT_OWN_BEGIN;
	run->window_res = o->window_res;
}
