/*
 * Per-touch latency through the touch proxy; see touch-latency.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input/recording/recording.h"
#include "input/recording/script.h"
#include "touch-latency.h"

struct begin {
	long ms;         /* since the recording's first event (virtual time) */
	float x, y;      /* device coordinates */
	int matched;
};

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * The begins of @p path, in ms since @p origin_ms (absolute, from the
 * file's own event times), in order.  The proxy stamps the clone's events
 * with the virtual time of the recording it plays, which starts at
 * UT_SCRIPT_TIME_BASE_MS at the recording's first event.
 */
static int
read_begins(const char *path, long origin_ms, struct begin *b, size_t *n, char *err,
	    size_t errlen)
{
	struct ut_recording *rec = NULL;
	struct ut_script s;
	struct ut_evstream_opts opts = { .own = UT_OWN_BEGIN, .direct = -1 };
	char msg[512] = "";

	if (ut_recording_load(path, NULL, &rec, msg, sizeof(msg)) < 0)
		return fail(err, errlen, "%s", msg);
	if (ut_script_build(&s, rec, &opts) < 0) {
		ut_recording_free(rec);
		return fail(err, errlen, "%s: no touches can be read", path);
	}
	*n = 0;
	for (size_t f = 0; f < s.nframes; f++) {
		const struct ut_script_frame *fr = &s.frames[f];
		long abs_ms = (long)(s.usec0 / 1000u) + (long)fr->time -
			      (long)UT_SCRIPT_TIME_BASE_MS;

		for (size_t k = 0; k < fr->count; k++) {
			const struct ut_touch_op *op = &s.ops[fr->first + k];

			if (op->kind != UT_OP_BEGIN)
				continue;
			if (*n == TL_MAX_TOUCHES) {
				ut_script_release(&s);
				ut_recording_free(rec);
				return fail(err, errlen, "%s: more than %d touches", path,
					    TL_MAX_TOUCHES);
			}
			b[*n] = (struct begin){ .ms = abs_ms - origin_ms, .x = op->dx,
						.y = op->dy };
			(*n)++;
		}
	}
	ut_script_release(&s);
	ut_recording_free(rec);
	return 0;
}

static int
run_daemon(const char *daemon, const char *cfg, const char *recording, const char *outp,
	   const char *errp, char *err, size_t errlen)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return fail(err, errlen, "fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execl(daemon, daemon, "--backend", "evdev", "--config", cfg, "--recording",
		      recording, "--fast", "--proxy-output", outp, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return fail(err, errlen, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return fail(err, errlen, "%s ended with status %d on %s (see %s)", daemon, st,
			    recording, errp);
	return 0;
}

/* Whether the clone's output exists and has an event (a clone that never
 * got a touch has its header only). */
static int
has_events(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[256];
	int any = 0;

	if (!fp)
		return 0;
	while (!any && fgets(line, sizeof(line), fp))
		any = strncmp(line, "E:", 2) == 0;
	fclose(fp);
	return any;
}

static int
cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int
tl_measure(const char *daemon, const char *tmpdir, const char *config,
	   const char *recording, struct tl_result *out, char *err, size_t errlen)
{
	static struct begin in[TL_MAX_TOUCHES], got[TL_MAX_TOUCHES];
	char cfg[512], outp[512], errp[512];
	size_t nin, ngot;
	FILE *fp;

	memset(out, 0, sizeof(*out));
	snprintf(cfg, sizeof(cfg), "%s/latency.yaml", tmpdir);
	snprintf(outp, sizeof(outp), "%s/latency-out.evemu", tmpdir);
	snprintf(errp, sizeof(errp), "%s/latency.err", tmpdir);
	fp = fopen(cfg, "w");
	if (!fp || fputs(config, fp) < 0 || fclose(fp) != 0)
		return fail(err, errlen, "%s: %s", cfg, strerror(errno));
	unlink(outp);
	if (run_daemon(daemon, cfg, recording, outp, errp, err, errlen) < 0)
		return -1;
	/* the recording's times from its first event; the clone's in the
	 * virtual time of the playback, which puts that event at
	 * UT_SCRIPT_TIME_BASE_MS */
	struct ut_recording *rec = NULL;
	char msg[512] = "";

	if (ut_recording_load(recording, NULL, &rec, msg, sizeof(msg)) < 0)
		return fail(err, errlen, "%s", msg);
	long first_ms = rec->nevents ? (long)(rec->events[0].usec / 1000u) : 0;

	ut_recording_free(rec);
	if (read_begins(recording, first_ms, in, &nin, err, errlen) < 0)
		return -1;
	if (!has_events(outp)) {
		ngot = 0;   /* nothing reached the clone */
	} else if (read_begins(outp, (long)UT_SCRIPT_TIME_BASE_MS, got, &ngot, err,
			       errlen) < 0) {
		return -1;
	}
	/* each touch on the clone is the earliest touch of the recording
	 * that landed where it begins, at or before it, not matched yet */
	for (size_t i = 0; i < nin; i++)
		out->latency_ms[i] = -1;
	for (size_t j = 0; j < ngot; j++) {
		size_t best = nin;

		for (size_t i = 0; i < nin; i++) {
			if (in[i].matched || in[i].x != got[j].x || in[i].y != got[j].y ||
			    in[i].ms > got[j].ms)
				continue;
			if (best == nin || in[i].ms < in[best].ms)
				best = i;
		}
		if (best == nin)
			return fail(err, errlen, "%s: the clone's touch at %ld ms (%.0f, %.0f) "
				    "matches no touch of the recording", recording, got[j].ms,
				    (double)got[j].x, (double)got[j].y);
		in[best].matched = 1;
		out->latency_ms[best] = got[j].ms - in[best].ms;
	}
	out->ntouches = nin;
	long sorted[TL_MAX_TOUCHES];
	size_t n = 0;

	for (size_t i = 0; i < nin; i++)
		if (out->latency_ms[i] >= 0)
			sorted[n++] = out->latency_ms[i];
	out->nreleased = n;
	out->median_ms = out->max_ms = -1;
	if (n > 0) {
		qsort(sorted, n, sizeof(sorted[0]), cmp_long);
		out->median_ms = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
		out->max_ms = sorted[n - 1];
	}
	return 0;
}
