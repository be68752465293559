/*
 * utouch-replay: replay a recording through utouch's frame and grail
 * layers and print what they produce, in the trace format shared with the
 * reference harness (doc/trace-format.md).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libevdev/libevdev.h>
#include <oif/frame.h>
#include <oif/grail.h>

#include "batch.h"
#include "options.h"
#include "run.h"
#include "tool.h"
#include "story.h"


struct gesture_stat {
	int seen, decided, ended;
	unsigned int first_touches;
	UGGestureTypeMask last_mask;
};

struct replay {
	struct replay_run run;
	struct replay_opts opts;
	int print, print_frames, verbose, mark_degenerate;
	int extended; /* print the values of grail's utouch extensions */
	struct gesture_stat *stats;
	size_t nstats;
	struct story *story;  /* --story */
};

static struct gesture_stat *
stat_of(struct replay *r, unsigned int id)
{
	if (id >= r->nstats) {
		size_t old = r->nstats;

		TOOL_RESERVE(r->stats, r->nstats, (size_t)id + 1, 64);
		memset(r->stats + old, 0, (r->nstats - old) * sizeof(*r->stats));
	}
	return &r->stats[id];
}

static void
print_slice(const struct replay *r, UGEvent ev, UGSlice slice, int sub)
{
	uint64_t t = grail_event_get_time(ev) - UT_SCRIPT_TIME_BASE_MS;
	UGGestureState st = grail_slice_get_state(slice);
	unsigned int n = grail_slice_get_num_touches(slice);
	float ocx = grail_slice_get_original_center_x(slice);
	float ocy = grail_slice_get_original_center_y(slice);
	float r0 = grail_slice_get_original_radius(slice);
	const UGTransform *C = grail_slice_get_cumulative_transform(slice);
	float scale = sqrtf((*C)[0][0] * (*C)[0][0] + (*C)[0][1] * (*C)[0][1]);
	char mask[64], touches[256];
	size_t used = 0;

	subspec_mask_str(grail_slice_get_recognized(slice), mask, sizeof(mask));
	touches[0] = '\0';
	for (unsigned int i = 0; i < n; i++) {
		UFTouchId id;

		if (grail_slice_get_touch_id(slice, i, &id) != UGStatusSuccess)
			continue;
		used += (size_t)snprintf(touches + used,
					 used < sizeof(touches) ? sizeof(touches) - used : 0,
					 "%s%" PRIu64, used ? "," : "", (uint64_t)id);
	}
	char ext[128] = "";
	if (r->extended) {
		unsigned int taps = grail_slice_get_tap_count(slice);
		unsigned int edge = grail_slice_get_edge(slice);
		int len = snprintf(ext, sizeof(ext), " v=%.4f,%.4f",
				   grail_slice_get_velocity_x(slice),
				   grail_slice_get_velocity_y(slice));
		if (taps && len > 0 && (size_t)len < sizeof(ext))
			len += snprintf(ext + len, sizeof(ext) - (size_t)len, " taps=%u", taps);
		if (edge && len > 0 && (size_t)len < sizeof(ext)) {
			char name[16];
			subspec_edge_str(edge, name, sizeof(name));
			snprintf(ext + len, sizeof(ext) - (size_t)len, " edge=%s", name);
		}
	}
	printf("t=%" PRIu64 " g=%u sub=%d %s n=%u touches=%s rec=%s cf=%d "
	       "oc=%.3f,%.3f c=%.3f,%.3f r0=%.3f r=%.3f "
	       "T=[%.5f %.5f %.3f; %.5f %.5f %.3f]%s%s\n",
	       t, grail_slice_get_id(slice), sub,
	       st == UGGestureStateBegin ? "begin" :
	       st == UGGestureStateUpdate ? "update" : "end",
	       n, touches[0] ? touches : "-", mask,
	       grail_slice_get_construction_finished(slice),
	       ocx, ocy, ocx + (*C)[0][2], ocy + (*C)[1][2], r0, r0 * scale,
	       (*C)[0][0], (*C)[0][1], (*C)[0][2], (*C)[1][0], (*C)[1][1], (*C)[1][2],
	       ext, grail_slice_get_canceled(slice) ? " canceled=1" : "");
	if (r->verbose) {
		const UGTransform *D = grail_slice_get_transform(slice);

		printf("    dT=[%.6f %.6f %.6f; %.6f %.6f %.6f] cor=%.6f,%.6f "
		       "T6=[%.6f %.6f %.6f; %.6f %.6f %.6f]\n",
		       (*D)[0][0], (*D)[0][1], (*D)[0][2], (*D)[1][0], (*D)[1][1],
		       (*D)[1][2], grail_slice_get_center_of_rotation_x(slice),
		       grail_slice_get_center_of_rotation_y(slice),
		       (*C)[0][0], (*C)[0][1], (*C)[0][2], (*C)[1][0], (*C)[1][1],
		       (*C)[1][2]);
	}
}

/* Print a slice and apply the policy to its gesture. */
static void
on_slice(struct replay_run *run, UGEvent ev, UGSlice slice, int sub)
{
	struct replay *r = run->data;
	struct gesture_stat *gs = stat_of(r, grail_slice_get_id(slice));

	if (!gs->seen) {
		gs->seen = 1;
		gs->first_touches = grail_slice_get_num_touches(slice);
	}
	gs->last_mask = grail_slice_get_recognized(slice);
	if (grail_slice_get_state(slice) == UGGestureStateEnd)
		gs->ended = 1;
	if (r->print)
		print_slice(r, ev, slice, sub);

	enum replay_decision d = replay_run_decide(run, r->opts.policy, slice, sub, &gs->decided);
	if (r->story && story_slice(r->story, ev, slice, sub >= 0 && run->subs[sub].atomic, d) < 0)
		tool_oom();
}

static void
story_ops(struct replay_run *run, const struct ut_script_frame *f)
{
	struct replay *r = run->data;
	size_t nbegin = 0;

	for (size_t k = 0; k < f->count; k++)
		nbegin += run->script->ops[f->first + k].kind == UT_OP_BEGIN ? 1 : 0;
	story_frame(r->story, f->time - UT_SCRIPT_TIME_BASE_MS, nbegin);
}

/*
 * --mark-degenerate: grail logs (debug level) the gestures whose angle
 * estimate it switches to the least-squares similarity; print them as
 * "# degenerate g=ID t=MS touches=A,B,C" so that trace comparisons know where
 * grail 3.1's values are not expected (and can check why).  Likewise the
 * slices of split framing (X11) whose rotation and scale are those of the
 * moment before: "# partial g=ID t=MS" (printed when grail builds the
 * slice, which may be before earlier slices of undecided gestures appear).
 */
static void
log_degenerate(void *data, int level, const char *msg)
{
	unsigned int id;
	unsigned long long t;
	char touches[128];

	(void)data;
	if (level == -1 &&
	    sscanf(msg, "gesture %u: angle estimate ill-conditioned at t=%llu (touches %127[0-9,])",
		   &id, &t, touches) == 3)
		printf("# degenerate g=%u t=%llu touches=%s\n", id,
		       t >= UT_SCRIPT_TIME_BASE_MS ? t - UT_SCRIPT_TIME_BASE_MS : t, touches);
	else if (level == -1 && sscanf(msg, "gesture %u: partial frame at t=%llu", &id, &t) == 2)
		printf("# partial g=%u t=%llu\n", id,
		       t >= UT_SCRIPT_TIME_BASE_MS ? t - UT_SCRIPT_TIME_BASE_MS : t);
}

static void
run_setup(struct replay *r)
{
	if (replay_run_setup(&r->run) < 0)
		tool_die(2, "%s", r->run.error);
	if (r->mark_degenerate && r->print)
		grail_set_log_handler(r->run.grail, log_degenerate, r);
	if (r->stats)
		memset(r->stats, 0, r->nstats * sizeof(*r->stats));
}

static void
run_replay(struct replay *r)
{
	if (replay_run_frames(&r->run, 0) < 0)
		tool_die(2, "%s", r->run.error);
}

static void
print_ops(struct replay_run *run, const struct ut_script_frame *f)
{
	const struct ut_touch_op *ops = run->script->ops;

	for (size_t k = 0; k < f->count; k++) {
		const struct ut_touch_op *op = &ops[f->first + k];

		printf("# frame t=%" PRIu64 " %s id=%u win=%.3f,%.3f dev=%.0f,%.0f\n",
		       f->time - UT_SCRIPT_TIME_BASE_MS, ut_script_op_name(op->kind),
		       op->id, op->wx, op->wy, op->dx, op->dy);
	}
}

struct summary_key {
	char key[96];
	unsigned long count;
};

static int
cmp_key(const void *a, const void *b)
{
	return strcmp(((const struct summary_key *)a)->key,
		      ((const struct summary_key *)b)->key);
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void
print_summary(struct replay *r, const char *path)
{
	struct summary_key *keys = NULL;
	size_t nkeys = 0, capkeys = 0;
	unsigned long gestures = 0, ended = 0;

	for (size_t i = 0; i < r->nstats; i++) {
		const struct gesture_stat *g = &r->stats[i];
		char mask[64], key[96];
		size_t j;

		if (!g->seen)
			continue;
		gestures++;
		ended += g->ended ? 1 : 0;
		subspec_mask_str(g->last_mask, mask, sizeof(mask));
		snprintf(key, sizeof(key), "%s/%u", mask, g->first_touches);
		for (j = 0; j < nkeys; j++)
			if (!strcmp(keys[j].key, key))
				break;
		if (j == nkeys) {
			TOOL_RESERVE(keys, capkeys, nkeys + 1, 8);
			snprintf(keys[nkeys].key, sizeof(keys[nkeys].key), "%s", key);
			keys[nkeys++].count = 0;
		}
		keys[j].count++;
	}
	if (nkeys)
		qsort(keys, nkeys, sizeof(*keys), cmp_key);
	printf("summary file=%s frames=%zu events=%" PRIu64 " gestures=%lu ended=%lu",
	       base_name(path), r->run.script->total_frames, r->run.nevents, gestures, ended);
	for (size_t j = 0; j < nkeys; j++)
		printf(" %s=%lu", keys[j].key, keys[j].count);
	printf("\n");
	free(keys);
}

static void
usage(FILE *out)
{
	fputs(
"usage: utouch-replay [options] RECORDING\n"
"       utouch-replay --batch FILE\n"
"Replay an evemu or libinput-record recording through utouch's frame and\n"
"grail layers and print the gesture trace.\n"
"\n", out);
	fputs(replay_opts_help, out);
	fputs(
"      --frames         print the frame operations fed to grail\n"
"      --summary        print one summary line instead of the trace\n"
"      --story          tell what happened in a few sentences instead of the\n"
"                       trace: one line per gesture, distances in mm\n"
"  -v, --verbose        also print per-slice transforms and centre of rotation\n"
"      --extended       print velocity, tap count and edge on every slice\n"
"                       (implied by any utouch extension in a -s SPEC)\n"
"      --mark-degenerate  print \"# degenerate g=ID t=MS touches=IDS\" where\n"
"                       grail 3.1's angle estimate was ill-conditioned and\n"
"                       utouch used the least-squares similarity instead,\n"
"                       and \"# partial g=ID t=MS\" for slices of a frame in\n"
"                       the middle of a moment of split (X11) framing\n"
"      --bench N        replay N times and print ns per frame event\n"
"      --batch FILE     alone: run one replay per line of FILE (- for standard\n"
"                       input), each line holding the options and recording\n"
"                       as above; \"# batch line=N status=S\" after each\n"
"  -h, --help           show this help\n", out);
}

static void
bench_run(struct replay *r, long iterations, const char *path)
{
	struct timespec t0, t1;
	double ns;

	r->print = 0;
	r->run.on_frame = NULL;
	run_setup(r); /* warm-up */
	run_replay(r);
	replay_run_teardown(&r->run);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < iterations; i++) {
		run_setup(r);
		run_replay(r);
		replay_run_teardown(&r->run);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
	printf("bench file=%s iterations=%ld frames=%zu events_per_iter=%" PRIu64
	       " total_ms=%.3f ns_per_frame=%.1f\n",
	       base_name(path), iterations, r->run.script->total_frames, r->run.nevents, ns / 1e6,
	       r->run.script->total_frames
		       ? ns / ((double)iterations * (double)r->run.script->total_frames)
		       : 0.0);
}

enum { OPT_FRAMES = REPLAY_OPT_TOOL, OPT_SUMMARY, OPT_STORY, OPT_BENCH, OPT_MARK_DEGENERATE,
       OPT_EXTENDED, OPT_BATCH };

/* One replay: the options and recording of @p argv. */
static int
replay_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPLAY_OPTS_LONGOPTS,
		{ "frames", no_argument, NULL, OPT_FRAMES },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "story", no_argument, NULL, OPT_STORY },
		{ "verbose", no_argument, NULL, 'v' },
		{ "bench", required_argument, NULL, OPT_BENCH },
		{ "mark-degenerate", no_argument, NULL, OPT_MARK_DEGENERATE },
		{ "extended", no_argument, NULL, OPT_EXTENDED },
		{ "batch", required_argument, NULL, OPT_BATCH },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct replay r;
	const char *path;
	int summary = 0, story = 0, frames = 0, c;
	long bench = 0;
	struct ut_recording *rec = NULL;
	struct ut_recording_reader *reader = NULL;
	const struct libevdev *dev;
	struct ut_script script;
	char err[512];

	replay_opts_init(&r.opts);
	while ((c = getopt_long(argc, argv, REPLAY_OPTS_SHORT "vh", longopts, NULL)) != -1) {
		char *end;

		switch (replay_opts_handle(&r.opts, c, optarg, err, sizeof(err))) {
		case 1:
			continue;
		case -1:
			tool_usage_error("%s", err);
		}
		switch (c) {
		case OPT_FRAMES: frames = 1; break;
		case OPT_SUMMARY: summary = 1; break;
		case OPT_STORY: story = 1; break;
		case 'v': r.verbose = 1; break;
		case OPT_MARK_DEGENERATE: r.mark_degenerate = 1; break;
		case OPT_EXTENDED: r.extended = 1; break;
		case OPT_BENCH:
			errno = 0;
			bench = strtol(optarg, &end, 10);
			if (errno || *end || bench <= 0)
				tool_usage_error("--bench takes a positive count, not '%s'", optarg);
			break;
		case OPT_BATCH:
			tool_usage_error("--batch FILE comes alone: each line of FILE holds the "
					 "options and recording of one replay");
		case 'h':
			usage(stdout);
			return 0;
		default:
			tool_usage_error("unknown option");
		}
	}
	path = tool_one_recording(argc, argv, optind);
	if (summary + story + (bench > 0) > 1)
		tool_usage_error("--summary, --story and --bench exclude each other");
	int default_sub = r.opts.nsubs == 0;
	replay_opts_finish(&r.opts);
	for (int i = 0; i < r.opts.nsubs; i++)
		if (r.opts.subs[i].extended)
			r.extended = 1;

	/* --bench times the replay alone: the script is built whole before;
	 * otherwise the recording is streamed, in memory that does not
	 * depend on its length */
	if ((bench ? replay_opts_load(&r.opts, path, &rec, &script, err, sizeof(err))
		   : replay_opts_open(&r.opts, path, &reader, &script, err, sizeof(err))) < 0) {
		fprintf(stderr, "utouch-replay: %s\n", err);
		return 1;
	}
	dev = rec ? rec->dev : reader->dev;

	if (script.ended_at_end > 0)
		fprintf(stderr, "utouch-replay: %s: the recording ends with %zu touch%s down; "
			"%s at its last event\n", path, script.ended_at_end,
			script.ended_at_end == 1 ? "" : "es",
			script.ended_at_end == 1 ? "it ends" : "they end");
	if (script.dropped > 0)
		fprintf(stderr, "utouch-replay: %s: warning: %lu protocol A contacts beyond %d "
			"in one report were left out\n", path, script.dropped,
			script.max_contacts);
	replay_opts_configure(&r.opts, &r.run, dev, &script);
	r.run.on_slice = on_slice;
	r.run.on_frame = frames && !summary && !story ? print_ops : NULL;
	r.run.data = &r;
	r.print = !summary && !story;
	if (story) {
		r.story = story_new(dev, script.direct, r.opts.stream.screen_w,
				    r.opts.stream.screen_h);
		if (!r.story)
			tool_oom();
		r.run.on_frame = story_ops;
	}

	if (bench) {
		bench_run(&r, bench, path);
	} else {
		if (r.print)
			printf("# file=%s device=\"%s\" protocol=%c direct=%d frames=%zu "
			       "touchops=%zu split=%d own=%s\n",
			       path, libevdev_get_name(dev) ? libevdev_get_name(dev) : "",
			       script.protocol, script.direct, script.total_frames, script.total_ops,
			       r.opts.stream.split, r.opts.stream.own == UT_OWN_EVENT ? "event" : "begin");
		run_setup(&r);
		run_replay(&r);
		if (summary)
			print_summary(&r, path);
		else if (story)
			story_print(r.story, stdout, base_name(path));
		else
			printf("# events=%" PRIu64 " accept/reject failures=%" PRIu64 "\n",
			       r.run.nevents, r.run.nfailures);
		fflush(stdout);
		if (!r.run.nevents && default_sub)
			fprintf(stderr, "utouch-replay: no gesture matched the default subscription "
				"(two-finger drags: mask=drag, start=2); choose others with -s, for example "
				"-s mask=all,touches=1 (see utouch-replay --help)\n");
		replay_run_teardown(&r.run);
	}
	free(r.stats);
	story_free(r.story);
	ut_script_release(&script);
	ut_recording_free(rec);
	ut_recording_close(reader);
	return 0;
}

int
main(int argc, char **argv)
{
	tool_init("utouch-replay");
	if (argc == 3 && !strcmp(argv[1], "--batch"))
		return replay_batch(argv[2], argv[0], replay_main);
	if (argc == 2 && !strncmp(argv[1], "--batch=", 8))
		return replay_batch(argv[1] + 8, argv[0], replay_main);
	return replay_main(argc, argv);
}
