/*
 * The evdev stream checker of the proxy tests (evdev-check.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <libevdev/libevdev.h>

#include "evdev-check.h"

void
ec_read(const struct libevdev *d, const struct input_event *events, size_t nevents,
	struct ec_touches *out, int strict)
{
	int slot = 0, tid[64], idx[64], cx[64], cy[64], moved[64];
	int btn_touch = 0, abs_x = -1, abs_y = -1, tool[5] = { 0 }, in_report = 0;
	int64_t last_ts = -1;
	static const unsigned int tools[5] = { BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP,
					       BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP,
					       BTN_TOOL_QUINTTAP };

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 64; i++)
		tid[i] = idx[i] = -1, cx[i] = cy[i] = moved[i] = 0;
	for (size_t i = 0; i < nevents; i++) {
		const struct input_event *e = &events[i];

		in_report = 1;
		if (e->type == EV_ABS && e->code == ABS_MT_SLOT) {
			assert_in_range(e->value, 0, 63);
			slot = e->value;
		} else if (e->type == EV_ABS && e->code == ABS_MT_TRACKING_ID) {
			if (e->value >= 0) {
				if (strict)
					assert_int_equal(tid[slot], -1);   /* a new touch in a free slot */
				assert_true(out->n < EC_MAX_TOUCHES);
				idx[slot] = out->n++;
				moved[slot] = 1;
			} else {
				if (strict)
					assert_int_not_equal(tid[slot], -1);  /* ends a touch */
				if (idx[slot] >= 0)
					out->ended[idx[slot]] = 1;
				idx[slot] = -1;
			}
			tid[slot] = e->value;
		} else if (e->type == EV_ABS &&
			   (e->code == ABS_MT_POSITION_X || e->code == ABS_MT_POSITION_Y)) {
			if (strict)
				assert_int_not_equal(tid[slot], -1);   /* no values for a free slot */
			if (e->code == ABS_MT_POSITION_X)
				cx[slot] = e->value;
			else
				cy[slot] = e->value;
			moved[slot] = 1;
		} else if (e->type == EV_KEY && e->code == BTN_TOUCH) {
			btn_touch = e->value;
		} else if (e->type == EV_KEY) {
			for (int k = 0; k < 5; k++)
				if (tools[k] == e->code)
					tool[k] = e->value;
		} else if (e->type == EV_ABS && e->code == ABS_X) {
			abs_x = e->value;
		} else if (e->type == EV_ABS && e->code == ABS_Y) {
			abs_y = e->value;
		} else if (e->type == EV_MSC && e->code == MSC_TIMESTAMP) {
			if (strict)
				assert_true((int64_t)(uint32_t)e->value >= last_ts);
			last_ts = (uint32_t)e->value;
		} else if (e->type == EV_SYN && e->code == SYN_REPORT) {
			int active = 0, oldest = -1;

			in_report = 0;
			out->reports++;
			for (int s = 0; s < 64; s++) {
				if (tid[s] < 0)
					continue;
				active++;
				if (oldest < 0 || tid[s] < tid[oldest])
					oldest = s;
				int t = idx[s], k = out->npos[t];

				if (moved[s] && k < EC_MAX_POS) {
					out->x[t][k] = cx[s];
					out->y[t][k] = cy[s];
					out->npos[t] = k + 1;
				}
				moved[s] = 0;
			}
			if (!strict)
				continue;
			if (libevdev_has_event_code(d, EV_KEY, BTN_TOUCH))
				assert_int_equal(btn_touch, active > 0);
			int want = active > 5 ? 5 : active, tools_down = 0;

			for (int k = 0; k < 5; k++) {
				tools_down += tool[k];
				if (tool[k])
					assert_int_equal(k + 1, want);
			}
			if (active && libevdev_has_event_code(d, EV_KEY, tools[want - 1]))
				assert_int_equal(tools_down, 1);
			if (!active)
				assert_int_equal(tools_down, 0);
			if (oldest >= 0 && libevdev_has_event_code(d, EV_ABS, ABS_X)) {
				assert_int_equal(abs_x, cx[oldest]);
				assert_int_equal(abs_y, cy[oldest]);
			}
		}
	}
	/* the last report is closed and every touch ended */
	assert_int_equal(in_report, 0);
	for (int s = 0; s < 64; s++)
		assert_int_equal(tid[s], -1);
}

/* Every touch of @p orig is in @p got, in order: the same first and
 * last positions, and the positions in between a subsequence of the
 * original's (a held history is compressed). */
void
ec_assert_whole(const struct ec_touches *orig, const struct ec_touches *got, int exact)
{
	assert_int_equal(got->n, orig->n);
	for (int t = 0; t < orig->n; t++) {
		int no = orig->npos[t], ng = got->npos[t];

		assert_true(got->ended[t]);
		assert_true(ng > 0 && ng <= no);
		if (exact)
			assert_int_equal(ng, no);
		assert_int_equal(got->x[t][0], orig->x[t][0]);
		assert_int_equal(got->y[t][0], orig->y[t][0]);
		assert_int_equal(got->x[t][ng - 1], orig->x[t][no - 1]);
		assert_int_equal(got->y[t][ng - 1], orig->y[t][no - 1]);
		int k = 0;

		for (int i = 0; i < ng; i++) {
			while (k < no && (orig->x[t][k] != got->x[t][i] ||
					  orig->y[t][k] != got->y[t][i]))
				k++;
			assert_true(k < no);   /* in the original, in order */
		}
	}
}
