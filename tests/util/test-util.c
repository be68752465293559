/*
 * Unit tests of the helpers in src/util/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <poll.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>

#include <geis/geis.h>
#include <oif/frame_backend.h>
#include <oif/grail.h>

#include "input/recording/recording.h"
#include "geis/geis-private.h"
#include "util/array.h"
#include "util/clock.h"
#include "util/list.h"
#include "util/log.h"
#include "geis/gesture-class.h"
#include "test-support.h"

/* ------------------------------------------------------------------ */
/* gesture classes                                                     */

static void
test_class_table(void **state)
{
	(void)state;
	assert_int_equal(UT_NUM_GESTURE_CLASSES, 8);
	assert_int_equal(UT_NUM_GEIS_CLASSES, 6);
	assert_string_equal(ut_gesture_classes[0].name, "Drag");
	assert_int_equal(ut_gesture_classes[0].id, 0);
	assert_int_equal(ut_gesture_classes[3].id, 15);
	assert_int_equal(ut_gesture_classes[4].id, 32);
	/* Flick: geis 2.2's class 128, whose gestures are drags */
	assert_string_equal(ut_gesture_classes[5].name, "Flick");
	assert_int_equal(ut_gesture_classes[5].id, 128);
	assert_int_equal(ut_gesture_classes[5].mask, UGGestureTypeDrag);
	/* the extensions: not announced, not in the default set */
	assert_string_equal(ut_gesture_classes[6].name, "Hold");
	assert_int_equal(ut_gesture_classes[6].id, 256);
	assert_true(ut_gesture_classes[6].extension);
	assert_string_equal(ut_gesture_classes[7].key, "edge");
	assert_int_equal(ut_gesture_classes[7].mask, UGGestureTypeEdgeSwipe);
	for (int i = 0; i < UT_NUM_GEIS_CLASSES; i++)
		assert_false(ut_gesture_classes[i].extension);
	assert_int_equal(ut_gesture_class_mask_all(), 0x1f);
	assert_int_equal(ut_gesture_class_mask_any(), 0x7f);
	/* the first class in table order wins */
	assert_string_equal(ut_gesture_class_by_mask(UGGestureTypeTap |
						     UGGestureTypePinch)->name, "Pinch");
	assert_string_equal(ut_gesture_class_by_mask(UGGestureTypeTouch)->key, "touch");
	/* a drag is a Drag, not a Flick */
	assert_string_equal(ut_gesture_class_by_mask(UGGestureTypeDrag)->name, "Drag");
	assert_null(ut_gesture_class_by_mask(0));
	assert_string_equal(ut_gesture_class_by_mask(UGGestureTypeHold)->name, "Hold");
	assert_null(ut_gesture_class_by_mask(0x80));
}

static void
test_class_find(void **state)
{
	(void)state;
	assert_int_equal(ut_gesture_class_find("rotate", 6, 0), 2);
	assert_int_equal(ut_gesture_class_find("Rotate", 6, 0), -1);
	assert_int_equal(ut_gesture_class_find("Rotate", 6, 1), 2);
	/* a prefix of the input, not a prefix of the key */
	assert_int_equal(ut_gesture_class_find("tap+drag", 3, 0), 3);
	assert_int_equal(ut_gesture_class_find("ta", 2, 0), -1);
	assert_int_equal(ut_gesture_class_find("", 0, 0), -1);
	assert_int_equal(ut_gesture_class_find("all", 3, 1), -1);
}

/* ------------------------------------------------------------------ */
/* time                                                                */

static void
test_input_event_time(void **state)
{
	struct input_event ev;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ut_input_event_set_usec(&ev, 1234567891ull);
	assert_int_equal(ev.input_event_sec, 1234);
	assert_int_equal(ev.input_event_usec, 567891);
	assert_int_equal(ut_input_event_usec(&ev), 1234567891ull);
	ut_input_event_set_usec(&ev, 999999);
	assert_int_equal(ev.input_event_sec, 0);
	assert_int_equal(ev.input_event_usec, 999999);
}

static void
test_mono(void **state)
{
	uint64_t ms = ut_mono_ms(), us = ut_mono_us(), ms2 = ut_mono_ms();

	(void)state;
	/* the two readings agree to the millisecond */
	assert_true(us / 1000 >= ms);
	assert_true(us / 1000 <= ms2);
}

static int
readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

static void
test_timerfd(void **state)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct itimerspec its;
	uint64_t n;

	(void)state;
	assert_true(fd >= 0);
	/* a delay of 0 fires at once instead of disarming */
	assert_int_equal(ut_timerfd_arm_ms(fd, 0), 0);
	assert_true(readable(fd, 1000));
	assert_int_equal(read(fd, &n, sizeof(n)), sizeof(n));
	assert_int_equal(n, 1);
	/* a long delay is armed with the right value, then disarmed */
	assert_int_equal(ut_timerfd_arm_ms(fd, 60500), 0);
	assert_int_equal(timerfd_gettime(fd, &its), 0);
	assert_true(its.it_value.tv_sec == 60 || its.it_value.tv_sec == 59);
	assert_int_equal(its.it_interval.tv_sec, 0);
	assert_int_equal(ut_timerfd_disarm(fd), 0);
	assert_int_equal(timerfd_gettime(fd, &its), 0);
	assert_int_equal(its.it_value.tv_sec, 0);
	assert_int_equal(its.it_value.tv_nsec, 0);
	assert_false(readable(fd, 0));
	close(fd);
}

/* ------------------------------------------------------------------ */
/* arrays and lists                                                    */

static void
test_array_reserve(void **state)
{
	int *v = NULL;
	unsigned int cap = 0, n = 0;
	size_t big = 0;
	char *c = NULL;

	(void)state;
	for (int i = 0; i < 100; i++) {
		assert_true(UT_ARRAY_RESERVE(v, cap, n + 1, 4));
		v[n++] = i;
	}
	/* doubling from 4: 4, 8, ..., 128 */
	assert_int_equal(cap, 128);
	for (int i = 0; i < 100; i++)
		assert_int_equal(v[i], i);
	/* enough room: nothing changes */
	assert_true(UT_ARRAY_RESERVE(v, cap, 50, 4));
	assert_int_equal(cap, 128);
	/* a jump doubles until it fits */
	assert_true(UT_ARRAY_RESERVE(v, cap, 1000, 4));
	assert_int_equal(cap, 1024);
	assert_int_equal(v[99], 99);
	free(v);
	/* nothing needed, nothing allocated */
	assert_true(UT_ARRAY_RESERVE(c, big, 0, 16));
	assert_null(c);
	/* overflow fails and leaves the array alone */
	assert_true(UT_ARRAY_RESERVE(c, big, 3, 16));
	assert_int_equal(big, 16);
	assert_false(UT_ARRAY_RESERVE(c, big, SIZE_MAX, 16));
	assert_int_equal(big, 16);
	assert_non_null(c);
	free(c);
}

struct item {
	int value;
	struct ut_list link;
};

static void
test_list(void **state)
{
	struct ut_list head;
	struct item it[4];
	int order[4], n = 0;

	(void)state;
	ut_list_init(&head);
	assert_true(ut_list_empty(&head));
	for (int i = 0; i < 4; i++)
		it[i].value = i;
	ut_list_insert_before(&head, &it[1].link);   /* 1 */
	ut_list_insert_before(&head, &it[2].link);   /* 1 2 */
	ut_list_insert_after(&head, &it[0].link);    /* 0 1 2 */
	ut_list_insert_after(&it[2].link, &it[3].link); /* 0 1 2 3 */
	assert_false(ut_list_empty(&head));
	ut_list_for_each(pos, &head)
		order[n++] = ut_container_of(pos, struct item, link)->value;
	assert_int_equal(n, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(order[i], i);
	/* remove the odd ones while iterating */
	ut_list_for_each_safe(pos, tmp, &head)
		if (ut_container_of(pos, struct item, link)->value % 2)
			ut_list_remove(pos);
	assert_true(ut_list_empty(&it[1].link));   /* unlinked: points to itself */
	ut_list_remove(&it[1].link);                /* harmless twice */
	n = 0;
	ut_list_for_each(pos, &head)
		order[n++] = ut_container_of(pos, struct item, link)->value;
	assert_int_equal(n, 2);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 2);
	assert_ptr_equal(head.prev, &it[2].link);
}

/* ------------------------------------------------------------------ */
/* logging                                                             */

struct captured {
	int n;
	int priority;
	char msg[1024];
};

static void
capture(void *data, enum ut_log_priority priority, const char *msg)
{
	struct captured *c = data;

	c->n++;
	c->priority = priority;
	snprintf(c->msg, sizeof(c->msg), "%s", msg);
}

static void
test_log_env(void **state)
{
	(void)state;
	unsetenv("UTOUCH_DEBUG");
	unsetenv("GRAIL_DEBUG");
	assert_int_equal(ut_log_env_threshold(), UT_LOG_ERROR);
	setenv("GRAIL_DEBUG", "-1", 1);
	assert_int_equal(ut_log_env_threshold(), UT_LOG_DEBUG);
	setenv("GRAIL_DEBUG", "0", 1);
	assert_int_equal(ut_log_env_threshold(), UT_LOG_WARNING);
	setenv("GRAIL_DEBUG", "7", 1);
	assert_int_equal(ut_log_env_threshold(), UT_LOG_ERROR);
	/* UTOUCH_DEBUG wins over the alias */
	setenv("UTOUCH_DEBUG", "info", 1);
	assert_int_equal(ut_log_env_threshold(), UT_LOG_INFO);
	setenv("UTOUCH_DEBUG", "NONE", 1);
	assert_int_equal(ut_log_env_threshold(), UT_LOG_NONE);
	setenv("UTOUCH_DEBUG", "-1", 1);
	assert_int_equal(ut_log_env_threshold(), UT_LOG_DEBUG);
	/* not understood: as if unset */
	setenv("UTOUCH_DEBUG", "loud", 1);
	assert_int_equal(ut_log_env_threshold(), UT_LOG_ERROR);
	unsetenv("UTOUCH_DEBUG");
	unsetenv("GRAIL_DEBUG");
}

/* stderr redirected to a temporary file between these two calls */
struct stderr_capture {
	FILE *tmp;
	int saved;
};

static void
stderr_capture_begin(struct stderr_capture *sc)
{
	sc->tmp = tmpfile();
	assert_non_null(sc->tmp);
	sc->saved = dup(2);
	fflush(stderr);
	dup2(fileno(sc->tmp), 2);
}

static void
stderr_capture_end(struct stderr_capture *sc, char *out, size_t len)
{
	size_t n;

	fflush(stderr);
	dup2(sc->saved, 2);
	close(sc->saved);
	rewind(sc->tmp);
	n = fread(out, 1, len - 1, sc->tmp);
	out[n] = '\0';
	fclose(sc->tmp);
}

/* Run ut_log() with stderr redirected; return what it wrote. */
static void
log_to_stderr(const struct ut_log *lg, enum ut_log_priority prio, const char *text,
	      char *out, size_t len)
{
	struct stderr_capture sc;

	stderr_capture_begin(&sc);
	ut_log(lg, prio, "%s", text);
	stderr_capture_end(&sc, out, len);
}

static void
test_log_stderr(void **state)
{
	struct ut_log lg;
	char out[256];

	(void)state;
	setenv("UTOUCH_DEBUG", "warning", 1);
	ut_log_init(&lg, "test");
	unsetenv("UTOUCH_DEBUG");
	/* the threshold was read at init */
	assert_int_equal(lg.threshold, UT_LOG_WARNING);
	log_to_stderr(&lg, UT_LOG_WARNING, "seen 1", out, sizeof(out));
	assert_string_equal(out, "test warning: seen 1\n");
	log_to_stderr(&lg, UT_LOG_INFO, "hidden", out, sizeof(out));
	assert_string_equal(out, "");
	assert_false(ut_log_enabled(&lg, UT_LOG_INFO));
	assert_true(ut_log_enabled(&lg, UT_LOG_ERROR));
}

static void
test_log_handler(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct ut_log lg;
	struct captured c = { 0 };

	(void)state;
	ut_log_init(&lg, "test");
	ut_log_set_handler(&lg, capture, &c);
	/* a handler gets every priority, without domain or newline */
	assert_true(ut_log_enabled(&lg, UT_LOG_DEBUG));
	ut_log(&lg, UT_LOG_DEBUG, "x=%d", 42);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.priority, UT_LOG_DEBUG);
	assert_string_equal(c.msg, "x=42");
	ut_log_client_bug(&lg, "some_function", "bad %s", "thing");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.priority, UT_LOG_ERROR);
	assert_string_equal(c.msg, "client bug: some_function: bad thing");
	ut_log_set_handler(&lg, NULL, &c);
	assert_null(lg.data);
	UT_CLIENT_BUGS_END(1);
}

/* The geis error stack and the recording parser report through the log
 * too (info priority), next to their own outputs. */
static void
test_log_outputs(void **state)
{
	struct stderr_capture sc;
	struct ut_recording *rec = NULL;
	char out[512], err[256];
	int rc;

	(void)state;
	setenv("UTOUCH_DEBUG", "info", 1);
	gs_error_clear(NULL);
	stderr_capture_begin(&sc);
	gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT, "oops %d", 5);
	stderr_capture_end(&sc, out, sizeof(out));
	assert_string_equal(out, "geis info: oops 5\n");
	assert_int_equal(geis_error_count(NULL), 1);
	assert_string_equal(geis_error_message(NULL, 0), "oops 5");
	gs_error_clear(NULL);

	stderr_capture_begin(&sc);
	rc = ut_recording_parse("bad.evemu", "Q: 1\n", 5, &rec, err, sizeof(err));
	stderr_capture_end(&sc, out, sizeof(out));
	assert_true(rc < 0);
	assert_null(rec);
	assert_non_null(strstr(err, "bad.evemu:1: "));
	assert_non_null(strstr(out, "recording info: bad.evemu:1: "));
	assert_non_null(strstr(out, err));

	/* at the default threshold neither is printed */
	unsetenv("UTOUCH_DEBUG");
	stderr_capture_begin(&sc);
	gs_error_push(NULL, GEIS_STATUS_BAD_ARGUMENT, "quiet");
	rc = ut_recording_parse("bad.evemu", "Q: 1\n", 5, &rec, NULL, 0);
	stderr_capture_end(&sc, out, sizeof(out));
	assert_true(rc < 0);
	assert_string_equal(out, "");
	gs_error_clear(NULL);
}

/* The default context's messages (no object at hand: a NULL handle), read
 * from stderr, where they go ("utouch error: MESSAGE"), as they come. */
struct default_log {
	struct stderr_capture sc;
	int priority;         /* of the last message */
	char msg[1024];       /* the last message, without domain and priority */
};

static void
default_log_begin(struct default_log *d)
{
	memset(d, 0, sizeof(*d));
	stderr_capture_begin(&d->sc);
}

/* How many messages so far; d->msg and d->priority are the last one's. */
static int
default_log_count(struct default_log *d)
{
	char all[8192], *line, *save = NULL;
	int n = 0;

	fflush(stderr);
	rewind(d->sc.tmp);
	size_t len = fread(all, 1, sizeof(all) - 1, d->sc.tmp);
	all[len] = '\0';
	fseek(d->sc.tmp, 0, SEEK_END);
	for (line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *m = line;
		n++;
		d->priority = -1;
		if (!strncmp(line, "utouch error: ", 14)) {
			d->priority = UT_LOG_ERROR;
			m = line + 14;
		}
		snprintf(d->msg, sizeof(d->msg), "%s", m);
	}
	return n;
}

static void
default_log_end(struct default_log *d)
{
	char rest[64];

	stderr_capture_end(&d->sc, rest, sizeof(rest));
}

/* Misuse of public functions: logged as client bugs through the default
 * context, and the documented value still comes back. */
static void
test_client_bug_null_handles(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct default_log c;
	UGEvent ev;

	(void)state;
	default_log_begin(&c);

	assert_int_equal(grail_get_event(NULL, &ev), UGStatusErrorInvalidValue);
	assert_int_equal(default_log_count(&c), 1);
	assert_int_equal(c.priority, UT_LOG_ERROR);
	assert_string_equal(c.msg, "client bug: grail_get_event: invalid argument "
				   "(!handle || !event)");

	assert_int_equal(grail_next_timeout(NULL), 0);
	assert_int_equal(default_log_count(&c), 2);
	assert_string_equal(c.msg, "client bug: grail_next_timeout: invalid argument (!handle)");

	frame_backend_touch_set_id(NULL, 3);
	assert_int_equal(default_log_count(&c), 3);
	assert_non_null(strstr(c.msg, "client bug: frame_backend_touch_set_id:"));

	geis_register_event_callback(NULL, NULL, NULL);
	assert_int_equal(default_log_count(&c), 4);
	assert_non_null(strstr(c.msg, "client bug: geis_register_event_callback:"));

	/* getters answer their documented default */
	assert_int_equal(frame_touch_get_id(NULL), 0);
	assert_int_equal(default_log_count(&c), 5);
	assert_string_equal(c.msg, "client bug: frame_touch_get_id: invalid argument (!touch)");
	assert_int_equal(geis_event_type(NULL), 0);
	assert_int_equal(default_log_count(&c), 6);
	assert_null(grail_slice_get_frame(NULL));
	assert_int_equal(default_log_count(&c), 7);

	/* NULL is documented as fine for destructors: nothing logged */
	grail_delete(NULL);
	geis_filter_delete(NULL);
	frame_event_unref(NULL);
	assert_int_equal(default_log_count(&c), 7);

	default_log_end(&c);
	UT_CLIENT_BUGS_END(7);
}

/* Reading a property as the wrong type is a client bug; reading one that
 * is not set is not. */
static void
test_client_bug_wrong_type(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct default_log c;
	UFBackendDevice bd = frame_backend_device_new();
	UFDevice dev;
	int iv = 7;
	const char *name = NULL;

	(void)state;
	assert_non_null(bd);
	frame_backend_device_set_name(bd, "pad");
	dev = frame_backend_device_get_device(bd);
	default_log_begin(&c);
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyName, &iv),
			 UFStatusErrorInvalidType);
	assert_int_equal(iv, 7);
	assert_int_equal(default_log_count(&c), 1);
	assert_string_equal(c.msg, "client bug: frame_device_get_property: "
				   "property 0 read as the wrong type");
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyName, &name),
			 UFStatusSuccess);
	assert_string_equal(name, "pad");
	unsigned int uv = 0;
	assert_int_equal(frame_device_get_property(dev, UFDevicePropertyMaxTouches, &uv),
			 UFStatusErrorUnknownProperty);
	assert_int_equal(default_log_count(&c), 1);
	default_log_end(&c);
	frame_backend_device_delete(bd);
	UT_CLIENT_BUGS_END(1);
}

/* A misuse with a handle at hand goes to the handle's log handler, with
 * the public level numbers (1: error). */
static void
test_client_bug_grail_handler(void **state)
{
	UT_CLIENT_BUGS_BEGIN();
	struct ut_test_log c = { 0 };
	UGHandle h;
	UFEvent ev;

	(void)state;
	assert_int_equal(grail_new(&h), UGStatusSuccess);
	grail_set_log_handler(h, ut_test_log_record, &c);
	ev = frame_event_new();
	assert_non_null(ev);
	frame_event_set_type(ev, UFEventTypeFrame);  /* but no frame */
	grail_process_frame_event(h, ev);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.level, 1);
	assert_string_equal(c.msg, "client bug: grail_process_frame_event: "
				   "frame event without a frame");
	frame_event_unref(ev);
	grail_delete(h);
	UT_CLIENT_BUGS_END(1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_table),
		cmocka_unit_test(test_class_find),
		cmocka_unit_test(test_input_event_time),
		cmocka_unit_test(test_mono),
		cmocka_unit_test(test_timerfd),
		cmocka_unit_test(test_array_reserve),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_log_env),
		cmocka_unit_test(test_log_stderr),
		cmocka_unit_test(test_log_handler),
		cmocka_unit_test(test_log_outputs),
		cmocka_unit_test(test_client_bug_null_handles),
		cmocka_unit_test(test_client_bug_wrong_type),
		cmocka_unit_test(test_client_bug_grail_handler),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
