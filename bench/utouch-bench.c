/*
 * utouch-bench: time utouch's frame + grail layers against the original
 * libraries (through ref-grail --bench) on standard scenarios, count heap
 * allocations per frame in steady state, and print scaling tables.
 *
 * Each iteration does what utouch-replay --bench and ref-grail --bench do:
 * create grail and the subscriptions, replay every frame of the recording
 * (running grail's timeouts as a client timer would, accepting each gesture
 * at its first event), then delete everything.  The recording is parsed
 * and turned into frames of touch operations once, outside the timed loop.
 *
 * The executable is linked with -Wl,--wrap=malloc,calloc,realloc,free, so
 * every heap call of the statically linked utouch code goes through the
 * counters below.  Allocations are counted only between the first frame of
 * an iteration and the end of its last timeout, i.e. without grail_new(),
 * the subscriptions and the deletes.
 */
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <oif/frame.h>
#include <oif/grail.h>

#include "frame/frame-private.h"
#include "../tools/replay/run.h"
#include "util/clock.h"

#ifndef BENCH_REC_DIR
#define BENCH_REC_DIR "data/recordings"
#endif
#ifndef BENCH_SCALING_DIR
#define BENCH_SCALING_DIR "bench"
#endif

#define MAX_SUBS REPLAY_MAX_SUBS

/* ------------------------------------------------------------------ */
/* Heap call counters (the linker routes malloc & co. here). */

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *ptr, size_t size);
void __real_free(void *ptr);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *ptr, size_t size);
void __wrap_free(void *ptr);

static _Thread_local uint64_t heap_allocs, heap_frees;
/* Allocation sites, recorded while site_tracking is set. */
#define NSITES 64
static _Thread_local int site_tracking;
static _Thread_local struct { void *addr; uint64_t count; } sites[NSITES];

static void
note_site(void *addr)
{
	size_t h = ((uintptr_t)addr >> 2) % NSITES;

	for (size_t k = 0; k < NSITES; k++) {
		size_t i = (h + k) % NSITES;

		if (sites[i].addr == addr || !sites[i].addr) {
			sites[i].addr = addr;
			sites[i].count++;
			return;
		}
	}
}

void *
__wrap_malloc(size_t size)
{
	heap_allocs++;
	if (site_tracking)
		note_site(__builtin_return_address(0));
	return __real_malloc(size);
}

void *
__wrap_calloc(size_t n, size_t size)
{
	heap_allocs++;
	if (site_tracking)
		note_site(__builtin_return_address(0));
	return __real_calloc(n, size);
}

void *
__wrap_realloc(void *ptr, size_t size)
{
	heap_allocs++;
	if (site_tracking)
		note_site(__builtin_return_address(0));
	return __real_realloc(ptr, size);
}

void
__wrap_free(void *ptr)
{
	if (ptr)
		heap_frees++;
	__real_free(ptr);
}

/* ------------------------------------------------------------------ */
/* Scenarios */

enum group { GROUP_MAIN, GROUP_TOUCHES, GROUP_SUBS };

struct scenario {
	enum group group;
	char name[48];
	char file[PATH_MAX];
	int x11;
	int nsubs;
	const char *subs[MAX_SUBS];
};

/* What the storm subscriptions are made of; the subscription scaling table
 * uses the first k of them. */
static const char *const sub_ladder[] = {
	"mask=drag,touches=1",
	"mask=drag,touches=2",
	"mask=drag,touches=3",
	"mask=drag,touches=4",
	"mask=drag,touches=5",
	"mask=pinch+rotate,touches=2",
	"mask=tap,touches=1",
	"mask=tap,touches=2",
	"mask=drag+pinch+rotate,touches=3",
	"mask=touch,touches=4",
};
#define NLADDER (sizeof(sub_ladder) / sizeof(sub_ladder[0]))

struct main_def {
	const char *name, *file;
	int x11;
	const char *subs[6];
};

static const struct main_def main_defs[] = {
	{ "drag-2", "touchscreen/drag-2.evemu", 0,
	  { "mask=drag+pinch+rotate,touches=2" } },
	{ "drag-2 x11", "touchscreen/drag-2.evemu", 1,
	  { "mask=drag+pinch+rotate,touches=2" } },
	{ "bug-game-4", "touchscreen/bug-game-4.evemu", 0,
	  { "mask=pinch,touches=2" } },
	{ "bug-game-4 x11", "touchscreen/bug-game-4.evemu", 1,
	  { "mask=pinch,touches=2" } },
	{ "storm-10 touches=1..5", "touchscreen/storm-10.evemu", 0,
	  { "mask=drag,touches=1", "mask=drag,touches=2", "mask=drag,touches=3",
	    "mask=drag,touches=4", "mask=drag,touches=5" } },
	{ "storm-10 touches=1..5 x11", "touchscreen/storm-10.evemu", 1,
	  { "mask=drag,touches=1", "mask=drag,touches=2", "mask=drag,touches=3",
	    "mask=drag,touches=4", "mask=drag,touches=5" } },
	{ "storm-10 start=1..5", "touchscreen/storm-10.evemu", 0,
	  { "mask=drag,start=1", "mask=drag,start=2", "mask=drag,start=3",
	    "mask=drag,start=4", "mask=drag,start=5" } },
	/* the worst case of issue 25: four touches, four subscriptions, every
	 * touch count a candidate (15 candidate gestures) */
	{ "pinch-4 subs=4", "touchscreen/pinch-4.evemu", 0,
	  { "mask=drag+pinch+rotate,touches=1", "mask=drag+pinch+rotate,touches=2",
	    "mask=drag+pinch+rotate,touches=3", "mask=drag+pinch+rotate,touches=4" } },
	{ "pinch-4 subs=4 x11", "touchscreen/pinch-4.evemu", 1,
	  { "mask=drag+pinch+rotate,touches=1", "mask=drag+pinch+rotate,touches=2",
	    "mask=drag+pinch+rotate,touches=3", "mask=drag+pinch+rotate,touches=4" } },
	/* four touches, one subscription per gesture class */
	{ "pinch-4 classes=4", "touchscreen/pinch-4.evemu", 0,
	  { "mask=drag,touches=4", "mask=pinch,touches=4", "mask=rotate,touches=4",
	    "mask=tap,touches=4" } },
};
#define NMAIN (sizeof(main_defs) / sizeof(main_defs[0]))

/* ------------------------------------------------------------------ */
/* One replay run, as utouch-replay --bench does it. */

struct run {
	struct replay_run run;       /* the loop utouch-replay --bench runs */
	struct subspec subs[MAX_SUBS];
	unsigned char *decided;   /* per gesture id: accepted already */
	size_t ndecided;
};

static void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("utouch-bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/* The harness's own bookkeeping: its allocations are taken back out of
 * the counters, so that only utouch's show. */
static unsigned char *
decided_of(struct run *r, unsigned int id)
{
	if (id >= r->ndecided) {
		uint64_t allocs = heap_allocs;
		int tracking = site_tracking;
		size_t n = r->ndecided ? r->ndecided : 256;
		unsigned char *p;

		site_tracking = 0;
		while (n <= id)
			n *= 2;
		p = realloc(r->decided, n);
		if (!p)
			die("out of memory");
		memset(p + r->ndecided, 0, n - r->ndecided);
		r->decided = p;
		r->ndecided = n;
		heap_allocs = allocs;
		site_tracking = tracking;
	}
	return &r->decided[id];
}

/* Accept every gesture at its first slice (policy accept). */
static void
on_slice(struct replay_run *run, UGEvent ev, UGSlice slice, int sub)
{
	struct run *r = run->data;
	unsigned int id = grail_slice_get_id(slice);
	unsigned char *dec = decided_of(r, id);

	if (!(sub >= 0 && r->subs[sub].atomic) && !*dec) {
		*dec = 1;
		if (grail_accept_gesture(run->grail, id) != UGStatusSuccess)
			run->nfailures++;
	}
}

static void
run_setup(struct run *r)
{
	if (replay_run_setup(&r->run) < 0)
		die("%s", r->run.error);
	if (r->decided)
		memset(r->decided, 0, r->ndecided);
}

/* Replay every frame, @p offset ms later than the script says. */
static void
run_frames(struct run *r, uint64_t offset)
{
	if (replay_run_frames(&r->run, offset) < 0)
		die("%s", r->run.error);
}

/* Length of one pass of the long-lived run: the script plus its final
 * 10 s of timeouts and a gap. */
static uint64_t
pass_length(const struct ut_script *s)
{
	return s->last_time - UT_SCRIPT_TIME_BASE_MS + 20000;
}

static void
run_teardown(struct run *r)
{
	replay_run_teardown(&r->run);
}

/* ------------------------------------------------------------------ */
/* Measurements */

struct result {
	size_t frames;
	uint64_t events;
	long iterations;
	double ns_per_frame;          /* best of the repeats */
	double allocs_per_frame;      /* all heap allocations in the frame loop */
	double frees_per_frame;
	double framelib_per_frame;    /* of which by the frame library's counter */
	double setup_allocs_per_iter; /* grail_new + subscriptions + deletes */
	double steady_allocs_per_frame; /* long-lived grail, after one pass */
	int steady_events_match;
	int ref_status;               /* 0 ok, else see ref_status_text() */
	double ref_ns_per_frame;
	size_t ref_frames;
	uint64_t ref_events;
};

enum { REF_OK, REF_NONE, REF_UNAVAILABLE, REF_FAILED };


struct options {
	const char *ref;
	const char *rec_dir, *scaling_dir;
	double target_ms;
	int repeats;
	long iterations;      /* 0: calibrate */
	const char *only;
	int scaling, markdown, alloc_sites;
	int instructions;     /* --instructions */
	long loop;            /* --loop N (with --exact) */
	const char *exact;
};

static void
bench_utouch(struct run *r, const struct options *o, struct result *res)
{
	uint64_t loop_allocs = 0, loop_frees = 0, loop_framelib = 0, other_allocs = 0;
	double t0, once, best = 0;
	long n;

	/* warm-up, also sizing the harness's bookkeeping */
	t0 = (double)ut_mono_ns();
	run_setup(r);
	run_frames(r, 0);
	run_teardown(r);
	once = (double)ut_mono_ns() - t0;
	res->events = r->run.nevents;
	res->frames = r->run.script->nframes;
	if (o->iterations > 0)
		n = o->iterations;
	else {
		n = (long)(o->target_ms * 1e6 / (once > 1 ? once : 1));
		if (n < 10)
			n = 10;
		if (n > 1000000)
			n = 1000000;
	}
	res->iterations = n;

	for (int rep = 0; rep < o->repeats; rep++) {
		double start = (double)ut_mono_ns(), ns;

		for (long i = 0; i < n; i++) {
			uint64_t a0 = heap_allocs, a1, f1, p1;

			run_setup(r);
			a1 = heap_allocs;
			f1 = heap_frees;
			p1 = ut_frame_pool_malloc_count();
			site_tracking = o->alloc_sites;
			run_frames(r, 0);
			site_tracking = 0;
			loop_allocs += heap_allocs - a1;
			loop_frees += heap_frees - f1;
			loop_framelib += ut_frame_pool_malloc_count() - p1;
			other_allocs += a1 - a0;
			a1 = heap_allocs;
			run_teardown(r);
			other_allocs += heap_allocs - a1;
		}
		ns = (double)ut_mono_ns() - start;
		if (rep == 0 || ns < best)
			best = ns;
	}
	{
		double iters = (double)n * o->repeats;
		double frames = iters * (double)(res->frames ? res->frames : 1);

		res->ns_per_frame = best / ((double)n * (double)(res->frames ? res->frames : 1));
		res->allocs_per_frame = (double)loop_allocs / frames;
		res->framelib_per_frame = (double)loop_framelib / frames;
		res->frees_per_frame = (double)loop_frees / frames;
		res->setup_allocs_per_iter = (double)other_allocs / iters;
	}
}

/*
 * Steady state of a long-lived client: one grail and one set of
 * subscriptions replay the script STEADY_PASSES times, each pass later
 * than the one before.  The first pass warms grail's caches; allocations
 * of the others are counted.
 */
#define STEADY_PASSES 10

static void
bench_steady(struct run *r, struct result *res)
{
	uint64_t allocs = 0, events = 0;

	run_setup(r);
	for (uint64_t p = 0; p < STEADY_PASSES; p++) {
		uint64_t a0 = heap_allocs, e0 = r->run.nevents;

		run_frames(r, p * pass_length(r->run.script));
		if (getenv("BENCH_DEBUG_STEADY"))
			fprintf(stderr, "pass %" PRIu64 ": %" PRIu64 " events\n", p, r->run.nevents - e0);
		if (p > 0) {
			allocs += heap_allocs - a0;
			events += r->run.nevents - e0;
		}
	}
	run_teardown(r);
	res->steady_allocs_per_frame =
		(double)allocs / ((STEADY_PASSES - 1) * (double)(res->frames ? res->frames : 1));
	res->steady_events_match = events == (STEADY_PASSES - 1) * res->events;
}

/*
 * Run @argv with its standard output (and with @with_stderr its error
 * output too) into @out (NUL-terminated, cut at @size - 1 bytes).
 * Returns the exit status, 127 when the program could not be run, -1 when
 * it did not exit normally or could not be started.
 */
static int
run_capture(const char *const *argv, int with_stderr, char *out, size_t size)
{
	int pipefd[2], status;
	size_t used = 0;
	ssize_t got;
	pid_t pid;
	char sink[512];

	fflush(stdout);
	if (pipe(pipefd) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(pipefd[1], 1);
		if (with_stderr)
			dup2(pipefd[1], 2);
		close(pipefd[0]);
		close(pipefd[1]);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(pipefd[1]);
	for (;;) {
		/* read everything (the child must not block on a full pipe),
		 * keep what fits */
		char *dst = used < size - 1 ? out + used : sink;
		size_t room = used < size - 1 ? size - 1 - used : sizeof(sink);

		got = read(pipefd[0], dst, room);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (dst != sink)
			used += (size_t)got;
	}
	out[used] = '\0';
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The frames and events of a "bench ..." line of ref-grail or of the
 * bench's own --loop. */
static void
parse_bench_line(const char *out, size_t *frames, uint64_t *events)
{
	const char *p = strstr(out, " frames=");

	if (p)
		sscanf(p, " frames=%zu", frames);
	p = strstr(out, "events_per_iter=");
	if (p)
		sscanf(p, "events_per_iter=%" SCNu64, events);
}

/* The argument vector of ref-grail for scenario @sc: PREFIX... REF --bench N
 * [--x11] -s SUB... FILE (@argv has room for 12 + 2 * MAX_SUBS entries). */
static void
ref_argv(const char **argv, const char *const *prefix, const char *ref,
	 const struct scenario *sc, const char *n)
{
	int argc = 0;

	while (prefix && *prefix)
		argv[argc++] = *prefix++;
	argv[argc++] = ref;
	argv[argc++] = "--bench";
	argv[argc++] = n;
	if (sc->x11)
		argv[argc++] = "--x11";
	for (int i = 0; i < sc->nsubs; i++) {
		argv[argc++] = "-s";
		argv[argc++] = sc->subs[i];
	}
	argv[argc++] = sc->file;
	argv[argc] = NULL;
}

/* Run ref-grail --bench and pick its numbers out of the "bench" line. */
static int
run_ref_once(const struct options *o, const struct scenario *sc, long n,
	     struct result *res, double *ns)
{
	char nbuf[32], out[4096];
	const char *argv[12 + 2 * MAX_SUBS];
	const char *p;
	int st;

	snprintf(nbuf, sizeof(nbuf), "%ld", n);
	ref_argv(argv, NULL, o->ref, sc, nbuf);
	st = run_capture(argv, 0, out, sizeof(out));
	if (st == 77 || st == 127)
		return REF_UNAVAILABLE;
	if (st != 0)
		return REF_FAILED;
	p = strstr(out, "ns_per_frame=");
	if (!p || sscanf(p, "ns_per_frame=%lf", ns) != 1)
		return REF_FAILED;
	parse_bench_line(out, &res->ref_frames, &res->ref_events);
	return REF_OK;
}

static void
bench_ref(const struct options *o, const struct scenario *sc, struct result *res)
{
	if (!o->ref) {
		res->ref_status = REF_NONE;
		return;
	}
	for (int rep = 0; rep < o->repeats; rep++) {
		double ns;
		int st = run_ref_once(o, sc, res->iterations, res, &ns);

		if (st != REF_OK) {
			res->ref_status = st;
			return;
		}
		if (rep == 0 || ns < res->ref_ns_per_frame)
			res->ref_ns_per_frame = ns;
	}
	res->ref_status = REF_OK;
}

/* A scenario's recording, turned into frames once. */
struct prepared {
	struct ut_recording *rec;
	struct ut_script script;
};

/* Load @sc and set @r up to replay it; -1 (said on stderr) on failure. */
static int
scenario_prepare(const struct scenario *sc, struct run *r, struct prepared *pp)
{
	struct ut_evstream_opts sopts = {
		.own = UT_OWN_EVENT, .direct = -1, .screen_w = 1024, .screen_h = 768,
	};
	char err[512];
	int rc;

	if (sc->x11) {
		sopts.split = 1;
		sopts.reverse = 1;
	}
	rc = ut_recording_load(sc->file, NULL, &pp->rec, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "utouch-bench: %s\n", err);
		return -1;
	}
	rc = ut_script_build(&pp->script, pp->rec, &sopts);
	if (rc < 0) {
		fprintf(stderr, "utouch-bench: %s: cannot build frames (%s)\n", sc->file,
			strerror(-rc));
		ut_recording_free(pp->rec);
		return -1;
	}
	r->run.dev = pp->rec->dev;
	r->run.script = &pp->script;
	r->run.subs = r->subs;
	r->run.nsubs = sc->nsubs;
	r->run.on_slice = on_slice;
	r->run.data = r;
	for (int i = 0; i < sc->nsubs; i++)
		if (subspec_parse(sc->subs[i], &r->subs[i], err, sizeof(err)))
			die("%s: -s %s: %s", sc->name, sc->subs[i], err);
	return 0;
}

static void
scenario_release(struct prepared *pp)
{
	ut_script_release(&pp->script);
	ut_recording_free(pp->rec);
}

static int
bench_scenario(const struct options *o, const struct scenario *sc, struct result *res)
{
	static struct run r;
	struct prepared pp;

	memset(res, 0, sizeof(*res));
	if (scenario_prepare(sc, &r, &pp) < 0)
		return -1;
	bench_utouch(&r, o, res);
	bench_steady(&r, res);
	scenario_release(&pp);
	bench_ref(o, sc, res);
	return 0;
}

/*
 * --loop N: only the iterations, N of them, as ref-grail --bench N does
 * them (after its own warm-up iteration), and a line like ref-grail's.
 * This is what --instructions runs under callgrind.
 */
static int
loop_scenario(const struct scenario *sc, long n)
{
	static struct run r;
	struct prepared pp;

	if (scenario_prepare(sc, &r, &pp) < 0)
		return -1;
	run_setup(&r);
	run_frames(&r, 0);
	run_teardown(&r);
	for (long i = 0; i < n; i++) {
		run_setup(&r);
		run_frames(&r, 0);
		run_teardown(&r);
	}
	printf("bench iterations=%ld frames=%zu events_per_iter=%" PRIu64 "\n", n,
	       pp.script.nframes, r.run.nevents);
	scenario_release(&pp);
	return 0;
}

/*
 * Instructions per frame event (--instructions).  Each stack replays the
 * scenario N1 and N2 times under callgrind (the bench itself with --loop,
 * ref-grail with --bench); the difference of the two totals is the
 * instructions of N2 - N1 iterations, without start-up, parsing and
 * warm-up, everything the process executes in them counted (libc and libm
 * too: the original spends part of its time there, utouch its atan2f).
 * Counts are exact and do not depend on the machine's load.
 */
#define IR_BASE_ITERATIONS 2

struct icount {
	size_t frames, ref_frames;
	uint64_t events, ref_events;
	double per_frame, ref_per_frame;   /* instructions per frame event */
	int ref_ok;
};

/* Total instructions of @argv under callgrind (0 when it failed: the
 * output is in @out), and its output. */
static uint64_t
callgrind_total(const char *const *argv, char *out, size_t size, int *status)
{
	const char *p;
	unsigned long long ir;

	*status = run_capture(argv, 1, out, size);
	p = strstr(out, "Collected :");
	if (*status != 0 || !p || sscanf(p, "Collected : %llu", &ir) != 1)
		return 0;
	return ir;
}

static const char *const callgrind_prefix[] = {
	"valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", NULL,
};

static int
count_scenario(const struct options *o, const struct scenario *sc, struct icount *ic)
{
	static char out[65536];
	char self[PATH_MAX], nbuf[2][32];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	long n[2] = { IR_BASE_ITERATIONS, IR_BASE_ITERATIONS + (o->iterations ? o->iterations : 10) };
	uint64_t ir[2], ref_ir[2];
	int st;

	memset(ic, 0, sizeof(*ic));
	if (len <= 0)
		die("cannot find my own executable");
	self[len] = '\0';
	for (int k = 0; k < 2; k++) {
		const char *argv[16];
		int argc = 0;

		snprintf(nbuf[k], sizeof(nbuf[k]), "%ld", n[k]);
		for (const char *const *p = callgrind_prefix; *p; p++)
			argv[argc++] = *p;
		argv[argc++] = self;
		argv[argc++] = "--loop";
		argv[argc++] = nbuf[k];
		argv[argc++] = "--exact";
		argv[argc++] = sc->name;
		argv[argc++] = "--rec-dir";
		argv[argc++] = o->rec_dir;
		argv[argc++] = "--scaling-dir";
		argv[argc++] = o->scaling_dir;
		argv[argc] = NULL;
		ir[k] = callgrind_total(argv, out, sizeof(out), &st);
		if (st == 127) {
			fprintf(stderr, "utouch-bench: --instructions needs valgrind\n");
			exit(77);
		}
		if (!ir[k]) {
			fprintf(stderr, "utouch-bench: %s: callgrind run failed:\n%s\n", sc->name, out);
			return -1;
		}
		parse_bench_line(out, &ic->frames, &ic->events);
	}
	if (!ic->frames || ir[1] < ir[0]) {
		fprintf(stderr, "utouch-bench: %s: nothing measured\n", sc->name);
		return -1;
	}
	ic->per_frame = (double)(ir[1] - ir[0]) / ((double)(n[1] - n[0]) * (double)ic->frames);
	if (!o->ref)
		return 0;
	for (int k = 0; k < 2; k++) {
		const char *argv[16 + 2 * MAX_SUBS];

		ref_argv(argv, callgrind_prefix, o->ref, sc, nbuf[k]);
		ref_ir[k] = callgrind_total(argv, out, sizeof(out), &st);
		if (!ref_ir[k]) {
			fprintf(stderr, "utouch-bench: %s: ref-grail under callgrind: %s\n", sc->name,
				st == 77 ? "unavailable" : "failed");
			return 0;
		}
		parse_bench_line(out, &ic->ref_frames, &ic->ref_events);
	}
	if (ic->ref_frames && ref_ir[1] > ref_ir[0]) {
		ic->ref_per_frame = (double)(ref_ir[1] - ref_ir[0]) /
				    ((double)(n[1] - n[0]) * (double)ic->ref_frames);
		ic->ref_ok = 1;
	}
	return 0;
}

static void
print_icount(const struct options *o, const struct scenario *sc, const struct icount *ic)
{
	char ref[32] = "-", ratio[32] = "-";

	if (ic->ref_ok) {
		snprintf(ref, sizeof(ref), "%.0f", ic->ref_per_frame);
		snprintf(ratio, sizeof(ratio), "%.2fx%s", ic->ref_per_frame / ic->per_frame,
			 ic->ref_frames != ic->frames || ic->ref_events != ic->events
				 ? (o->markdown ? " (differs)" : "!") : "");
	}
	if (o->markdown)
		printf("| %s | %zu | %" PRIu64 " | %.0f | %s | %s |\n", sc->name, ic->frames,
		       ic->events, ic->per_frame, ref, ratio);
	else
		printf("%-26s %6zu %6" PRIu64 " %10.0f %10s %9s\n", sc->name, ic->frames,
		       ic->events, ic->per_frame, ref, ratio);
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* Output */

static const char *
ref_status_text(int st)
{
	switch (st) {
	case REF_NONE: return "no --ref";
	case REF_UNAVAILABLE: return "unavailable";
	case REF_FAILED: return "failed";
	}
	return "";
}

static void
print_header(const struct options *o, const char *title)
{
	if (o->markdown) {
		printf("\n### %s\n\n", title);
		printf("| scenario | frames | events | iters | utouch ns/frame | ref ns/frame "
		       "| ref/utouch | allocs/frame | frame-lib allocs/frame "
		       "| frees/frame | steady allocs/frame | setup allocs/iter |\n");
		printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	} else {
		printf("\n== %s\n", title);
		printf("%-26s %6s %6s %7s %9s %9s %7s %7s %7s %7s %7s %6s\n", "scenario",
		       "frames", "events", "iters", "utouch", "ref", "ratio",
		       "allocs", "framlib", "frees", "steady", "setup");
		printf("%-26s %6s %6s %7s %9s %9s %7s %7s %7s %7s %7s %6s\n", "",
		       "", "/iter", "", "ns/frame", "ns/frame", "ref/ut", "/frame", "/frame",
		       "/frame", "/frame", "/iter");
	}
}

static void
print_row(const struct options *o, const struct scenario *sc, const struct result *res)
{
	char ref[32], ratio[32], steady[32];

	if (res->ref_status == REF_OK) {
		snprintf(ref, sizeof(ref), "%.1f", res->ref_ns_per_frame);
		snprintf(ratio, sizeof(ratio), "%.2fx", res->ref_ns_per_frame / res->ns_per_frame);
		/* the two stacks did not see the same frames or emit as many events */
		if (res->ref_frames != res->frames || res->ref_events != res->events)
			snprintf(ratio + strlen(ratio), sizeof(ratio) - strlen(ratio),
				 "%s", o->markdown ? " (differs)" : "!");
	} else {
		snprintf(ref, sizeof(ref), "-");
		snprintf(ratio, sizeof(ratio), "-");
	}
	snprintf(steady, sizeof(steady), "%.3f%s", res->steady_allocs_per_frame,
		 res->steady_events_match ? "" : "?");
	if (o->markdown)
		printf("| %s | %zu | %" PRIu64 " | %ld | %.1f | %s | %s | %.3f | %.3f | %.3f "
		       "| %s | %.1f |\n",
		       sc->name, res->frames, res->events, res->iterations, res->ns_per_frame,
		       ref, ratio, res->allocs_per_frame, res->framelib_per_frame,
		       res->frees_per_frame, steady, res->setup_allocs_per_iter);
	else
		printf("%-26s %6zu %6" PRIu64 " %7ld %9.1f %9s %7s %7.3f %7.3f %7.3f %7s %6.1f\n",
		       sc->name, res->frames, res->events, res->iterations, res->ns_per_frame,
		       ref, ratio, res->allocs_per_frame, res->framelib_per_frame,
		       res->frees_per_frame, steady, res->setup_allocs_per_iter);
	fflush(stdout);
}

static void
print_sites(void)
{
	char self[PATH_MAX], cmd[PATH_MAX + 64];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	uint64_t total = 0;

	for (size_t i = 0; i < NSITES; i++)
		total += sites[i].count;
	if (!total)
		return;
	self[len > 0 ? len : 0] = '\0';
	printf("\n== allocation sites in the frame loops (%" PRIu64 " calls)\n", total);
	for (;;) {
		size_t best = NSITES;
		Dl_info info;
		uintptr_t off;

		for (size_t i = 0; i < NSITES; i++)
			if (sites[i].count && (best == NSITES || sites[i].count > sites[best].count))
				best = i;
		if (best == NSITES)
			break;
		off = (uintptr_t)sites[best].addr;
		if (dladdr(sites[best].addr, &info) && info.dli_fbase)
			off -= (uintptr_t)info.dli_fbase;
		printf("%12" PRIu64 "  %5.1f%%  +0x%" PRIxPTR "  ", sites[best].count,
		       100.0 * (double)sites[best].count / (double)total, off);
		fflush(stdout);
		snprintf(cmd, sizeof(cmd), "addr2line -f -p -e '%s' 0x%" PRIxPTR " 2>/dev/null", self,
			 off);
		if (!len || system(cmd) != 0)
			printf("\n");
		fflush(stdout);
		sites[best].count = 0;
	}
}

/* ------------------------------------------------------------------ */

static void
usage(FILE *out)
{
	fputs(
"usage: utouch-bench [options]\n"
"Time utouch (frame + grail) on standard scenarios, compare with the original\n"
"libraries through ref-grail --bench, count heap allocations per frame.\n"
"\n"
"  --ref PATH          ref-grail binary (without it: utouch numbers only)\n"
"  --rec-dir DIR       bundled recordings (default: " BENCH_REC_DIR ")\n"
"  --scaling-dir DIR   drag-1..10.evemu for the touch scaling table\n"
"                      (default: " BENCH_SCALING_DIR ")\n"
"  --target-ms MS      calibrate iterations so one utouch repeat takes MS\n"
"                      (default 300)\n"
"  --iterations N      fixed number of iterations instead\n"
"  --repeats R         time R repeats of N iterations, keep the best (default 3)\n"
"  --only TEXT         only scenarios whose name contains TEXT\n"
"  --no-scaling        only the main scenarios\n"
"  --markdown          print Markdown tables\n"
"  --alloc-sites       list where the frame-loop allocations come from\n"
"  --instructions      instead of timing: instructions per frame event of utouch\n"
"                      and of ref-grail and their ratio, counted by callgrind\n"
"                      (valgrind) over --iterations N iterations (default 10)\n"
"  -h, --help          show this help\n"
"Internal (what --instructions runs): --loop N --exact NAME replays scenario\n"
"NAME N times after one warm-up and prints ref-grail's kind of bench line.\n", out);
}

static void
add_scenario(struct scenario *list, size_t *n, enum group g, const char *name,
	     const char *dir, const char *file, int x11)
{
	struct scenario *sc = &list[(*n)++];

	memset(sc, 0, sizeof(*sc));
	sc->group = g;
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	snprintf(sc->file, sizeof(sc->file), "%s/%s", dir, file);
	sc->x11 = x11;
}

int
main(int argc, char **argv)
{
	enum { OPT_REF = 256, OPT_REC_DIR, OPT_SCALING_DIR, OPT_TARGET, OPT_ITER, OPT_REPEATS,
	       OPT_ONLY, OPT_NO_SCALING, OPT_MARKDOWN, OPT_SITES, OPT_INSTRUCTIONS, OPT_LOOP,
	       OPT_EXACT };
	static const struct option longopts[] = {
		{ "ref", required_argument, NULL, OPT_REF },
		{ "rec-dir", required_argument, NULL, OPT_REC_DIR },
		{ "scaling-dir", required_argument, NULL, OPT_SCALING_DIR },
		{ "target-ms", required_argument, NULL, OPT_TARGET },
		{ "iterations", required_argument, NULL, OPT_ITER },
		{ "repeats", required_argument, NULL, OPT_REPEATS },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "no-scaling", no_argument, NULL, OPT_NO_SCALING },
		{ "markdown", no_argument, NULL, OPT_MARKDOWN },
		{ "alloc-sites", no_argument, NULL, OPT_SITES },
		{ "instructions", no_argument, NULL, OPT_INSTRUCTIONS },
		{ "loop", required_argument, NULL, OPT_LOOP },
		{ "exact", required_argument, NULL, OPT_EXACT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = {
		.rec_dir = BENCH_REC_DIR, .scaling_dir = BENCH_SCALING_DIR,
		.target_ms = 300, .repeats = 3, .scaling = 1,
	};
	static struct scenario list[NMAIN + 10 + NLADDER];
	size_t n = 0;
	enum group shown = GROUP_MAIN;
	int c, first = 1, failed = 0;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case OPT_REF: o.ref = optarg; break;
		case OPT_REC_DIR: o.rec_dir = optarg; break;
		case OPT_SCALING_DIR: o.scaling_dir = optarg; break;
		case OPT_TARGET:
			o.target_ms = strtod(optarg, &end);
			if (*end || !(o.target_ms > 0))
				die("--target-ms takes a positive number");
			break;
		case OPT_ITER:
			o.iterations = strtol(optarg, &end, 10);
			if (*end || o.iterations <= 0)
				die("--iterations takes a positive count");
			break;
		case OPT_REPEATS:
			o.repeats = (int)strtol(optarg, &end, 10);
			if (*end || o.repeats <= 0 || o.repeats > 100)
				die("--repeats takes a count from 1 to 100");
			break;
		case OPT_ONLY: o.only = optarg; break;
		case OPT_NO_SCALING: o.scaling = 0; break;
		case OPT_MARKDOWN: o.markdown = 1; break;
		case OPT_SITES: o.alloc_sites = 1; break;
		case OPT_INSTRUCTIONS: o.instructions = 1; break;
		case OPT_LOOP:
			o.loop = strtol(optarg, &end, 10);
			if (*end || o.loop <= 0)
				die("--loop takes a positive count");
			break;
		case OPT_EXACT: o.exact = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (o.ref && access(o.ref, X_OK) != 0) {
		fprintf(stderr, "utouch-bench: %s is not executable: %s\n", o.ref, strerror(errno));
		o.ref = NULL;
	}

	for (size_t i = 0; i < NMAIN; i++) {
		struct scenario *sc = &list[n];

		add_scenario(list, &n, GROUP_MAIN, main_defs[i].name, o.rec_dir,
			     main_defs[i].file, main_defs[i].x11);
		while (sc->nsubs < 6 && main_defs[i].subs[sc->nsubs]) {
			sc->subs[sc->nsubs] = main_defs[i].subs[sc->nsubs];
			sc->nsubs++;
		}
	}
	if (o.scaling) {
		for (int t = 1; t <= 10; t++) {
			char name[48], file[32];
			struct scenario *sc = &list[n];

			snprintf(name, sizeof(name), "drag-%d touches=1..5", t);
			snprintf(file, sizeof(file), "drag-%d.evemu", t);
			add_scenario(list, &n, GROUP_TOUCHES, name, o.scaling_dir, file, 0);
			for (int k = 0; k < 5; k++)
				sc->subs[sc->nsubs++] = sub_ladder[k];
		}
		for (size_t k = 1; k <= NLADDER; k++) {
			char name[48];
			struct scenario *sc = &list[n];

			snprintf(name, sizeof(name), "storm-10 subs=%zu", k);
			add_scenario(list, &n, GROUP_SUBS, name, o.rec_dir,
				     "touchscreen/storm-10.evemu", 0);
			for (size_t j = 0; j < k; j++)
				sc->subs[sc->nsubs++] = sub_ladder[j];
		}
	}

	if (o.loop || o.exact) {
		if (!o.loop || !o.exact)
			die("--loop and --exact go together");
		for (size_t i = 0; i < n; i++)
			if (strcmp(list[i].name, o.exact) == 0)
				return loop_scenario(&list[i], o.loop) < 0;
		die("no scenario named '%s'", o.exact);
	}
	if (o.instructions) {
		/* glibc's malloc fills every block it hands out and takes back
		 * when this is set (meson test sets it): thousands of instructions
		 * per grail_new that have nothing to do with either stack */
		unsetenv("MALLOC_PERTURB_");
		printf("utouch-bench: instructions per frame event, callgrind, %ld iterations; "
		       "ref-grail: %s\n", o.iterations ? o.iterations : 10,
		       o.ref ? o.ref : "not given (utouch numbers only)");
		if (o.markdown)
			printf("\n| scenario | frames | events | utouch | ref | ref/utouch |\n"
			       "|---|---:|---:|---:|---:|---:|\n");
		else
			printf("\n%-26s %6s %6s %10s %10s %9s\n", "scenario", "frames", "events",
			       "utouch", "ref", "ratio");
		for (size_t i = 0; i < n; i++) {
			struct icount ic;

			if (o.only && !strstr(list[i].name, o.only))
				continue;
			if (count_scenario(&o, &list[i], &ic) < 0) {
				failed = 1;
				continue;
			}
			print_icount(&o, &list[i], &ic);
		}
		return failed;
	}
	printf("utouch-bench: %d repeat(s), %s; ref-grail: %s\n", o.repeats,
	       o.iterations ? "fixed iterations" : "iterations calibrated on utouch",
	       o.ref ? o.ref : "not given (utouch numbers only)");
	for (size_t i = 0; i < n; i++) {
		struct result res;

		if (o.only && !strstr(list[i].name, o.only))
			continue;
		if (first || list[i].group != shown) {
			static const char *const titles[] = {
				"scenarios",
				"scaling: touches (drag-N, all landing together; subs mask=drag,touches=1..5)",
				"scaling: subscriptions (storm-10, the first k of the ladder)",
			};
			print_header(&o, titles[list[i].group]);
			shown = list[i].group;
			first = 0;
		}
		if (bench_scenario(&o, &list[i], &res) < 0) {
			failed = 1;
			continue;
		}
		print_row(&o, &list[i], &res);
		if (o.ref && res.ref_status != REF_OK && res.ref_status != REF_NONE) {
			fprintf(stderr, "utouch-bench: ref-grail %s; utouch numbers only from here\n",
				ref_status_text(res.ref_status));
			o.ref = NULL;
		}
	}
	if (o.markdown) {
		printf("\nsubscription ladder:");
		for (size_t k = 0; k < NLADDER; k++)
			printf(" %zu:`%s`", k + 1, sub_ladder[k]);
		printf("\n");
	}
	if (o.alloc_sites)
		print_sites();
	return failed;
}
