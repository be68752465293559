/*
 * The control socket's line protocol: words separated by blanks, numbers
 * checked whole (no trailing text, no overflow, coordinates finite).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control-parse.h"

#define MAX_WORDS 8
#define WORD_MAX 64

struct words {
	char w[MAX_WORDS][WORD_MAX];
	int n;
	bool too_many, too_long;
};

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static void
split(const char *line, struct words *ws)
{
	memset(ws, 0, sizeof(*ws));
	for (const char *p = line; *p;) {
		size_t len = 0;

		while (blank(*p))
			p++;
		if (!*p)
			break;
		while (p[len] && !blank(p[len]))
			len++;
		if (ws->n == MAX_WORDS) {
			ws->too_many = true;
			return;
		}
		if (len >= WORD_MAX) {
			ws->too_long = true;
			len = WORD_MAX - 1;
		}
		/* replies quote words: no control bytes in them */
		for (size_t i = 0; i < len; i++) {
			unsigned char ch = (unsigned char)p[i];

			ws->w[ws->n][i] = ch < 0x20 || ch >= 0x7f ? '?' : (char)ch;
		}
		ws->w[ws->n][len] = '\0';
		ws->n++;
		while (p[len] && !blank(p[len]))
			len++;
		p += len;
	}
}

static bool
parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static bool
parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* a finite coordinate: no nan, inf, or a value that overflows a double */
static bool
parse_coord(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s)
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

__attribute__((format(printf, 3, 4)))
static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static const struct {
	const char *name;
	enum control_op op;
	int min_args, max_args;   /* words after the name */
	const char *usage;
} commands[] = {
	{ "add-touch", CONTROL_ADD_TOUCH, 0, 0, "add-touch" },
	{ "remove-touch", CONTROL_REMOVE_TOUCH, 1, 1, "remove-touch DEVICE" },
	{ "down", CONTROL_DOWN, 4, 5, "down DEVICE ID X Y [TIME]" },
	{ "motion", CONTROL_MOTION, 4, 5, "motion DEVICE ID X Y [TIME]" },
	{ "up", CONTROL_UP, 2, 3, "up DEVICE ID [TIME]" },
	{ "cancel", CONTROL_CANCEL, 2, 3, "cancel DEVICE ID [TIME]" },
	{ "frame", CONTROL_FRAME, 1, 1, "frame DEVICE" },
	{ "clock", CONTROL_CLOCK, 1, 1, "clock MS (milliseconds, a whole number)" },
	{ "barrier", CONTROL_BARRIER, 1, 1, "barrier SIZE (1..16384)" },
	{ "stats", CONTROL_STATS, 0, 0, "stats" },
	{ "quit", CONTROL_QUIT, 0, 0, "quit" },
};

bool
control_op_has_device(enum control_op op)
{
	switch (op) {
	case CONTROL_REMOVE_TOUCH:
	case CONTROL_DOWN:
	case CONTROL_MOTION:
	case CONTROL_UP:
	case CONTROL_CANCEL:
	case CONTROL_FRAME:
		return true;
	default:
		return false;
	}
}

int
control_parse(const char *line, struct control_cmd *cmd, char *err, size_t errlen)
{
	struct words ws;
	size_t c;
	long v;
	int a = 1;   /* the next argument word */

	if (errlen)
		err[0] = '\0';
	memset(cmd, 0, sizeof(*cmd));
	split(line, &ws);
	if (ws.n == 0 && !ws.too_many)
		return 0;
	for (c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (!strcmp(ws.w[0], commands[c].name))
			break;
	if (c == sizeof(commands) / sizeof(commands[0]))
		return fail(err, errlen, "unknown command '%s'", ws.w[0]);
	cmd->op = commands[c].op;
	if (ws.too_many || ws.too_long || ws.n - 1 < commands[c].min_args ||
	    ws.n - 1 > commands[c].max_args)
		return fail(err, errlen, "usage: %s", commands[c].usage);

	if (cmd->op == CONTROL_CLOCK) {
		if (!parse_u64(ws.w[a], &cmd->time_ms))
			return fail(err, errlen, "usage: %s", commands[c].usage);
		return 1;
	}
	if (cmd->op == CONTROL_BARRIER) {
		if (!parse_long(ws.w[a], 1, CONTROL_BARRIER_MAX, &v))
			return fail(err, errlen, "usage: %s", commands[c].usage);
		cmd->size = (uint32_t)v;
		return 1;
	}
	if (!control_op_has_device(cmd->op))
		return 1;
	if (!parse_long(ws.w[a++], 0, INT_MAX, &v))
		return fail(err, errlen, "usage: %s (DEVICE: a device number)", commands[c].usage);
	cmd->device = (int)v;
	if (cmd->op == CONTROL_REMOVE_TOUCH || cmd->op == CONTROL_FRAME)
		return 1;
	if (!parse_long(ws.w[a++], INT32_MIN, INT32_MAX, &v))
		return fail(err, errlen, "usage: %s (ID: a 32-bit touch id)", commands[c].usage);
	cmd->id = (int32_t)v;
	if (cmd->op == CONTROL_DOWN || cmd->op == CONTROL_MOTION) {
		if (!parse_coord(ws.w[a], &cmd->x) || !parse_coord(ws.w[a + 1], &cmd->y))
			return fail(err, errlen, "%s: X and Y must be finite numbers, got '%s' '%s'",
				    ws.w[0], ws.w[a], ws.w[a + 1]);
		a += 2;
	}
	if (a < ws.n) {
		if (!parse_u64(ws.w[a], &cmd->time_ms))
			return fail(err, errlen, "usage: %s (TIME: milliseconds on the clock)",
				    commands[c].usage);
		cmd->has_time = true;
	}
	return 1;
}
