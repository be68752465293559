/*
 * The one logging path of utouch.  Every layer logs through a struct
 * ut_log: a domain name ("grail", "geis", "evdev", "recording"), an
 * optional handler and a stderr threshold read from the environment.
 *
 * - With a handler installed, every message goes to it, whatever its
 *   priority (the handler filters; grail_set_log_handler() installs one).
 * - Without one, messages at or above the threshold are written to stderr
 *   as "DOMAIN PRIORITY: MESSAGE".  The threshold comes from UTOUCH_DEBUG
 *   (debug, info, warning, error, none, or the GRAIL_DEBUG numbers -1, 0,
 *   1), else from GRAIL_DEBUG, else it is "error".
 *
 * Messages about a bug of the caller (a NULL handle, an event of the wrong
 * type) carry the category prefix "client bug: " and error priority;
 * "device bug: " marks input a device or server should not have produced.
 * A NULL struct ut_log stands for the process default (domain "utouch"),
 * used where no object is at hand, e.g. for a NULL handle.
 *
 * This code exists once per process: libutouch-frame holds it and exports
 * it in its private node (UT_FRAME_PRIVATE, util/export.h);
 * grail, geis and the compositor library call frame's copy.  So there is
 * one default context.  Each library's public handler
 * (grail_set_log_handler(), utouch_geis_set_log_handler()) takes the
 * messages of its own objects only; nothing takes over the default
 * context, whose messages always go to stderr (filtered by the threshold).
 */
#ifndef UTOUCH_UTIL_LOG_H
#define UTOUCH_UTIL_LOG_H

#include <stdarg.h>
#include <stdbool.h>

#include "util/export.h"  /* UT_FRAME_PRIVATE */

/** Message priorities, lowest first. */
enum ut_log_priority {
	UT_LOG_FROM_ENV = 0,  /**< threshold only: ask the environment each time */
	UT_LOG_DEBUG = 10,    /**< tracing for developers */
	UT_LOG_INFO = 20,     /**< failures already reported to the caller */
	UT_LOG_WARNING = 30,  /**< something was skipped or dropped */
	UT_LOG_ERROR = 40,    /**< a failure nobody else reports; client bugs */
	UT_LOG_NONE = 50,     /**< threshold only: log nothing */
};

/**
 * Receives one message (no trailing newline; a category prefix such as
 * "client bug: " included).  @p data is the pointer installed with it.
 */
typedef void (*ut_log_handler)(void *data, enum ut_log_priority priority,
			       const char *message);

/** A logging context; embed one per object that logs. */
struct ut_log {
	const char *domain;        /**< prefix on stderr: "grail", "geis", ... */
	ut_log_handler handler;    /**< NULL: stderr, filtered by threshold */
	void *data;                /**< passed to handler */
	/** lowest priority written to stderr; UT_LOG_FROM_ENV: ask each time */
	enum ut_log_priority threshold;
};

/**
 * Initializer of a static context with no handler whose threshold is read
 * from the environment at each message, for modules without an object.
 */
#define UT_LOG_STATIC_INIT(domain) { (domain), NULL, NULL, UT_LOG_FROM_ENV }

/**
 * Set up @p log for @p domain (a string that outlives it): no handler,
 * stderr threshold from the environment.
 */
UT_FRAME_PRIVATE
void ut_log_init(struct ut_log *log, const char *domain);

/** Install @p handler (NULL: back to stderr) with @p data on @p log. */
UT_FRAME_PRIVATE
void ut_log_set_handler(struct ut_log *log, ut_log_handler handler, void *data);

/**
 * The stderr threshold the environment asks for: UTOUCH_DEBUG, else the
 * original's GRAIL_DEBUG (-1 debug, 0 warning, 1 error), else error.
 * Unrecognised values count as unset.
 */
UT_FRAME_PRIVATE
enum ut_log_priority ut_log_env_threshold(void);

/** Whether a message of @p priority would go anywhere (NULL: default). */
UT_FRAME_PRIVATE
bool ut_log_enabled(const struct ut_log *log, enum ut_log_priority priority);

/** Log a printf-style message through @p log (NULL: the default). */
__attribute__((format(printf, 3, 4)))
UT_FRAME_PRIVATE
void ut_log(const struct ut_log *log, enum ut_log_priority priority, const char *fmt, ...);

/** ut_log() with a va_list. */
__attribute__((format(printf, 3, 0)))
UT_FRAME_PRIVATE
void ut_logv(const struct ut_log *log, enum ut_log_priority priority, const char *fmt,
	     va_list ap);

/**
 * Log a bug of the caller of public function @p func at error priority,
 * as "client bug: FUNC: MESSAGE".
 */
__attribute__((format(printf, 3, 4)))
UT_FRAME_PRIVATE
void ut_log_client_bug(const struct ut_log *log, const char *func, const char *fmt, ...);

/** Called with every client-bug message (its full text). */
typedef void (*ut_log_client_bug_hook)(void *data, const char *message);

/**
 * Have @p hook see every "client bug:" message, whatever context logs it
 * and wherever that context's messages go, before they go there (NULL
 * removes it).  For test harnesses that fail a test on a client bug it did
 * not expect, as libinput's litest does; one hook per process.
 */
UT_FRAME_PRIVATE
void ut_log_set_client_bug_hook(ut_log_client_bug_hook hook, void *data);

/**
 * For the argument checks of public functions: evaluates to @p cond, and
 * when it holds logs a client bug naming the calling function and the
 * failed check through @p log (NULL: the default context), e.g.
 * `if (UT_CLIENT_BUG_IF(NULL, !handle)) return UGStatusErrorInvalidValue;`.
 */
#define UT_CLIENT_BUG_IF(log, cond) \
	(__builtin_expect(!!(cond), 0) ? \
	 (ut_log_client_bug((log), __func__, "invalid argument (%s)", #cond), 1) : 0)

/** The name of @p priority ("debug", "info", "warning", "error"). */
UT_FRAME_PRIVATE
const char *ut_log_priority_name(enum ut_log_priority priority);

#endif
