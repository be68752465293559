/*
 * ref-grail-batch: many ref-grail replays from one process, for the
 * differential tests.
 *
 *   ref-grail-batch [--mark-known] --batch FILE|-
 *
 * Each line of FILE is one ref-grail command line without the program
 * name; each runs in a child forked from this process, with the output
 * protocol of `utouch-replay --batch` (tools/replay/batch.h: the replay's
 * lines, then "# batch line=N status=S").  A replay forked from a process
 * that has the original libraries loaded costs a fraction of one started
 * anew (exec, dynamic linking, libstdc++ start-up), which was most of the
 * differential suites' time.
 *
 * --mark-known: print a line where the original's output is known to
 * part from utouch's for a reason difftest.py accepts:
 *
 * - "# late timer t=T begin=B" (absolute milliseconds) where the replay
 *   calls grail_update_time(T) with a T before the start B of the latest
 *   touch grail has seen begin.  grail 3.1 subtracts in unsigned
 *   arithmetic, so such a call takes that touch for long past: it leaves
 *   the free touches, its undecided gestures time out and finish
 *   construction at once (doc/grail.md, difference 16; utouch reads such
 *   a time as "not yet").  The harnesses call it when a timeout grail
 *   asks for lies before the last frame.  difftest.py compares traces
 *   only up to that line.
 * - "# subscription order i,j" where subscription j (0-based, in the
 *   order of activation) starts with as many touches as the earlier i but
 *   lies at a lower heap address: grail 3.1 keeps a recognizer's
 *   subscriptions in sets ordered by address, so j makes its candidates
 *   (and takes gesture ids) before i, where utouch goes by activation
 *   order (doc/grail.md, order of events).  Which address a subscription
 *   gets depends on what the process freed before (the recording's
 *   loading, earlier activations).  difftest.py does not compare such a
 *   run.
 *
 * It also hands out every heap block zeroed (malloc() here wraps glibc's),
 * as a fresh heap does: grail 3.1 copies a gesture on expansion without
 * initialising its keep_slices flag (original-utouch.md section 4, item
 * 2), so whether an expanded gesture ever reaches the client depends on
 * what the heap held there before; zero is what utouch does (doc/grail.md,
 * difference 2).  Addresses do not change, so neither does the order the
 * original's pointer-ordered sets give.
 *
 * build-ref-grail.sh --batch compiles ../shared/tools/ref-grail/ref-grail.c
 * unchanged, in place, with its main() renamed to ref_grail_main(), and
 * links it with this file and utouch-replay's batch runner, wrapping
 * grail_update_time(), grail_process_frame_event() and
 * grail_subscription_activate() (ld --wrap) for --mark-known.  The runner takes no heap memory in this process,
 * so each replay starts with the heap a started ref-grail has, which the
 * original's output depends on.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <oif/frame.h>
#include <oif/grail.h>

#include "batch.h"
#include "tool.h"

int ref_grail_main(int argc, char **argv);

static int mark_late; /* --mark-known */
static uint64_t latest_begin;

/* the subscriptions activated so far, in order */
#define MAX_ACTIVATED 64
static UGSubscription activated[MAX_ACTIVATED];
static int nactivated;

UGStatus __real_grail_subscription_activate(UGHandle handle, UGSubscription subscription);
void __real_grail_update_time(UGHandle handle, uint64_t time);
void __real_grail_process_frame_event(UGHandle handle, const UFEvent event);

void
__wrap_grail_update_time(UGHandle handle, uint64_t time)
{
	if (mark_late && time < latest_begin)
		printf("# late timer t=%llu begin=%llu\n", (unsigned long long)time,
		       (unsigned long long)latest_begin);
	__real_grail_update_time(handle, time);
}

void
__wrap_grail_process_frame_event(UGHandle handle, const UFEvent event)
{
	UFFrame frame;

	if (mark_late && frame_event_get_type(event) == UFEventTypeFrame &&
	    frame_event_get_property(event, UFEventPropertyFrame, &frame) == UFStatusSuccess) {
		unsigned int n = frame_frame_get_num_touches(frame);
		for (unsigned int i = 0; i < n; i++) {
			UFTouch touch;
			if (frame_frame_get_touch_by_index(frame, i, &touch) == UFStatusSuccess &&
			    frame_touch_get_state(touch) == UFTouchStateBegin &&
			    frame_touch_get_start_time(touch) > latest_begin)
				latest_begin = frame_touch_get_start_time(touch);
		}
	}
	__real_grail_process_frame_event(handle, event);
}

extern void *__libc_malloc(size_t size);

/* see --mark-known above: every block comes zeroed */
void *
malloc(size_t size)
{
	void *p = __libc_malloc(size);

	if (p && mark_late)
		memset(p, 0, size);
	return p;
}

static unsigned int
touches_start(UGSubscription sub)
{
	unsigned int n = 0;

	if (grail_subscription_get_property(sub, UGSubscriptionPropertyTouchesStart, &n) !=
	    UGStatusSuccess)
		return 0;
	return n;
}

UGStatus
__wrap_grail_subscription_activate(UGHandle handle, UGSubscription subscription)
{
	UGStatus st = __real_grail_subscription_activate(handle, subscription);

	if (mark_late && st == UGStatusSuccess && nactivated < MAX_ACTIVATED) {
		unsigned int start = touches_start(subscription);
		for (int i = 0; i < nactivated; i++)
			if ((uintptr_t)subscription < (uintptr_t)activated[i] &&
			    touches_start(activated[i]) == start) {
				printf("# subscription order %d,%d\n", i, nactivated);
				break;
			}
		activated[nactivated++] = subscription;
	}
	return st;
}

int
main(int argc, char **argv)
{
	tool_init("ref-grail-batch");
	if (argc == 4 && strcmp(argv[1], "--mark-known") == 0) {
		mark_late = 1;
		argc--;
		argv++;
	}
	if (argc != 3 || strcmp(argv[1], "--batch") != 0) {
		fprintf(stderr, "usage: ref-grail-batch [--mark-known] --batch FILE|-\n");
		return 2;
	}
	return replay_batch(argv[2], "ref-grail", ref_grail_main);
}
