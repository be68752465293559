/*
 * The one reader of YAML configuration files: utouch-gestured's rules and
 * the compositor library's subscriptions (and utouch-wlcomp's options,
 * through ut_config_number()).
 *
 * A file is read in two steps:
 *
 *  1. ut_yaml_load_file() / ut_yaml_load() turn the text into a small tree
 *     of nodes (scalars, lists, mappings) with libyaml's event parser.  The
 *     tree builder refuses, with NAME:LINE:COLUMN, what a configuration
 *     never needs and a hostile file uses: more than UT_YAML_MAX_BYTES,
 *     nesting deeper than UT_YAML_MAX_DEPTH, more than UT_YAML_MAX_NODES
 *     nodes, aliases, a second document, a "\0" escape in a scalar
 *     (which would cut a C string short) and a key that appears twice in
 *     one mapping.  ut_yaml_load_file() also refuses, as sshd's StrictModes
 *     does, a file another user could have written (see there).
 *
 *  2. The caller walks the tree and reads values with the typed readers
 *     (numbers with an optional unit, whole numbers, booleans, names of a
 *     list, non-empty strings), or a whole mapping through a table of
 *     fields (struct ut_yaml_field: one row per key).
 *
 * Every error goes through ut_yaml_error(): the first one is kept for
 * the caller's error buffer, each one is also passed to the report
 * callback (utouch-gestured --check prints every error of a file), and
 * the readers go on after an error where that makes sense, so one pass
 * finds them all.
 *
 * Built into libutouch-frame only and exported in its private node
 * (UT_FRAME_PRIVATE), like util/log.c: the compositor library and the
 * daemon (through libutouch-geis, which links frame) call frame's copy.
 */
#ifndef UTOUCH_UTIL_YAML_CONFIG_H
#define UTOUCH_UTIL_YAML_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "util/export.h"  /* UT_FRAME_PRIVATE */

/** Largest configuration file read, in bytes. */
#define UT_YAML_MAX_BYTES (1024u * 1024u)
/** Deepest nesting of lists and mappings (a configuration needs 4). */
#define UT_YAML_MAX_DEPTH 16
/** Most nodes in one file. */
#define UT_YAML_MAX_NODES 65536u

/** Kinds of node. */
enum ut_yaml_type { UT_YAML_SCALAR, UT_YAML_LIST, UT_YAML_MAP };

/** One node of the tree. */
struct ut_yaml_node {
	enum ut_yaml_type type;
	unsigned int line;            /**< 1-based */
	unsigned int column;          /**< 1-based */
	const char *text;             /**< scalar: the value (no NUL inside); else NULL */
	bool quoted;                  /**< scalar: written in quotes */
	size_t count;                 /**< list: items; map: pairs */
	struct ut_yaml_node **items;  /**< list: the items; map: key, value, key, value... */
};

/** Receives each error message ("NAME:LINE:COLUMN: message"). */
typedef void (*ut_yaml_report)(void *data, const char *message);

/** Memory of a tree (yaml-config.c's own). */
struct ut_yaml_chunk;

/** A file being read; set up with ut_yaml_init(), freed with ut_yaml_fini(). */
struct ut_yaml_doc {
	const char *name;             /**< the file name in messages */
	const struct ut_yaml_node *root;  /**< NULL: an empty document */
	unsigned int nerrors;         /**< errors reported so far */
	char first[512];              /**< the first error, "" when none */
	ut_yaml_report report;        /**< NULL: errors are only counted and kept */
	void *data;                   /**< for @ref report */
	struct ut_yaml_chunk *chunks; /**< the tree's memory */
	size_t nnodes;
};

/**
 * Set up @p doc for a file called @p name (a string that outlives it);
 * @p report (may be NULL) hears every error and warning.
 */
UT_FRAME_PRIVATE
void ut_yaml_init(struct ut_yaml_doc *doc, const char *name, ut_yaml_report report, void *data);

/** Free the tree of @p doc. */
UT_FRAME_PRIVATE
void ut_yaml_fini(struct ut_yaml_doc *doc);

/**
 * Build the tree of @p len bytes of @p text.
 *
 * A mapping key that is not a scalar, or that repeats an earlier key of
 * its mapping, is reported and its pair left out; the rest of the tree is
 * kept (@p doc->root) although the call fails, so that a reader that wants
 * every error of the file (a configuration check) can go on and report
 * its own.  Any other error leaves no tree.
 *
 * @return 0, or a negative errno (-EINVAL for a refused file, -ENOMEM)
 *         with the reason reported
 */
UT_FRAME_PRIVATE
int ut_yaml_load(struct ut_yaml_doc *doc, const char *text, size_t len);

/**
 * Read the file @p doc->name and build its tree.  Refused before reading:
 * anything but a regular file (after symbolic links), a file larger than
 * UT_YAML_MAX_BYTES, and, because a configuration runs commands, a file
 * or directory someone else could have changed: the file or its
 * directory owned by a user other than the caller and root, a file
 * writable by everyone, a directory writable by everyone without the
 * sticky bit.
 *
 * @return 0; -ENOENT and the other errno values of open(); -EPERM for an
 *         unsafe file; -EFBIG, -EINVAL, -ENOMEM; each with the reason
 *         reported
 */
UT_FRAME_PRIVATE
int ut_yaml_load_file(struct ut_yaml_doc *doc);

/**
 * Report an error at node @p n (NULL: the file as a whole) and return
 * -EINVAL.
 */
__attribute__((format(printf, 3, 4)))
UT_FRAME_PRIVATE
int ut_yaml_error(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *fmt, ...);

/**
 * Report a warning at node @p n: to the report callback only, prefixed
 * "warning: "; it does not count as an error.
 */
__attribute__((format(printf, 3, 4)))
UT_FRAME_PRIVATE
void ut_yaml_warning(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *fmt,
		     ...);

/** The value of a mapping @p map for @p key, or NULL. */
UT_FRAME_PRIVATE
const struct ut_yaml_node *ut_yaml_get(const struct ut_yaml_node *map, const char *key);

/** Whether @p n is YAML's null: a plain scalar that is empty ("key:" with
 * nothing), "~" or "null" (also "Null", "NULL"). */
UT_FRAME_PRIVATE
bool ut_yaml_is_empty(const struct ut_yaml_node *n);

/**
 * Parse a decimal number written the way people write them: an optional
 * sign, digits with an optional fraction and exponent ("8", "-2.5",
 * "1e3"), then optionally the unit (after optional blanks).  Refused:
 * hexadecimal, "inf", "nan", anything after the number but the unit, a
 * number outside [@p lo, @p hi], and with @p whole, one that is not a
 * whole number.
 *
 * Units: when @p unit is "ms", "s" is also accepted (times 1000); "mm",
 * "deg", "px" or any other name only as itself; NULL: no unit.
 *
 * @param why receives the reason of a refusal ("\"far\" is not a number")
 * @return 0, or -EINVAL with @p why set
 */
UT_FRAME_PRIVATE
int ut_config_number(const char *s, const char *unit, double lo, double hi, bool whole,
		     double *out, char *why, size_t whylen);

/**
 * ut_config_number() on a scalar node; errors say "\"KEY\": why" at the
 * node.
 */
UT_FRAME_PRIVATE
int ut_yaml_number(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *key,
		   const char *unit, double lo, double hi, bool whole, double *out);

/** A boolean: true/false, yes/no, on/off (any case). */
UT_FRAME_PRIVATE
int ut_yaml_bool(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *key,
		 bool *out);

/**
 * One of @p names (a NULL-terminated list, compared without regard to
 * case); *@p out is its index.  The error lists the names.
 */
UT_FRAME_PRIVATE
int ut_yaml_enum(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *key,
		 const char *const *names, int *out);

/** A scalar that is neither empty nor YAML's null (plain ~ or null; quoted, "null" is
 * the text); *@p out points into the tree. */
UT_FRAME_PRIVATE
int ut_yaml_string(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *key,
		   const char **out);

/** A scalar (possibly empty); errors say "\"KEY\" needs a single value". */
UT_FRAME_PRIVATE
int ut_yaml_scalar(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *key,
		   const char **out);

/** The C type a table field stores. */
enum ut_yaml_field_type {
	UT_YAML_DOUBLE,    /**< double (ut_yaml_number) */
	UT_YAML_FLOAT,     /**< float */
	UT_YAML_INT,       /**< int, whole */
	UT_YAML_UINT,      /**< unsigned int, whole */
	UT_YAML_U64,       /**< uint64_t, whole */
	UT_YAML_BOOL,      /**< int 0/1 */
	UT_YAML_ENUM,      /**< int: index in names */
	UT_YAML_STRING,    /**< const char *, into the tree, not empty */
	UT_YAML_CUSTOM,    /**< the field's read function does it */
};

struct ut_yaml_field;

/** A custom field reader: store what @p value says into @p target. */
typedef int (*ut_yaml_field_read)(struct ut_yaml_doc *doc, const struct ut_yaml_field *f,
				  const struct ut_yaml_node *value, void *target);

/** One key of a mapping read by ut_yaml_read_map(). */
struct ut_yaml_field {
	const char *key;
	enum ut_yaml_field_type type;
	size_t offset;                  /**< where in the target structure */
	double lo, hi;                  /**< numbers: the range */
	const char *unit;               /**< numbers: see ut_config_number() */
	const char *const *names;       /**< UT_YAML_ENUM: NULL-terminated */
	ut_yaml_field_read read;        /**< UT_YAML_CUSTOM */
};

/**
 * Read mapping @p map (@p what names it in messages: "rule", "setting")
 * through the table @p fields into @p target.  Every key is read even
 * after an error; an unknown key is an error ("unknown WHAT key", with the
 * nearest known key when one is close).  @p seen (may be NULL) receives
 * for each field the value node found for it, or NULL.
 *
 * @return 0, or -EINVAL when any key was refused
 */
UT_FRAME_PRIVATE
int ut_yaml_read_map(struct ut_yaml_doc *doc, const struct ut_yaml_node *map, const char *what,
		     const struct ut_yaml_field *fields, size_t nfields, void *target,
		     const struct ut_yaml_node **seen);

/**
 * The entry of @p names (@p count of them) nearest to @p s when it is a
 * likely misspelling (an edit distance of at most 2, and less than half
 * its length), else NULL.
 */
UT_FRAME_PRIVATE
const char *ut_config_suggest(const char *s, const char *const *names, size_t count);

#endif
