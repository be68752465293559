/*
 * grail geometry: the least-squares similarity that replaces grail 3.1's
 * angle estimate where that estimate is ill-conditioned (issue 15, part 1).
 *
 * Translations of 2-5 touches (in a row or not, with or without a touch on
 * the centroid, with and without jitter) in the report framing (all touches
 * in one frame) and the X11 framing (one touch per frame) must never be
 * recognised as rotate or pinch and keep the cumulative angle under 1
 * degree and the scale within 1 %; real rotations and pinches are
 * recognised at the same thresholds as before.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "grail-fixture.h"
#include "grail/grail-private.h"

#define DEG (M_PI / 180.0)

enum layout { ROW, ROW_CENTROID, RING, RING_CENTROID };
static const char *const layout_names[] = {"row", "row+centroid", "ring",
					   "ring+centroid"};

/* Positions of n touches about (cx, cy) with spread d (pixels). */
static void
place(enum layout l, unsigned int n, float cx, float cy, float d, float *x, float *y)
{
	unsigned int k = (l == ROW_CENTROID || l == RING_CENTROID) ? n - 1 : n;
	for (unsigned int i = 0; i < k; i++) {
		if (l == ROW || l == ROW_CENTROID) {
			/* symmetric about the centre: -d..d, or pairs when a
			 * centroid touch completes the row */
			float off = k == 1 ? 0.0f : -d + 2.0f * d * (float)i / (float)(k - 1);
			x[i] = cx + off;
			y[i] = cy + 0.3f * off; /* a slanted row */
		} else {
			double a = 2.0 * M_PI * i / k + 0.4;
			x[i] = cx + d * (float)cos(a);
			y[i] = cy + d * (float)sin(a);
		}
	}
	if (k < n) {
		x[k] = cx;
		y[k] = cy;
	}
}

/* A small deterministic jitter in [-amp, amp]. */
static float
jitter(unsigned int *seed, float amp)
{
	*seed = *seed * 1103515245u + 12345u;
	return amp * ((float)((*seed >> 8) & 0xffff) / 32767.5f - 1.0f);
}

struct motion {
	enum layout layout;
	unsigned int n;
	bool x11;          /* one touch per frame */
	float jitter;      /* pixels */
	double rotate;     /* total rotation about the centroid, radians */
	double scale;      /* total scale about the centroid */
	float dx, dy;      /* total translation, pixels */
	unsigned int steps;
};

/*
 * Play the motion (window pixels, 3.76 px/mm; the fixture maps 0..10000 device
 * units onto a 1024x768 window): begin the touches 5 ms apart, then @steps reports of
 * 10 ms in which every touch moves (report framing: one frame; X11
 * framing: one frame per touch, 1 ms apart).
 */
static void
play(struct fixture *fx, const struct motion *m)
{
	float x0[5], y0[5];
	const float cx = 400.0f, cy = 300.0f;
	unsigned int seed = 7u * m->n + (unsigned int)m->layout;

	/* the outer fingers about 27 mm from their centroid */
	place(m->layout, m->n, cx, cy, 100.0f, x0, y0);
	for (unsigned int i = 0; i < m->n; i++) {
		if (i)
			fx->time += 5;
		fx_begin_owned(fx, i + 1, x0[i] * 10000.0f / 1024.0f, y0[i] * 10000.0f / 768.0f);
	}
	for (unsigned int s = 1; s <= m->steps; s++) {
		double f = (double)s / m->steps;
		double a = m->rotate * f, k = 1.0 + (m->scale - 1.0) * f;
		float xs[5], ys[5];
		UFTouchId ids[5];
		for (unsigned int i = 0; i < m->n; i++) {
			double rx = x0[i] - cx, ry = y0[i] - cy;
			xs[i] = (float)(cx + m->dx * f + k * (rx * cos(a) - ry * sin(a))) +
				jitter(&seed, m->jitter);
			ys[i] = (float)(cy + m->dy * f + k * (rx * sin(a) + ry * cos(a))) +
				jitter(&seed, m->jitter);
			ids[i] = i + 1;
		}
		for (unsigned int i = 0; i < m->n; i++) {
			xs[i] *= 10000.0f / 1024.0f;
			ys[i] *= 10000.0f / 768.0f;
		}
		fx->time += 10;
		if (m->x11) {
			for (unsigned int i = 0; i < m->n; i++) {
				fx_move(fx, ids[i], xs[i], ys[i]);
				fx->time += 1;
			}
			fx->time -= m->n;
		} else {
			fx_move_many(fx, m->n, ids, xs, ys);
		}
	}
}

static double
slice_angle(const struct fx_slice *s)
{
	return atan2(s->T[1][0], s->T[0][0]);
}

static double
slice_scale(const struct fx_slice *s)
{
	return hypot(s->T[0][0], s->T[1][0]);
}

/* Largest |angle| and |scale - 1| over every slice of the run. */
static void
extremes(const struct fixture *fx, double *angle, double *scale)
{
	*angle = 0.0;
	*scale = 0.0;
	for (unsigned int i = 0; i < fx->nslices; i++) {
		const struct fx_slice *s = &fx->slices[i];
		if (fabs(slice_angle(s)) > *angle)
			*angle = fabs(slice_angle(s));
		if (fabs(slice_scale(s) - 1.0) > *scale)
			*scale = fabs(slice_scale(s) - 1.0);
	}
}

static void
test_translations_are_not_rotations(void **state)
{
	(void)state;
	double worst_angle = 0.0, worst_scale = 0.0;

	for (unsigned int n = 2; n <= 5; n++) {
		for (int l = ROW; l <= RING_CENTROID; l++) {
			if (n == 2 && (l == ROW_CENTROID || l == RING_CENTROID))
				continue; /* two touches have no centroid touch */
			if (n == 2 && l == RING)
				continue; /* two touches are always in a row */
			for (int x11 = 0; x11 <= 1; x11++) {
				for (int j = 0; j <= 1; j++) {
					struct motion m = {
						.layout = (enum layout)l, .n = n, .x11 = x11,
						.jitter = j ? 0.25f : 0.0f, .scale = 1.0,
						.dx = 120.0f, .dy = 40.0f, .steps = 150,
					};
					struct fixture *fx = fx_new();
					fx_subscribe(fx, UGGestureTypeDrag | UGGestureTypePinch |
							     UGGestureTypeRotate,
						     n, 0, 0);
					/* an undecided gesture is never activated: take all */
					fx->policy = FX_POLICY_NONE;
					play(fx, &m);
					double a, s;
					extremes(fx, &a, &s);
					UGGestureTypeMask seen = 0;
					for (unsigned int i = 0; i < fx->nslices; i++)
						seen |= fx->slices[i].recognized;
					if (seen != UGGestureTypeDrag || a >= 1.0 * DEG ||
					    s >= 0.01)
						print_error("%u touches, %s, %s, jitter %.1f: "
							    "recognized %#x, max angle %.3f deg, "
							    "max |scale-1| %.4f\n",
							    n, layout_names[l],
							    x11 ? "x11" : "report", m.jitter,
							    (unsigned)seen, a / DEG, s);
					assert_int_equal(seen, UGGestureTypeDrag);
					assert_true(a < 1.0 * DEG);
					assert_true(s < 0.01);
					if (a > worst_angle)
						worst_angle = a;
					if (s > worst_scale)
						worst_scale = s;
					fx_free(fx);
				}
			}
		}
	}
	print_message("worst over all translations: %.3f deg, |scale-1| %.5f\n",
		      worst_angle / DEG, worst_scale);
}

/* The case: three fingers in a row dragged across the row, X11
 * framing.  grail 3.1 recognised rotate before drag here. */
static void
test_three_finger_row_drag_x11(void **state)
{
	(void)state;
	struct motion m = {
		.layout = ROW, .n = 3, .x11 = true, .scale = 1.0, .dx = 0.0f,
		.dy = 150.0f, .steps = 100,
	};
	struct fixture *fx = fx_new();
	fx_subscribe(fx, UGGestureTypeRotate, 3, 0, 0);
	UGSubscription drag = fx_subscribe(fx, UGGestureTypeDrag, 3, 0, 0);
	play(fx, &m);
	/* only the drag subscription's gesture reaches the client */
	assert_true(fx->nslices > 0);
	for (unsigned int i = 0; i < fx->nslices; i++) {
		assert_ptr_equal(fx->slices[i].sub, drag);
		assert_true(fabs(slice_angle(&fx->slices[i])) < 1.0 * DEG);
		assert_true(fabs(fx->slices[i].dT[1][0]) < 0.02);
	}
	fx_free(fx);
}

/* Rotation by @angle (and scale 1) of @n touches; whether rotate was seen. */
static bool
rotation_recognized(enum layout l, unsigned int n, bool x11, double angle, double scale,
		    UGGestureTypeMask mask, double *final_angle, double *final_scale)
{
	struct motion m = {
		.layout = l, .n = n, .x11 = x11, .rotate = angle, .scale = scale,
		.steps = 10,
	};
	struct fixture *fx = fx_new();
	fx_subscribe(fx, mask, n, 0, 0);
	play(fx, &m);
	bool seen = false;
	for (unsigned int i = 0; i < fx->nslices; i++)
		if (fx->slices[i].recognized & mask)
			seen = true;
	if (fx->nslices) {
		const struct fx_slice *s = &fx->slices[fx->nslices - 1];
		*final_angle = slice_angle(s);
		*final_scale = slice_scale(s);
	}
	fx_free(fx);
	return seen;
}

static void
test_rotations_and_pinches_same_thresholds(void **state)
{
	(void)state;
	/* default thresholds: rotate 2pi/50 (7.2 deg) within 500 ms, pinch
	 * ratio 1.1 within 300 ms; 10 reports of 10 ms stay within both */
	for (unsigned int n = 2; n <= 5; n++) {
		for (int l = ROW; l <= RING_CENTROID; l++) {
			if (n == 2 && l != ROW)
				continue;
			for (int x11 = 0; x11 <= 1; x11++) {
				double a = 0, s = 0;
				assert_true(rotation_recognized((enum layout)l, n, x11, 9 * DEG,
								1.0, UGGestureTypeRotate, &a,
								&s));
				assert_true(fabs(a - 9 * DEG) < 0.05 * DEG);
				assert_true(fabs(s - 1.0) < 1e-3);
				assert_false(rotation_recognized((enum layout)l, n, x11,
								 5 * DEG, 1.0,
								 UGGestureTypeRotate, &a, &s));
				assert_true(rotation_recognized((enum layout)l, n, x11, 0.0,
								1.15, UGGestureTypePinch, &a,
								&s));
				assert_true(fabs(s - 1.15) < 1e-3);
				assert_false(rotation_recognized((enum layout)l, n, x11, 0.0,
								 1.05, UGGestureTypePinch, &a,
								 &s));
				assert_true(rotation_recognized((enum layout)l, n, x11, 0.0,
								1 / 1.15, UGGestureTypePinch,
								&a, &s));
			}
		}
	}
}

static void
test_similarity_fit(void **state)
{
	(void)state;
	/* a row of three with the middle one on the centroid, rotated by
	 * 30 degrees, scaled by 2 and moved */
	const float px[] = {-10, 0, 10}, py[] = {0, 0, 0};
	float qx[3], qy[3], angle, scale;
	double c = 2 * cos(30 * DEG), s = 2 * sin(30 * DEG);
	for (int i = 0; i < 3; i++) {
		qx[i] = (float)(c * px[i] - s * py[i] + 100);
		qy[i] = (float)(s * px[i] + c * py[i] - 50);
	}
	assert_true(gr_similarity_fit(px, py, qx, qy, 3, &angle, &scale));
	assert_true(fabs(angle - 30 * DEG) < 1e-5);
	assert_true(fabs(scale - 2.0) < 1e-5);
	/* one outer touch moves across the row: a least-squares rotation of
	 * h / (2 d) and not the mean of the touches' angle changes */
	qx[0] = -10;
	qy[0] = 1;
	qx[1] = 0;
	qy[1] = 0;
	qx[2] = 10;
	qy[2] = 0;
	assert_true(gr_similarity_fit(px, py, qx, qy, 3, &angle, &scale));
	assert_true(fabs(angle - atan2(-0.05, 1.0)) < 1e-5);
	/* all touches on one point: no rotation, no scale */
	const float zx[] = {5, 5, 5}, zy[] = {1, 1, 1};
	assert_false(gr_similarity_fit(zx, zy, qx, qy, 3, &angle, &scale));
	assert_true(angle == 0.0f && scale == 1.0f);
	assert_false(gr_similarity_fit(px, py, qx, qy, 0, &angle, &scale));
}

static void
test_ill_conditioned(void **state)
{
	(void)state;
	/* two touches: never (both estimates agree) */
	const float x2[] = {0, 10}, y2[] = {0, 0};
	assert_false(gr_angle_ill_conditioned(x2, y2, 2));
	/* a row with the middle touch on the centroid */
	const float x3[] = {-10, 0, 10}, y3[] = {0, 0, 0};
	assert_true(gr_angle_ill_conditioned(x3, y3, 3));
	/* a triangle: every touch far from the centroid */
	const float xt[] = {0, 10, 5}, yt[] = {0, 0, 8};
	assert_false(gr_angle_ill_conditioned(xt, yt, 3));
	/* the limit: a quarter of the mean distance.  Touches at -10, d, 10
	 * - d... keep it simple: a row -12, 1.5, 10 has centroid -1/6 */
	const float xa[] = {-12, 0.9f, 11.1f}, ya[] = {0, 0, 0};
	/* centroid 0, distances 12, 0.9, 11.1: mean 8, limit 2 */
	assert_true(gr_angle_ill_conditioned(xa, ya, 3));
	const float xb[] = {-13, 2.5f, 10.5f}, yb[] = {0, 0, 0};
	/* centroid 0, distances 13, 2.5, 10.5: mean 8.67, limit 2.17 */
	assert_false(gr_angle_ill_conditioned(xb, yb, 3));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_similarity_fit),
		cmocka_unit_test(test_ill_conditioned),
		cmocka_unit_test(test_translations_are_not_rotations),
		cmocka_unit_test(test_three_finger_row_drag_x11),
		cmocka_unit_test(test_rotations_and_pinches_same_thresholds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
