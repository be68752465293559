/*
 * ref-grail-batch: many ref-grail replays from one process, for the
 * differential tests.
 *
 *   ref-grail-batch --batch FILE|-
 *
 * Each line of FILE is one ref-grail command line without the program
 * name; each runs in a child forked from this process, with the output
 * protocol of `utouch-replay --batch` (tools/replay/batch.h: the replay's
 * lines, then "# batch line=N status=S").  A replay forked from a process
 * that has the original libraries loaded costs a fraction of one started
 * anew (exec, dynamic linking, libstdc++ start-up), which was most of the
 * differential suites' time.
 *
 * build-ref-grail.sh --batch compiles ../shared/tools/ref-grail/ref-grail.c
 * unchanged, in place, with its main() renamed to ref_grail_main(), and
 * links it with this file and utouch-replay's batch runner.  The runner
 * takes no heap memory in this process, so each replay starts with the
 * heap a started ref-grail has, which the original's output depends on.
 */
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "tool.h"

int ref_grail_main(int argc, char **argv);

int
main(int argc, char **argv)
{
	tool_init("ref-grail-batch");
	if (argc != 3 || strcmp(argv[1], "--batch") != 0) {
		fprintf(stderr, "usage: ref-grail-batch --batch FILE|-\n");
		return 2;
	}
	return replay_batch(argv[2], "ref-grail", ref_grail_main);
}
