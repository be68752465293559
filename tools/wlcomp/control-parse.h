/*
 * The control socket's line protocol, parsed without a compositor (so that
 * it can be fuzzed: fuzz/fuzz-wlcomp-control.c).  control.c carries the
 * commands out; the protocol is described there and in doc/wlcomp.md.
 */
#ifndef UTOUCH_WLCOMP_CONTROL_PARSE_H
#define UTOUCH_WLCOMP_CONTROL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the longest line the socket accepts, newline included */
#define CONTROL_LINE_MAX 512
/* the largest barrier size (a window edge in pixels) */
#define CONTROL_BARRIER_MAX 16384

enum control_op {
	CONTROL_ADD_TOUCH,
	CONTROL_REMOVE_TOUCH,
	CONTROL_DOWN,
	CONTROL_MOTION,
	CONTROL_UP,
	CONTROL_CANCEL,
	CONTROL_FRAME,
	CONTROL_CLOCK,
	CONTROL_BARRIER,
	CONTROL_STATS,
	CONTROL_QUIT,
};

/* One command, its arguments checked for form (not against the compositor). */
struct control_cmd {
	enum control_op op;
	int device;             /* remove-touch, touch events, frame: >= 0 */
	int32_t id;             /* touch events: any 32-bit id */
	double x, y;            /* down, motion: finite layout pixels */
	bool has_time;          /* touch events: a device time was given */
	uint64_t time_ms;       /* that time, or the clock command's MS */
	uint32_t size;          /* barrier: 1..CONTROL_BARRIER_MAX */
};

/* Whether the command names a touch device (its `device` is set). */
bool control_op_has_device(enum control_op op);

/*
 * Parse one line (no newline).  Returns 1 and fills @p cmd for a command,
 * 0 for a blank line (no command; control.c answers "ok"), -1 for an invalid one with the
 * reason in @p err (what follows "error " in the reply; always terminated
 * when @p errlen > 0).
 */
int control_parse(const char *line, struct control_cmd *cmd, char *err, size_t errlen);

#endif
