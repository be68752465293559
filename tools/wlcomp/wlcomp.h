/*
 * utouch-wlcomp: a small wlroots 0.15 compositor whose system gestures come
 * from the utouch compositor API (<utouch/compositor.h>).
 */
#ifndef UTOUCH_WLCOMP_H
#define UTOUCH_WLCOMP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>

#include <utouch/compositor.h>

#define WLCOMP_MAX_GESTURES 16

enum action_kind {
	ACTION_NONE = 0,
	ACTION_MOVE_WINDOW,
	ACTION_FOCUS_NEXT,
	ACTION_CLOSE_WINDOW,
	ACTION_MINIMIZE_WINDOW,
	ACTION_SPAWN,
};

/* What a subscription's gestures do, from its options. */
struct action {
	enum action_kind kind;
	enum action_kind swipe_kind;  /* a quick swipe does this instead (move-window only) */
	double swipe_distance;        /* px */
	uint64_t swipe_time;          /* ms */
	char *command;                /* ACTION_SPAWN */
};

/* A gesture in progress and what it works on. */
struct gesture_state {
	unsigned int id;
	bool used;
	struct view *view;
	int view_x, view_y;           /* view position at the begin */
	float dx, dy;                 /* travel at the last begin/update */
	uint64_t begin_time;          /* us */
};

/* A touch delivered to the seat and its seat-wide id (seat-touch.c). */
struct seat_touch {
	int device;                   /* touch_device.number */
	int32_t id;                   /* the device's touch id */
	int32_t seat_id;              /* the wl_touch id */
	struct wlr_surface *surface;
	struct wl_client *client;
};

/* Where a touch's surface was at its down, per device touch id. */
struct touch_origin {
	int32_t id;
	double x, y;
};

struct server {
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct wlr_backend *backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_scene *scene;
	struct wlr_output_layout *layout;
	struct wlr_xdg_shell *xdg_shell;
	struct wlr_seat *seat;
	struct wlr_cursor *cursor;
	struct wlr_xcursor_manager *xcursor;
	bool headless;

	struct wl_list outputs;       /* output.link */
	struct wl_list views;         /* view.link, top first */
	struct wl_list keyboards;     /* keyboard.link */
	struct wl_list touch_devices; /* touch_device.link */
	struct wl_list tracked;       /* tracked_surface.link */

	struct wl_listener new_output;
	struct wl_listener new_input;
	struct wl_listener new_xdg_surface;
	struct wl_listener cursor_motion, cursor_motion_absolute, cursor_button, cursor_axis,
		cursor_frame, request_cursor;

	struct utouch_comp *gestures;
	struct wl_event_source *gesture_source;
	struct action *actions;       /* per subscription index */
	size_t nactions;
	struct gesture_state active[WLCOMP_MAX_GESTURES];
	unsigned long actions_run;
	int next_touch_number;
	struct seat_touch *seat_touches;   /* seat-touch.c */
	size_t nseat_touches, capseat_touches;

	/* the control socket (virtual touch devices for tests) */
	int control_fd;
	char *control_path;
	dev_t control_dev;            /* the socket file made, removed at the end */
	ino_t control_ino;            /* only if it is still that file */
	bool quitting;                /* `quit` came: no further command runs */
	struct wl_event_source *control_source;
	struct wl_event_source *control_retry;   /* re-watch after EMFILE */
	bool control_paused;                      /* the socket is not watched */
	struct wl_list control_clients;   /* control_client.link */
	/* the control socket's manual clock: after its first `clock` command
	 * touch events carry clock_us (CLOCK_MONOTONIC microseconds at that
	 * command plus the commanded time) and the gesture timers run only
	 * through `clock` */
	bool manual_clock;
	uint64_t clock_base_us, clock_us;
};

struct output {
	struct wl_list link;
	struct server *server;
	struct wlr_output *wlr_output;
	struct wl_listener frame;
	struct wl_listener destroy;
};

struct view {
	struct wl_list link;
	struct server *server;
	struct wlr_xdg_surface *xdg;
	struct wlr_scene_node *node;
	int x, y;
	bool mapped, minimized;
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
};

struct keyboard {
	struct wl_list link;
	struct server *server;
	struct wlr_input_device *device;
	struct wl_listener modifiers;
	struct wl_listener key;
	struct wl_listener destroy;
};

struct touch_device {
	struct wl_list link;
	struct server *server;
	struct wlr_input_device *device;
	struct utouch_comp_device *gdev;
	int number;                   /* 0, 1, 2... in order of arrival */
	bool virtual;                 /* made through the control socket */
	/* a virtual device stamps a whole frame with the time of its first
	 * event, as the kernel stamps a hardware frame */
	bool frame_open;              /* events since the last `frame` */
	uint64_t frame_us;            /* their time */
	struct touch_origin *origins; /* of the touches down */
	size_t norigins, caporigins;
	bool has_time;                /* last_ms is set */
	uint64_t last_ms;             /* the time of the previous event, extended */
	struct wl_listener down, up, motion, cancel, frame, destroy;
};

/* A surface that touches were delivered to; its destruction is reported. */
struct tracked_surface {
	struct wl_list link;
	struct server *server;
	struct wlr_surface *surface;
	struct wl_listener destroy;
};

/* output.c */
void output_init(struct server *server);
bool output_layout_box(struct server *server, struct wlr_box *box);

/* view.c */
void view_init(struct server *server);
struct view *view_at(struct server *server, double lx, double ly,
		     struct wlr_surface **surface, double *sx, double *sy);
void view_focus(struct view *view);
void view_move(struct view *view, int x, int y);
void view_close(struct view *view);
void view_minimize(struct view *view);
void view_focus_next(struct server *server);
struct view *view_focused(struct server *server);
const char *view_title(const struct view *view);

/* input.c */
void input_init(struct server *server);
struct touch_device *touch_device_add(struct server *server, struct wlr_input_device *device,
				      bool virtual);
void input_run_gesture_events(struct server *server);
/* the time of a touch event now: CLOCK_MONOTONIC microseconds, or the
 * control socket's manual clock once it was set */
uint64_t input_time_us(const struct server *server);
void input_track_surface(struct server *server, struct wlr_surface *surface);

/* seat-touch.c */
bool seat_touch_add(struct server *server, int device, int32_t id, struct wlr_surface *surface,
		    int32_t *seat_id);
bool seat_touch_get(struct server *server, int device, int32_t id, int32_t *seat_id);
void seat_touch_remove(struct server *server, int device, int32_t id);
/* every touch of @p client or of @p device (>= 0) */
void seat_touch_forget(struct server *server, struct wl_client *client, int device);
/* @p surface is going: its touches that reached the seat end now with
 * wl_touch.up (and a frame) for a client that is still there; their ids are
 * free */
void seat_touch_end_surface(struct server *server, struct wlr_surface *surface,
			    uint32_t time_msec);
void seat_touch_finish(struct server *server);
bool touch_origin_set(struct touch_device *td, int32_t id, double x, double y);
bool touch_origin_get(struct touch_device *td, int32_t id, double *x, double *y);
void touch_origin_remove(struct touch_device *td, int32_t id);
/* a device's 32-bit millisecond time stamp in 64-bit microseconds */
uint64_t touch_event_time(struct touch_device *td, uint32_t time_msec);

/* pointer.c */
void pointer_init(struct server *server);
void pointer_add(struct server *server, struct wlr_input_device *device);
void pointer_finish(struct server *server);   /* before the display goes */

/* gestures.c */
int gestures_init(struct server *server, const char *config_path);
void gestures_stop(struct server *server);   /* before the event loop goes */
void gestures_finish(struct server *server);
void gestures_handle(struct server *server, const struct utouch_comp_event *ev);

/* control.c */
int control_init(struct server *server, const char *path);
void control_finish(struct server *server);

#endif
