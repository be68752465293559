/*
 * utouch-events: what its parts share.  The program is four files, one
 * job each: options.c (the command line), print.c (events as text or
 * JSON), policy.c (accepting or rejecting gestures) and utouch-events.c
 * (the geis instance, subscription and main loop).
 */
#ifndef UTOUCH_EVENTS_H
#define UTOUCH_EVENTS_H

#include <stddef.h>
#include <stdio.h>

#include <geis/geis.h>
#include <utouch/geis.h>

#include "geis/gesture-class.h"

#define MAX_INIT_ARGS 16

enum policy { POLICY_NONE, POLICY_ACCEPT, POLICY_REJECT };
enum backend { BACKEND_DEFAULT, BACKEND_RECORDING, BACKEND_EVDEV, BACKEND_X11 };

/* --class takes the keys of the shared class table (geis/gesture-class.h) */
#define NUM_CLASSES UT_NUM_GESTURE_CLASSES

/* Per-subscription settings: name, value type, and the option value. */
struct config_item {
	const char *option;
	const char *item;
	int is_float;
	int set;
	GeisFloat f;
	GeisInteger i;
};

extern struct config_item config_items[];
#define NUM_CONFIG 18

struct options {
	int classes[NUM_CLASSES];
	int nclasses;
	int touches, min_touches, max_touches;   /* 0: not given */
	const char *device_name;
	int device_id;                            /* 0: not given */
	long window;                              /* 0: none; -1: root */
	int have_rect;                            /* --rect given */
	int evdev_grab;                           /* --evdev-grab */
	const char *evdev_dir;                    /* --evdev-dir */
	const char *save;                         /* --save */
	int rect[4];                              /* x, y, width, height */
	enum backend backend;
	const char *recording;
	int fast;
	enum policy policy;
	int json;
	int no_atomic, tentative, synchronous;
	GeisSubscriptionFlags flags;
};

/* The instance and what the printer needs to know about it. */
struct state {
	const struct options *opt;
	Geis geis;
	GeisGestureClass classes[NUM_CLASSES];   /* referenced, once announced */
	GeisGestureId *decided;                  /* gestures the policy handled */
	size_t ndecided, capdecided;
	int failed;
};

/** The program's name in messages. */
extern const char *const prog;

/* options.c */
/** Read the command line into @p o; exits 2 with a message on a usage
 * error, 0 after --help. */
void parse_args(int argc, char **argv, struct options *o);

/* print.c */
/** Whether @p t is a gesture event (begin, update, end; tentative too). */
int is_gesture_event(GeisEventType t);
/** Print a DEVICE_AVAILABLE / DEVICE_UNAVAILABLE event. */
void print_device_event(struct state *st, GeisEvent ev, FILE *out);
/** Print a CLASS_* event. */
void print_class_event(struct state *st, GeisEvent ev, FILE *out);
/** Print a gesture event with its frames and touches. */
void print_gesture_event(struct state *st, GeisEvent ev, FILE *out);
/** Print any other event with its attributes. */
void print_other_event(struct state *st, GeisEvent ev, FILE *out);

/* policy.c */
/** Accept or reject the gestures of @p ev once each, as --accept or
 * --reject asks, and print what was done. */
void apply_policy(struct state *st, GeisEvent ev, FILE *out);

#endif

