/*
 * libFuzzer target for utouch-synth's scenario language (tools/synth):
 * the input is a scenario.  Besides the sanitizers it checks what users of
 * the tool rely on: a refused scenario names the file; an accepted one
 * renders for its preset (or fails with a message), and every recording
 * it renders, in each output format, is one that utouch's own recording
 * loader accepts, with the same number of events.
 *
 * Scenarios can ask for long recordings (up to the tool's limit of 16 M
 * events, hundreds of MB); the target renders only those of at most
 * MAX_REPORTS reports, so that a run stays within libFuzzer's time and
 * memory limits.  The limit is the harness's, not the tool's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/recording/recording.h"
#include "synth.h"

#define MAX_REPORTS 20000

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Write the stream in @format into memory and load it back. */
static void
check_roundtrip(const struct synth_stream *st, enum synth_format format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	if (!fp)
		abort();
	int rc = format == SYNTH_FORMAT_LIBINPUT ?
		synth_write_libinput(fp, st, "fuzz.scn") :
		(synth_write_evemu_device(fp, st, format, "fuzz.scn") ||
		 synth_write_evemu_events(fp, st, format));
	if (fclose(fp) != 0 || rc != 0)
		abort();

	struct ut_recording *rec = NULL;
	char err[256];
	if (ut_recording_parse(format == SYNTH_FORMAT_LIBINPUT ? "fuzz.yml" : "fuzz.evemu", buf,
			       len, &rec, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz-synth: our loader refuses our output: %s\n", err);
		abort();
	}
	if (rec->nevents != st->nevents) {
		fprintf(stderr, "fuzz-synth: %zu events written, %zu loaded\n", st->nevents,
			rec->nevents);
		abort();
	}
	ut_recording_free(rec);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-synth.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);

	struct synth_scenario *sc = synth_scenario_load(path);
	unlink(path);
	if (!sc)
		return 0;

	const struct synth_preset *preset =
		synth_preset_find(sc->preset_name ? sc->preset_name : "touchscreen");
	if (!preset)
		abort(); /* the loader checks the preset name */
	int64_t end = 0;
	for (size_t i = 0; i < sc->ntouches; i++) {
		int64_t e = synth_touch_end(&sc->touches[i]);
		if (e > end)
			end = e;
	}
	if (end / sc->interval_us <= MAX_REPORTS) {
		struct synth_stream st;
		if (synth_render(sc, preset, &st) == 0) {
			if (st.nevents == 0 || st.nreports == 0)
				abort();
			check_roundtrip(&st, SYNTH_FORMAT_EVEMU2);
			check_roundtrip(&st, SYNTH_FORMAT_EVEMU1);
			check_roundtrip(&st, SYNTH_FORMAT_LIBINPUT);
			synth_stream_backstep(&st, 1 + (int)(size % 1000));
			check_roundtrip(&st, SYNTH_FORMAT_EVEMU2);
			synth_stream_release(&st);
		}
	}
	synth_scenario_free(sc);
	return 0;
}
