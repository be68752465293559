/*
 * libFuzzer target for the line protocol of utouch-wlcomp's control socket
 * (tools/wlcomp/control-parse.c), without a compositor.  The input is cut
 * into lines at '\n' as the socket does (at most CONTROL_LINE_MAX - 1
 * bytes, a NUL byte refused before parsing).  Checked for every line:
 *
 * - the result is a command (1), nothing (0, only for a blank line) or an
 *   error (-1) with a non-empty message of printable characters;
 * - a command's arguments are in range: device >= 0, coordinates finite,
 *   barrier size 1..CONTROL_BARRIER_MAX;
 * - a command written back as text parses to the same command.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "control-parse.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_NAME "fuzz-wlcomp-control"
#define FUZZ_TRACE_ENV "FUZZ_WLCOMP_CONTROL_TRACE"
#include "fuzz-common.h"

static const char *const names[] = {
	[CONTROL_ADD_TOUCH] = "add-touch", [CONTROL_REMOVE_TOUCH] = "remove-touch",
	[CONTROL_DOWN] = "down", [CONTROL_MOTION] = "motion", [CONTROL_UP] = "up",
	[CONTROL_CANCEL] = "cancel", [CONTROL_FRAME] = "frame", [CONTROL_CLOCK] = "clock",
	[CONTROL_BARRIER] = "barrier", [CONTROL_STATS] = "stats", [CONTROL_QUIT] = "quit",
};

static bool
is_blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r')
			return false;
	return true;
}

/* The command as a line the parser takes. */
static void
write_back(const struct control_cmd *c, char *out, size_t len)
{
	int n = snprintf(out, len, "%s", names[c->op]);

	switch (c->op) {
	case CONTROL_REMOVE_TOUCH:
	case CONTROL_FRAME:
		snprintf(out + n, len - (size_t)n, " %d", c->device);
		return;
	case CONTROL_CLOCK:
		snprintf(out + n, len - (size_t)n, " %llu", (unsigned long long)c->time_ms);
		return;
	case CONTROL_BARRIER:
		snprintf(out + n, len - (size_t)n, " %u", c->size);
		return;
	case CONTROL_DOWN:
	case CONTROL_MOTION:
		n += snprintf(out + n, len - (size_t)n, " %d %d %.17g %.17g", c->device, c->id,
			      c->x, c->y);
		break;
	case CONTROL_UP:
	case CONTROL_CANCEL:
		n += snprintf(out + n, len - (size_t)n, " %d %d", c->device, c->id);
		break;
	default:
		return;
	}
	if (c->has_time)
		snprintf(out + n, len - (size_t)n, " %llu", (unsigned long long)c->time_ms);
}

static void
check_line(const char *line)
{
	struct control_cmd cmd, again;
	char err[CONTROL_LINE_MAX], text[CONTROL_LINE_MAX];
	int r = control_parse(line, &cmd, err, sizeof(err));

	trace("'%s' -> %d %s", line, r, r < 0 ? err : "");
	CHECK(r >= -1 && r <= 1, "result %d", r);
	if (r == 0) {
		CHECK(is_blank(line), "a line with words gave no command: '%s'", line);
		return;
	}
	if (r < 0) {
		CHECK(err[0], "an error without a message: '%s'", line);
		for (const char *p = err; *p; p++)
			CHECK((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f,
			      "a control byte in the error for '%s'", line);
		return;
	}
	CHECK(cmd.op <= CONTROL_QUIT, "op %d", (int)cmd.op);
	CHECK(cmd.device >= 0, "device %d", cmd.device);
	CHECK(isfinite(cmd.x) && isfinite(cmd.y), "coordinates %g %g", cmd.x, cmd.y);
	if (cmd.op == CONTROL_BARRIER)
		CHECK(cmd.size >= 1 && cmd.size <= CONTROL_BARRIER_MAX, "barrier %u", cmd.size);
	write_back(&cmd, text, sizeof(text));
	CHECK(control_parse(text, &again, err, sizeof(err)) == 1, "'%s' written back as '%s': %s",
	      line, text, err);
	CHECK(again.op == cmd.op && again.device == cmd.device && again.id == cmd.id &&
	      again.x == cmd.x && again.y == cmd.y && again.has_time == cmd.has_time &&
	      again.time_ms == cmd.time_ms && again.size == cmd.size,
	      "'%s' and '%s' differ", line, text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[CONTROL_LINE_MAX];
	size_t start = 0;

	while (start < size) {
		const uint8_t *nl = memchr(data + start, '\n', size - start);
		size_t end = nl ? (size_t)(nl - data) : size;
		size_t len = end - start;

		/* as the socket does: too long or with a NUL, never parsed */
		if (len < sizeof(line) && !memchr(data + start, '\0', len)) {
			memcpy(line, data + start, len);
			line[len] = '\0';
			check_line(line);
		}
		start = end + 1;
	}
	return 0;
}
