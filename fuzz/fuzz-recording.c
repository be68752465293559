/*
 * libFuzzer target for the recording parsers.  Besides the sanitizers it
 * checks what every caller relies on: success gives a device and at least
 * one event, failure gives no recording and a message that
 * names the input.  Event times never lie more than
 * UT_RECORDING_MAX_BACKSTEP_USEC before an earlier event's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/recording/recording.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ut_recording *rec = NULL;
	char err[256];

	int rc = ut_recording_parse("fuzz", (const char *)data, size, &rec, err, sizeof(err));
	if (rc != 0) {
		if (rc > 0 || rec != NULL || strncmp(err, "fuzz:", 5) != 0)
			abort();
		return 0;
	}

	if (!rec || !rec->dev || rec->nevents == 0 || !rec->events)
		abort();
	uint64_t latest = rec->events[0].usec;
	for (size_t i = 1; i < rec->nevents; i++) {
		if (rec->events[i].usec + UT_RECORDING_MAX_BACKSTEP_USEC < latest)
			abort();
		if (rec->events[i].usec > latest)
			latest = rec->events[i].usec;
	}
	ut_recording_free(rec);
	return 0;
}
