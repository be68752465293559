/*
 * utouch-gestured: matching gestures against rules.
 *
 * A gesture in progress has a fixed part (kind, finger count, device kind,
 * the application under its start, where it started) and a motion part
 * that grows as the fingers move.  gd_rules_candidates() keeps the rules
 * the fixed part allows (an empty list: reject at once);
 * gd_rules_decide() is called on every update and says accept (with the
 * rule and the direction), reject, or wait.
 */
#ifndef GD_RULES_H
#define GD_RULES_H

#include <stddef.h>

#include "gd-config.h"

/** Most candidate rules kept for one gesture. */
#define GD_MAX_CANDIDATES 64

/** Longest time (ms) from one tap of a multi-tap to the next: grail's
 * multi-tap timeout, which the daemon sets on its tap subscriptions. */
#define GD_MULTITAP_MS 400

/** The fixed part of a gesture. */
struct gd_query {
	enum gd_kind kind;
	int fingers;
	enum gd_device device;
	const char *device_name;   /**< the device's name, "" or NULL when unknown */
	int taps;                  /**< a tap's count (grail's, 1 single, 2 double...) */
	const char *app_instance;  /**< "" when unknown */
	const char *app_class;     /**< "" when unknown */
	double x, y;               /**< start position, screen pixels */
	double screen_w, screen_h; /**< screen size, pixels */
	double mm_x, mm_y;         /**< millimetres per pixel, across and down */
};

/**
 * A swipe's travel must be at least this many times the change of the
 * fingers' spread (gd_motion.spread_mm): a four-finger spread on a map
 * whose centre drifts 8 mm while the fingers spread 30 mm is a pinch, not
 * a swipe.  Natural swipes change their spread by well under half their
 * travel (doc/gestured.md, "Whole hand").
 */
#define GD_SWIPE_DOMINANCE 2.0

/** The motion of a gesture since it began. */
struct gd_motion {
	double dx_mm, dy_mm;   /**< translation (screen axes, y down) */
	double spread_mm;      /**< change of the fingers' spread (pinch) */
	double angle_deg;      /**< rotation, positive clockwise on screen */
	double elapsed_ms;     /**< time since the gesture began */
	int ended;             /**< the fingers are up */
	int taps;              /**< a tap: its count as gd_rules_candidates() saw it */
};

/** Outcome of gd_rules_decide(). */
enum gd_decision { GD_WAIT, GD_ACCEPT, GD_REJECT };

/**
 * Collect the rules that may match a gesture, app-specific rules first,
 * then in file order.
 *
 * @param cfg the configuration
 * @param q the gesture
 * @param out indices of the rules (GD_MAX_CANDIDATES of them)
 * @return how many
 */
size_t gd_rules_candidates(const struct gd_config *cfg, const struct gd_query *q, size_t *out);

/**
 * Turn a gesture from the device's orientation into the screen's
 * (@p o, "settings: orientation"): the start position and screen size of
 * @p q and the motion of @p m (either may be NULL), so that directions and
 * edges are the ones the user sees.  The daemon does it for touchscreens
 * read through evdev, whose positions are the panel's own; X11 positions
 * are the screen's already (the X server's coordinate transformation
 * matrix turns them with the screen), and touchpads do not turn.
 * GD_ORIENT_AUTO must be resolved first; here it turns nothing.
 */
void gd_rules_orient(enum gd_orientation o, struct gd_query *q, struct gd_motion *m);

/**
 * The count a tap rule is matched with: grail counts taps up to
 * GD_MAX_TAPS; without a rule for that many the count starts again, so that
 * with single-tap rules only every tap is a single tap, and with rules up to
 * double taps a triple tap is a double and a single.
 */
int gd_rules_tap_count(const struct gd_config *cfg, int fingers, int taps);

/**
 * Whether a tap of @p taps taps (grail's count) may still become a longer
 * multi-tap that one of the candidates asks for: then the daemon takes the
 * tap's touches at once and runs a rule for this count only when no
 * further tap came within GD_MULTITAP_MS.
 */
int gd_rules_tap_may_continue(const struct gd_config *cfg, const size_t *cand, size_t ncand,
			      int taps);

/**
 * Whether any rule of @p cfg uses a WM_CLASS for this kind and finger
 * count (the daemon looks the window up only then).
 */
int gd_rules_need_app(const struct gd_config *cfg, enum gd_kind kind, int fingers);

/**
 * Whether a motion is a translation rather than a change of spread: its
 * travel is at least GD_SWIPE_DOMINANCE times the change of the fingers'
 * spread.  Only such motions are swipes.
 */
int gd_rules_is_translation(const struct gd_motion *m);

/**
 * Decide a gesture.  Candidates that can no longer match (threshold
 * reached in another direction, timeout passed, a hold that slipped or
 * ended early, a swipe whose fingers' spread changed by its threshold
 * while that was more than the travel allows, see gd_rules_is_translation())
 * are removed from @p cand.  A swipe waits while its motion is no
 * translation.  A tap is taken by the first rule for its count
 * (gd_rules_tap_count()); rules for more taps wait.
 *
 * @param cfg the configuration
 * @param cand candidate indices (updated)
 * @param ncand their number (updated)
 * @param m the motion so far
 * @param rule the accepted rule's index (on GD_ACCEPT)
 * @param dir the direction found (on GD_ACCEPT)
 * @return GD_ACCEPT, GD_REJECT (no candidate left) or GD_WAIT
 */
enum gd_decision gd_rules_decide(const struct gd_config *cfg, size_t *cand, size_t *ncand,
				 const struct gd_motion *m, size_t *rule, enum gd_dir *dir);

/**
 * Progress of an accepted gesture: how many of the rule's distance units
 * the fingers went in the decided direction (negative when they came
 * back).
 *
 * @param r the rule
 * @param dir the decided direction
 * @param m the motion
 * @return the progress
 */
double gd_rules_progress(const struct gd_rule *r, enum gd_dir dir, const struct gd_motion *m);

/**
 * The earliest time (ms since the gesture began) at which the decision
 * may change without input: a hold's time or a rule's timeout.
 *
 * @return the time, or a negative value when there is none
 */
double gd_rules_next_deadline(const struct gd_config *cfg, const size_t *cand, size_t ncand);

#endif /* GD_RULES_H */
