/* Sampling a scenario at the report rate into evdev events. */
#include <limits.h>
#include <linux/input.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"
#include "tool.h"

#define UNSET INT_MIN
/* the most events a recording may have (utouch's recording loader limit) */
#define MAX_EVENTS (16u * 1024u * 1024u)

struct slot_state {
	long touch;          /* index of the touch in the slot, -1 if free */
	bool freed_now;      /* released in this report: not reusable yet */
	int tracking_id, x, y, major, minor, pressure; /* last emitted values */
};

struct render {
	const struct synth_scenario *sc;
	const struct synth_preset *preset;
	struct synth_stream *out;
	int64_t t0;          /* time of the first report */

	/* per touch */
	int64_t *first, *last, *release;
	int *tracking_id;    /* protocol A with tracking ids */
	int *slot;           /* protocol B */

	/* touches that are down, in the order they landed */
	size_t *down;
	size_t ndown;

	struct slot_state *slots;
	int current_slot;    /* last ABS_MT_SLOT written */
	int next_tracking_id;

	/* single-touch state */
	int btn_touch, tool; /* tool: the finger count last reported */
	int abs_x, abs_y, abs_pressure;
	bool too_many;       /* MAX_EVENTS reached */
};


static void
emit(struct render *r, int64_t when, unsigned type, unsigned code, int value)
{
	struct synth_stream *st = r->out;

	if (st->nevents >= MAX_EVENTS) {
		r->too_many = true;
		return;
	}
	TOOL_RESERVE(st->events, st->capevents, st->nevents + 1, 4096);
	st->events[st->nevents++] = (struct synth_event){
		.usec = when - r->t0, .type = (uint16_t)type, .code = (uint16_t)code,
		.value = value,
	};
}

/* splitmix64: a stateless hash, so that jitter depends only on the seed,
 * the touch and the report, not on the device or output format. */
static uint64_t
mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
jitter_value(uint64_t seed, size_t touch, int64_t tick, unsigned axis)
{
	uint64_t h = mix64(seed ^ mix64((uint64_t)touch * 4 + axis) ^ mix64((uint64_t)tick));
	return (double)(h >> 11) / (double)(1ULL << 53) * 2.0 - 1.0; /* [-1, 1) */
}

static int
mm_to_units(const struct synth_axis *axis, double mm, double size_mm)
{
	if (mm < 0.0)
		mm = 0.0;
	if (mm > size_mm)
		mm = size_mm;
	return axis->min + (int)lround(mm * (double)(axis->max - axis->min) / size_mm);
}

/* Device units of touch i at time `when`; -1 after printing an error. */
static int
touch_units(struct render *r, size_t i, int64_t when, int *ux, int *uy)
{
	const struct synth_scenario *sc = r->sc;
	const struct synth_preset *pr = r->preset;
	const struct synth_touch *t = &sc->touches[i];
	const double slack = 1e-6;
	double x, y;

	synth_touch_position(t, when, &x, &y);
	if (x < -slack || y < -slack || x > pr->width_mm + slack || y > pr->height_mm + slack) {
		fprintf(stderr,
			"%s:%d: touch position %.1f,%.1f mm at %.0f ms is outside the "
			"%g x %g mm surface of device '%s'\n",
			sc->path, t->line, x, y, (double)when / 1000.0, pr->width_mm,
			pr->height_mm, pr->name);
		return -1;
	}
	if (sc->jitter_mm > 0.0) {
		int64_t tick = when / sc->interval_us;
		x += sc->jitter_mm * jitter_value(sc->seed, i, tick, 0);
		y += sc->jitter_mm * jitter_value(sc->seed, i, tick, 1);
	}
	*ux = mm_to_units(&pr->x, x, pr->width_mm);
	*uy = mm_to_units(&pr->y, y, pr->height_mm);
	return 0;
}

static int
cmp_by_first(const void *a, const void *b, void *data)
{
	const struct render *r = data;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (r->first[i] != r->first[j])
		return r->first[i] < r->first[j] ? -1 : 1;
	return i < j ? -1 : (i > j);
}

/* Keys and single-touch axes after the per-contact data. */
static int
emit_pointer(struct render *r, int64_t when)
{
	const struct synth_preset *pr = r->preset;
	int count = (int)r->ndown;

	if (r->btn_touch != (count > 0)) {
		r->btn_touch = count > 0;
		emit(r, when, EV_KEY, BTN_TOUCH, r->btn_touch);
	}
	if (pr->touchpad) {
		static const unsigned tools[] = {
			BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP,
			BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP,
		};
		int tool = count > 5 ? 5 : count;
		if (tool != r->tool) {
			/* releases first, so that two tools are never down at once */
			if (r->tool > 0)
				emit(r, when, EV_KEY, tools[r->tool - 1], 0);
			if (tool > 0)
				emit(r, when, EV_KEY, tools[tool - 1], 1);
			r->tool = tool;
		}
	}
	if (count > 0) {
		int ux, uy;
		if (touch_units(r, r->down[0], when, &ux, &uy) < 0)
			return -1;
		if (ux != r->abs_x)
			emit(r, when, EV_ABS, ABS_X, r->abs_x = ux);
		if (uy != r->abs_y)
			emit(r, when, EV_ABS, ABS_Y, r->abs_y = uy);
	}
	if (pr->pressure) {
		int p = count > 0 ? pr->pressure : 0;
		if (p != r->abs_pressure)
			emit(r, when, EV_ABS, ABS_PRESSURE, r->abs_pressure = p);
	}
	if (pr->msc_timestamp)
		emit(r, when, EV_MSC, MSC_TIMESTAMP, (int32_t)(uint32_t)(uint64_t)(when - r->t0));
	return 0;
}

static int
report_b(struct render *r, int64_t when)
{
	const struct synth_preset *pr = r->preset;

	for (int s = 0; s < pr->slots; s++) {
		struct slot_state *ss = &r->slots[s];
		int tid, ux = 0, uy = 0;
		bool changed[6] = { false };

		if (ss->touch < 0) {
			if (!ss->freed_now)
				continue;
			tid = -1;
		} else {
			tid = r->tracking_id[ss->touch];
			if (touch_units(r, (size_t)ss->touch, when, &ux, &uy) < 0)
				return -1;
			changed[2] = ux != ss->x;
			changed[3] = uy != ss->y;
			changed[4] = pr->touch_major && ss->major != pr->touch_major;
			changed[5] = pr->pressure && ss->pressure != pr->pressure;
		}
		changed[1] = tid != ss->tracking_id;
		bool minor_changed = ss->touch >= 0 && pr->touch_minor && ss->minor != pr->touch_minor;
		if (!changed[1] && !changed[2] && !changed[3] && !changed[4] && !changed[5] &&
		    !minor_changed)
			continue;
		if (r->current_slot != s)
			emit(r, when, EV_ABS, ABS_MT_SLOT, r->current_slot = s);
		if (changed[1])
			emit(r, when, EV_ABS, ABS_MT_TRACKING_ID, ss->tracking_id = tid);
		if (changed[2])
			emit(r, when, EV_ABS, ABS_MT_POSITION_X, ss->x = ux);
		if (changed[3])
			emit(r, when, EV_ABS, ABS_MT_POSITION_Y, ss->y = uy);
		if (changed[4])
			emit(r, when, EV_ABS, ABS_MT_TOUCH_MAJOR, ss->major = pr->touch_major);
		if (minor_changed)
			emit(r, when, EV_ABS, ABS_MT_TOUCH_MINOR, ss->minor = pr->touch_minor);
		if (changed[5])
			emit(r, when, EV_ABS, ABS_MT_PRESSURE, ss->pressure = pr->pressure);
	}
	return emit_pointer(r, when);
}

static int
report_a(struct render *r, int64_t when)
{
	const struct synth_preset *pr = r->preset;

	for (size_t k = 0; k < r->ndown; k++) {
		size_t i = r->down[k];
		int ux, uy;
		if (touch_units(r, i, when, &ux, &uy) < 0)
			return -1;
		if (pr->a_tracking_id)
			emit(r, when, EV_ABS, ABS_MT_TRACKING_ID, r->tracking_id[i]);
		emit(r, when, EV_ABS, ABS_MT_POSITION_X, ux);
		emit(r, when, EV_ABS, ABS_MT_POSITION_Y, uy);
		if (pr->touch_major)
			emit(r, when, EV_ABS, ABS_MT_TOUCH_MAJOR, pr->touch_major);
		if (pr->touch_minor)
			emit(r, when, EV_ABS, ABS_MT_TOUCH_MINOR, pr->touch_minor);
		if (pr->pressure)
			emit(r, when, EV_ABS, ABS_MT_PRESSURE, pr->pressure);
		emit(r, when, EV_SYN, SYN_MT_REPORT, 0);
	}
	if (r->ndown == 0)
		emit(r, when, EV_SYN, SYN_MT_REPORT, 0);
	return emit_pointer(r, when);
}

/* Remove released touches, add the ones landing now. */
static int
update_contacts(struct render *r, int64_t when, const size_t *order, size_t n, size_t *next)
{
	const struct synth_scenario *sc = r->sc;
	const struct synth_preset *pr = r->preset;
	size_t kept = 0;

	for (int s = 0; s < pr->slots && r->slots; s++)
		r->slots[s].freed_now = false;
	for (size_t k = 0; k < r->ndown; k++) {
		size_t i = r->down[k];
		if (r->release[i] == when) {
			if (r->slots) {
				r->slots[r->slot[i]].touch = -1;
				r->slots[r->slot[i]].freed_now = true;
			}
		} else {
			r->down[kept++] = i;
		}
	}
	r->ndown = kept;

	while (*next < n && r->first[order[*next]] == when) {
		size_t i = order[(*next)++];
		if (r->ndown >= (size_t)pr->slots) {
			fprintf(stderr,
				"%s:%d: %zu touches down at once at %.0f ms, but device '%s' "
				"supports only %d\n",
				sc->path, sc->touches[i].line, r->ndown + 1,
				(double)when / 1000.0, pr->name, pr->slots);
			return -1;
		}
		if (pr->protocol == SYNTH_PROTOCOL_B) {
			int s = 0;
			while (s < pr->slots && (r->slots[s].touch >= 0 || r->slots[s].freed_now))
				s++;
			if (s >= pr->slots) {
				/* every free slot was released in this very report */
				fprintf(stderr,
					"%s:%d: no free slot at %.0f ms on device '%s' (a touch "
					"lands in the report that releases another)\n",
					sc->path, sc->touches[i].line, (double)when / 1000.0, pr->name);
				return -1;
			}
			r->slots[s].touch = (long)i;
			r->slot[i] = s;
		}
		r->tracking_id[i] = r->next_tracking_id;
		r->next_tracking_id = r->next_tracking_id >= pr->tracking_max ?
			0 : r->next_tracking_id + 1;
		r->down[r->ndown++] = i;
	}
	return 0;
}

int
synth_render(const struct synth_scenario *sc, const struct synth_preset *preset,
	     struct synth_stream *out)
{
	struct render r = { .sc = sc, .preset = preset, .out = out };
	size_t n = sc->ntouches;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->preset = preset;
	if (sc->fuzz >= 0 && preset->protocol != SYNTH_PROTOCOL_A) {
		fprintf(stderr, "%s:%d: fuzz= is only supported for protocol A presets, not '%s'\n",
			sc->path, sc->preset_line, preset->name);
		return -1;
	}
	out->fuzz = sc->fuzz > 0 ? sc->fuzz : 0;

	r.first = calloc(n, sizeof(*r.first));
	r.last = calloc(n, sizeof(*r.last));
	r.release = calloc(n, sizeof(*r.release));
	r.tracking_id = calloc(n, sizeof(*r.tracking_id));
	r.slot = calloc(n, sizeof(*r.slot));
	r.down = calloc(n, sizeof(*r.down));
	size_t *order = calloc(n, sizeof(*order));
	if (!r.first || !r.last || !r.release || !r.tracking_id || !r.slot || !r.down || !order)
		tool_oom();
	if (preset->protocol == SYNTH_PROTOCOL_B) {
		r.slots = calloc((size_t)preset->slots, sizeof(*r.slots));
		if (!r.slots)
			tool_oom();
		for (int s = 0; s < preset->slots; s++) {
			r.slots[s] = (struct slot_state){
				.touch = -1, .tracking_id = -1, .x = UNSET, .y = UNSET,
				.major = UNSET, .minor = UNSET, .pressure = UNSET,
			};
		}
	}
	r.current_slot = -1; /* the first report names its slot explicitly */
	r.abs_x = r.abs_y = UNSET;
	r.abs_pressure = 0;

	for (size_t i = 0; i < n; i++) {
		synth_touch_ticks(&sc->touches[i], sc->interval_us, &r.first[i], &r.last[i],
				  &r.release[i]);
		order[i] = i;
	}
	qsort_r(order, n, sizeof(*order), cmp_by_first, &r);
	r.t0 = r.first[order[0]];

	size_t next = 0;
	int64_t when = r.t0;
	while (next < n || r.ndown > 0) {
		if (r.ndown == 0 && r.first[order[next]] > when)
			when = r.first[order[next]]; /* skip the idle time */
		if (update_contacts(&r, when, order, n, &next) < 0)
			goto out;
		int res = preset->protocol == SYNTH_PROTOCOL_B ? report_b(&r, when)
							       : report_a(&r, when);
		if (res < 0)
			goto out;
		emit(&r, when, EV_SYN, SYN_REPORT, 0);
		if (r.too_many) {
			fprintf(stderr, "%s: the recording would have more than %u events\n",
				sc->path, MAX_EVENTS);
			goto out;
		}
		out->nreports++;
		when += sc->interval_us;
	}
	rc = 0;
out:
	free(r.first);
	free(r.last);
	free(r.release);
	free(r.tracking_id);
	free(r.slot);
	free(r.down);
	free(r.slots);
	free(order);
	if (rc < 0)
		synth_stream_release(out);
	return rc;
}

void
synth_stream_release(struct synth_stream *st)
{
	free(st->events);
	st->events = NULL;
	st->nevents = st->capevents = 0;
	st->nreports = 0;
}

void
synth_stream_backstep(struct synth_stream *st, int usec)
{
	size_t k = 0; /* index of the event inside its report */

	for (size_t i = 0; i < st->nevents; i++) {
		struct synth_event *e = &st->events[i];
		bool syn = e->type == 0 && e->code == 0;

		e->usec += 1000;
		if (!syn && k % 2 == 1)
			e->usec -= usec;
		k = syn ? 0 : k + 1;
	}
}
