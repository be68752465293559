/*
 * The YAML configuration reader (see yaml-config.h): a bounded tree built
 * from libyaml's events, typed value readers, and the file checks.
 */
#include "util/yaml-config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

/* ---- memory: the tree lives in chunks freed together ---- */

struct ut_yaml_chunk {
	struct ut_yaml_chunk *next;
	size_t used, size;
	max_align_t data[];
};

static void *
arena_alloc(struct ut_yaml_doc *doc, size_t size)
{
	struct ut_yaml_chunk *c = doc->chunks;

	size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!c || c->size - c->used < size) {
		size_t want = size > 16384 ? size : 16384;

		c = malloc(sizeof(*c) + want);
		if (!c)
			return NULL;
		c->size = want;
		c->used = 0;
		c->next = doc->chunks;
		doc->chunks = c;
	}
	void *p = (char *)c->data + c->used;
	c->used += size;
	return p;
}

UT_FRAME_PRIVATE void
ut_yaml_init(struct ut_yaml_doc *doc, const char *name, ut_yaml_report report, void *data)
{
	*doc = (struct ut_yaml_doc){ .name = name ? name : "(config)", .report = report,
				     .data = data };
}

UT_FRAME_PRIVATE void
ut_yaml_fini(struct ut_yaml_doc *doc)
{
	while (doc->chunks) {
		struct ut_yaml_chunk *c = doc->chunks;

		doc->chunks = c->next;
		free(c);
	}
	doc->root = NULL;
	doc->nnodes = 0;
}

/* ---- messages ---- */

static void
vmessage(struct ut_yaml_doc *doc, unsigned int line, unsigned int column, bool warning,
	 const char *fmt, va_list ap)
{
	char msg[512];
	int off;

	if (line)
		off = snprintf(msg, sizeof(msg), "%s:%u:%u: %s", doc->name, line, column,
			       warning ? "warning: " : "");
	else
		off = snprintf(msg, sizeof(msg), "%s: %s", doc->name, warning ? "warning: " : "");
	if (off < 0)
		return;
	if ((size_t)off < sizeof(msg))
		vsnprintf(msg + off, sizeof(msg) - (size_t)off, fmt, ap);
	if (!warning) {
		if (doc->nerrors++ == 0)
			snprintf(doc->first, sizeof(doc->first), "%s", msg);
	}
	if (doc->report)
		doc->report(doc->data, msg);
}

static int
error_at(struct ut_yaml_doc *doc, unsigned int line, unsigned int column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
error_at(struct ut_yaml_doc *doc, unsigned int line, unsigned int column, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(doc, line, column, false, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

UT_FRAME_PRIVATE int
ut_yaml_error(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(doc, n ? n->line : 0, n ? n->column : 0, false, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

UT_FRAME_PRIVATE void
ut_yaml_warning(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(doc, n ? n->line : 0, n ? n->column : 0, true, fmt, ap);
	va_end(ap);
}

/* ---- the tree ---- */

/* an open list or mapping and the items read so far */
struct open_node {
	struct ut_yaml_node *node;
	struct ut_yaml_node **items;
	size_t count, cap;
};

struct builder {
	struct ut_yaml_doc *doc;
	struct open_node stack[UT_YAML_MAX_DEPTH];
	int depth;
	int documents;
	bool key_errors;   /* pairs left out by check_keys() */
};

static struct ut_yaml_node *
new_node(struct builder *b, enum ut_yaml_type type, const yaml_mark_t *mark)
{
	struct ut_yaml_node *n;

	if (b->doc->nnodes >= UT_YAML_MAX_NODES) {
		error_at(b->doc, (unsigned int)mark->line + 1, (unsigned int)mark->column + 1,
			 "more than %u values in the file", UT_YAML_MAX_NODES);
		return NULL;
	}
	n = arena_alloc(b->doc, sizeof(*n));
	if (!n) {
		ut_yaml_error(b->doc, NULL, "out of memory");
		return NULL;
	}
	*n = (struct ut_yaml_node){ .type = type, .line = (unsigned int)mark->line + 1,
				    .column = (unsigned int)mark->column + 1 };
	b->doc->nnodes++;
	return n;
}

struct key_ref {
	const char *text;
	size_t index;
};

static int
key_cmp(const void *a, const void *b)
{
	const struct key_ref *x = a, *y = b;
	int c = strcmp(x->text, y->text);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/*
 * Keys of a mapping are scalars, each at most once.  A pair whose key is
 * not a scalar, or repeats an earlier key, is reported and left out of the
 * mapping, so that the rest of the tree keeps that promise and a reader
 * can still report what else is wrong (see ut_yaml_load()).
 */
static int
check_keys(struct builder *b, struct ut_yaml_node *map)
{
	/* for each pair: itself when kept, else the pair its key repeats, or
	 * map->count for a key that is not a scalar */
	struct key_ref *keys;
	size_t *keep, n = 0;

	if (map->count == 0)
		return 0;
	keys = malloc(map->count * sizeof(*keys));
	keep = malloc(map->count * sizeof(*keep));
	if (!keys || !keep) {
		free(keys);
		free(keep);
		return ut_yaml_error(b->doc, NULL, "out of memory");
	}
	for (size_t i = 0; i < map->count; i++) {
		const struct ut_yaml_node *k = map->items[2 * i];

		keep[i] = k->type == UT_YAML_SCALAR ? i : map->count;
		if (k->type == UT_YAML_SCALAR)
			keys[n++] = (struct key_ref){ k->text, i };
	}
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (size_t i = 1, first = 0; i < n; i++) {
		if (strcmp(keys[first].text, keys[i].text) != 0)
			first = i;
		else
			keep[keys[i].index] = keys[first].index;
	}
	/* reported in the file's order */
	n = 0;
	for (size_t i = 0; i < map->count; i++) {
		const struct ut_yaml_node *k = map->items[2 * i];

		if (keep[i] == map->count)
			ut_yaml_error(b->doc, k, "a key must be a name, not a %s",
				      k->type == UT_YAML_LIST ? "list" : "mapping");
		else if (keep[i] != i)
			ut_yaml_error(b->doc, k, "\"%s\" appears twice (first on line %u)",
				      k->text, map->items[2 * keep[i]]->line);
		if (keep[i] != i)
			continue;
		map->items[2 * n] = map->items[2 * i];
		map->items[2 * n + 1] = map->items[2 * i + 1];
		n++;
	}
	if (n < map->count)
		b->key_errors = true;
	map->count = n;
	free(keys);
	free(keep);
	return 0;
}

static int
add_node(struct builder *b, struct ut_yaml_node *n)
{
	struct open_node *o;

	if (b->depth == 0) {
		b->doc->root = n;
		return 0;
	}
	o = &b->stack[b->depth - 1];
	if (o->count == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 8;
		struct ut_yaml_node **items = realloc(o->items, cap * sizeof(*items));

		if (!items)
			return ut_yaml_error(b->doc, NULL, "out of memory");
		o->items = items;
		o->cap = cap;
	}
	o->items[o->count++] = n;
	return 0;
}

static int
open_container(struct builder *b, enum ut_yaml_type type, const yaml_mark_t *mark)
{
	struct ut_yaml_node *n;

	if (b->depth == UT_YAML_MAX_DEPTH)
		return error_at(b->doc, (unsigned int)mark->line + 1,
				(unsigned int)mark->column + 1,
				"lists and mappings nested deeper than %d levels",
				UT_YAML_MAX_DEPTH);
	n = new_node(b, type, mark);
	if (!n)
		return -EINVAL;
	b->stack[b->depth++] = (struct open_node){ .node = n };
	return 0;
}

static int
close_container(struct builder *b)
{
	struct open_node o = b->stack[--b->depth];
	struct ut_yaml_node *n = o.node;
	int r = 0;

	n->count = n->type == UT_YAML_MAP ? o.count / 2 : o.count;
	if (o.count) {
		n->items = arena_alloc(b->doc, o.count * sizeof(*n->items));
		if (!n->items)
			r = ut_yaml_error(b->doc, NULL, "out of memory");
		else
			memcpy(n->items, o.items, o.count * sizeof(*n->items));
	}
	free(o.items);
	if (r == 0 && n->type == UT_YAML_MAP)
		r = check_keys(b, n);
	return r < 0 ? r : add_node(b, n);
}

static int
scalar_event(struct builder *b, const yaml_event_t *ev)
{
	struct ut_yaml_node *n = new_node(b, UT_YAML_SCALAR, &ev->start_mark);
	size_t len = ev->data.scalar.length;
	char *text;

	if (!n)
		return -EINVAL;
	if (memchr(ev->data.scalar.value, '\0', len))
		return ut_yaml_error(b->doc, n, "a NUL character (\"\\0\") would cut the value "
				     "short; it is not allowed");
	text = arena_alloc(b->doc, len + 1);
	if (!text)
		return ut_yaml_error(b->doc, NULL, "out of memory");
	memcpy(text, ev->data.scalar.value, len);
	text[len] = '\0';
	n->text = text;
	n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
	return add_node(b, n);
}

/*
 * The line and column (in characters) of byte @off of @text: libyaml
 * gives its reader's errors (bad UTF-8, control characters) as a byte
 * offset only.
 */
static void
position_of(const char *text, size_t len, size_t off, unsigned int *line,
	    unsigned int *column)
{
	*line = 1;
	*column = 1;
	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		unsigned char ch = (unsigned char)text[i];

		if (ch == '\n' || (ch == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
			++*line;
			*column = 1;
		} else if ((ch & 0xc0) != 0x80 && ch != '\r') {
			/* UTF-8 continuation bytes are part of the character before */
			++*column;
		}
	}
}

static int
syntax_error(struct ut_yaml_doc *doc, const yaml_parser_t *p, const char *text, size_t len)
{
	if (p->error == YAML_MEMORY_ERROR)
		return ut_yaml_error(doc, NULL, "out of memory");
	if (p->error == YAML_READER_ERROR) {
		unsigned int line, column;

		position_of(text, len, p->problem_offset, &line, &column);
		return error_at(doc, line, column, "%s (byte %zu)",
				p->problem ? p->problem : "unreadable text", p->problem_offset);
	}
	return error_at(doc, (unsigned int)p->problem_mark.line + 1,
			(unsigned int)p->problem_mark.column + 1, "%s%s%s",
			p->problem ? p->problem : "YAML syntax error", p->context ? " " : "",
			p->context ? p->context : "");
}

static int
handle_event(struct builder *b, const yaml_event_t *ev)
{
	unsigned int line = (unsigned int)ev->start_mark.line + 1;
	unsigned int column = (unsigned int)ev->start_mark.column + 1;

	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (b->documents++)
			return error_at(b->doc, line, column,
					"a second YAML document; a configuration is one document");
		return 0;
	case YAML_ALIAS_EVENT:
		return error_at(b->doc, line, column, "aliases (*%s) are not supported",
				(const char *)ev->data.alias.anchor);
	case YAML_SCALAR_EVENT:
		return scalar_event(b, ev);
	case YAML_SEQUENCE_START_EVENT:
		return open_container(b, UT_YAML_LIST, &ev->start_mark);
	case YAML_MAPPING_START_EVENT:
		return open_container(b, UT_YAML_MAP, &ev->start_mark);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return close_container(b);
	default:
		return 0;
	}
}

UT_FRAME_PRIVATE int
ut_yaml_load(struct ut_yaml_doc *doc, const char *text, size_t len)
{
	struct builder b = { .doc = doc };
	yaml_parser_t parser;
	yaml_event_t ev;
	int r = 0;
	bool done = false;

	ut_yaml_fini(doc);
	if (len > UT_YAML_MAX_BYTES)
		return ut_yaml_error(doc, NULL, "larger than %u KiB", UT_YAML_MAX_BYTES / 1024);
	if (!yaml_parser_initialize(&parser))
		return ut_yaml_error(doc, NULL, "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)(text ? text : ""), len);
	while (!done && r == 0) {
		if (!yaml_parser_parse(&parser, &ev)) {
			r = syntax_error(doc, &parser, text ? text : "", len);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		r = handle_event(&b, &ev);
		yaml_event_delete(&ev);
	}
	while (b.depth > 0)
		free(b.stack[--b.depth].items);
	yaml_parser_delete(&parser);
	if (r < 0)
		ut_yaml_fini(doc);
	else if (b.key_errors)
		r = -EINVAL; /* the tree stays, for the reader's own errors */
	return r;
}

/* ---- the file ---- */

/* whether someone other than the caller and root could have changed @p st */
static const char *
unsafe(const struct stat *st, bool dir)
{
	uid_t me = geteuid();

	if (st->st_uid != me && st->st_uid != 0)
		return "is owned by another user";
	if (!(st->st_mode & S_IWOTH))
		return NULL;
	if (dir && (st->st_mode & S_ISVTX))
		return NULL;
	return "is writable by everyone";
}

/* The directory of @p path must be safe too (unsafe()): whoever may write
 * there may replace the file. */
static int
check_dir(struct ut_yaml_doc *doc, const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	const char *why;
	struct stat dst;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (stat(dir, &dst) == 0 && (why = unsafe(&dst, true))) {
		ut_yaml_error(doc, NULL, "refused: its directory %s %s (uid %u, mode %04o); a "
			      "configuration runs commands, so only you and root may change it",
			      dir, why, (unsigned int)dst.st_uid,
			      (unsigned int)(dst.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

static int
check_owner(struct ut_yaml_doc *doc, const struct stat *st)
{
	const char *why;

	if ((why = unsafe(st, false))) {
		ut_yaml_error(doc, NULL, "refused: the file %s (uid %u, mode %04o); a "
			      "configuration runs commands, so only you and root may change it",
			      why, (unsigned int)st->st_uid, (unsigned int)(st->st_mode & 07777));
		return -EPERM;
	}
	if (check_dir(doc, doc->name) < 0)
		return -EPERM;
	/* through a symbolic link: the directory that holds the file itself */
	char *real = realpath(doc->name, NULL);
	int r = real && strcmp(real, doc->name) ? check_dir(doc, real) : 0;
	free(real);
	return r;
}

UT_FRAME_PRIVATE int
ut_yaml_load_file(struct ut_yaml_doc *doc)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd, r;

	ut_yaml_fini(doc);
	fd = open(doc->name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		r = -errno;
		ut_yaml_error(doc, NULL, "%s", strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
		ut_yaml_error(doc, NULL, "%s", strerror(-r));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		r = -EINVAL;
		ut_yaml_error(doc, NULL, "not a regular file");
		goto out;
	}
	if ((r = check_owner(doc, &st)) < 0)
		goto out;
	if ((uint64_t)st.st_size > UT_YAML_MAX_BYTES) {
		r = -EFBIG;
		ut_yaml_error(doc, NULL, "larger than %u KiB", UT_YAML_MAX_BYTES / 1024);
		goto out;
	}
	buf = malloc(UT_YAML_MAX_BYTES + 1);
	if (!buf) {
		r = -ENOMEM;
		ut_yaml_error(doc, NULL, "out of memory");
		goto out;
	}
	for (;;) {
		ssize_t got = read(fd, buf + len, UT_YAML_MAX_BYTES + 1 - len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = -errno;
			ut_yaml_error(doc, NULL, "%s", strerror(-r));
			goto out;
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (len > UT_YAML_MAX_BYTES) {
			r = -EFBIG;
			ut_yaml_error(doc, NULL, "larger than %u KiB", UT_YAML_MAX_BYTES / 1024);
			goto out;
		}
	}
	r = ut_yaml_load(doc, buf, len);
out:
	free(buf);
	close(fd);
	return r;
}

/* ---- values ---- */

UT_FRAME_PRIVATE const struct ut_yaml_node *
ut_yaml_get(const struct ut_yaml_node *map, const char *key)
{
	if (!map || map->type != UT_YAML_MAP)
		return NULL;
	for (size_t i = 0; i < map->count; i++)
		if (!strcmp(map->items[2 * i]->text, key))
			return map->items[2 * i + 1];
	return NULL;
}

/* YAML's null: nothing, or ~ / null written plain (core schema) */
UT_FRAME_PRIVATE bool
ut_yaml_is_empty(const struct ut_yaml_node *n)
{
	static const char *const words[] = { "", "~", "null", "Null", "NULL" };

	if (!n || n->type != UT_YAML_SCALAR || n->quoted)
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(n->text, words[i]))
			return true;
	return false;
}

/* whether @p word (len bytes) is one of the '|'-separated names of @p units */
static bool
unit_in(const char *units, const char *word, size_t len)
{
	while (units && *units) {
		const char *bar = strchr(units, '|');
		size_t n = bar ? (size_t)(bar - units) : strlen(units);

		if (n == len && !strncmp(units, word, len))
			return true;
		units = bar ? bar + 1 : NULL;
	}
	return false;
}

UT_FRAME_PRIVATE int
ut_config_number(const char *s, const char *unit, double lo, double hi, bool whole,
		 double *out, char *why, size_t whylen)
{
	const char *p = s;
	size_t digits = 0;
	double v, scale = 1;
	char num[64];

	if (*p == '+' || *p == '-')
		p++;
	while (*p >= '0' && *p <= '9')
		p++, digits++;
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9')
			p++, digits++;
	}
	if (digits && (*p == 'e' || *p == 'E')) {
		const char *e = p + 1;

		if (*e == '+' || *e == '-')
			e++;
		if (*e >= '0' && *e <= '9') {
			while (*e >= '0' && *e <= '9')
				e++;
			p = e;
		}
	}
	if (!digits || (size_t)(p - s) >= sizeof(num)) {
		snprintf(why, whylen, "\"%s\" is not a number", s);
		return -EINVAL;
	}
	memcpy(num, s, (size_t)(p - s));
	num[p - s] = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p) {
		size_t len = strlen(p);

		if (unit && !strcmp(unit, "ms") && !strcmp(p, "s")) {
			scale = 1000;
		} else if (!unit_in(unit, p, len)) {
			bool word = true;

			for (const char *c = p; *c; c++)
				word = word && ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'));
			if (unit && word)
				snprintf(why, whylen, "\"%s\": the unit here is %s", s, unit);
			else
				snprintf(why, whylen, "\"%s\" is not a number", s);
			return -EINVAL;
		}
	}
	v = strtod(num, NULL) * scale;
	if (!isfinite(v) || v < lo || v > hi) {
		snprintf(why, whylen, "%s is out of range (%.12g to %.12g)", s, lo, hi);
		return -EINVAL;
	}
	if (whole && v != floor(v)) {
		snprintf(why, whylen, "%s is not a whole number", s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

UT_FRAME_PRIVATE int
ut_yaml_scalar(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *key,
	       const char **out)
{
	if (!n || n->type != UT_YAML_SCALAR)
		return ut_yaml_error(doc, n, "\"%s\" needs a single value", key);
	*out = n->text;
	return 0;
}

UT_FRAME_PRIVATE int
ut_yaml_number(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *key,
	       const char *unit, double lo, double hi, bool whole, double *out)
{
	char why[256];
	const char *s;

	if (ut_yaml_scalar(doc, n, key, &s) < 0)
		return -EINVAL;
	if (ut_config_number(s, unit, lo, hi, whole, out, why, sizeof(why)) < 0)
		return ut_yaml_error(doc, n, "\"%s\": %s", key, why);
	return 0;
}

UT_FRAME_PRIVATE int
ut_yaml_bool(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *key, bool *out)
{
	static const char *const names[] = { "false", "true", "no", "yes", "off", "on", NULL };
	const char *s;

	if (ut_yaml_scalar(doc, n, key, &s) < 0)
		return -EINVAL;
	for (int i = 0; names[i]; i++) {
		if (!strcasecmp(s, names[i])) {
			*out = i % 2;
			return 0;
		}
	}
	return ut_yaml_error(doc, n, "\"%s\": \"%s\" is not true or false", key, s);
}

UT_FRAME_PRIVATE int
ut_yaml_enum(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *key,
	     const char *const *names, int *out)
{
	char list[300] = "";
	const char *s;
	size_t used = 0;

	if (ut_yaml_scalar(doc, n, key, &s) < 0)
		return -EINVAL;
	for (int i = 0; names[i]; i++) {
		if (!strcasecmp(s, names[i])) {
			*out = i;
			return 0;
		}
	}
	for (int i = 0; names[i] && used < sizeof(list); i++) {
		int w = snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "", names[i]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
	return ut_yaml_error(doc, n, "\"%s\": unknown value \"%s\" (one of %s)", key, s, list);
}

UT_FRAME_PRIVATE int
ut_yaml_string(struct ut_yaml_doc *doc, const struct ut_yaml_node *n, const char *key,
	       const char **out)
{
	if (ut_yaml_scalar(doc, n, key, out) < 0)
		return -EINVAL;
	if (!**out || ut_yaml_is_empty(n))
		return ut_yaml_error(doc, n, "\"%s\" is empty%s", key,
				     **out ? " (YAML's null; quote it to mean the text)" : "");
	return 0;
}

/* Levenshtein distance of two short words, capped */
static size_t
distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[64];

	if (la >= 63 || lb >= 63)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

UT_FRAME_PRIVATE const char *
ut_config_suggest(const char *s, const char *const *names, size_t count)
{
	const char *best = NULL;
	size_t best_d = 3;

	for (size_t i = 0; i < count; i++) {
		size_t d = distance(s, names[i]);

		if (d < best_d && d * 2 < strlen(names[i])) {
			best = names[i];
			best_d = d;
		}
	}
	return best;
}

static int
unknown_key(struct ut_yaml_doc *doc, const struct ut_yaml_node *k, const char *what,
	    const struct ut_yaml_field *fields, size_t nfields)
{
	const char *names[64];
	size_t n = nfields < 64 ? nfields : 64;
	const char *near;

	for (size_t i = 0; i < n; i++)
		names[i] = fields[i].key;
	near = ut_config_suggest(k->text, names, n);
	if (near)
		return ut_yaml_error(doc, k, "unknown %s key \"%s\" (did you mean \"%s\"?)", what,
				     k->text, near);
	return ut_yaml_error(doc, k, "unknown %s key \"%s\"", what, k->text);
}

static int
read_field(struct ut_yaml_doc *doc, const struct ut_yaml_field *f,
	   const struct ut_yaml_node *v, void *target)
{
	char *at = (char *)target + f->offset;
	bool whole = f->type == UT_YAML_INT || f->type == UT_YAML_UINT || f->type == UT_YAML_U64;
	double d;
	bool b;
	int i;

	switch (f->type) {
	case UT_YAML_DOUBLE:
	case UT_YAML_FLOAT:
	case UT_YAML_INT:
	case UT_YAML_UINT:
	case UT_YAML_U64:
		if (ut_yaml_number(doc, v, f->key, f->unit, f->lo, f->hi, whole, &d) < 0)
			return -EINVAL;
		if (f->type == UT_YAML_DOUBLE)
			*(double *)(void *)at = d;
		else if (f->type == UT_YAML_FLOAT)
			*(float *)(void *)at = (float)d;
		else if (f->type == UT_YAML_INT)
			*(int *)(void *)at = (int)d;
		else if (f->type == UT_YAML_UINT)
			*(unsigned int *)(void *)at = (unsigned int)d;
		else
			*(uint64_t *)(void *)at = (uint64_t)d;
		return 0;
	case UT_YAML_BOOL:
		if (ut_yaml_bool(doc, v, f->key, &b) < 0)
			return -EINVAL;
		*(int *)(void *)at = b;
		return 0;
	case UT_YAML_ENUM:
		if (ut_yaml_enum(doc, v, f->key, f->names, &i) < 0)
			return -EINVAL;
		*(int *)(void *)at = i;
		return 0;
	case UT_YAML_STRING:
		return ut_yaml_string(doc, v, f->key, (const char **)(void *)at);
	case UT_YAML_CUSTOM:
		return f->read(doc, f, v, target);
	}
	return -EINVAL;
}

UT_FRAME_PRIVATE int
ut_yaml_read_map(struct ut_yaml_doc *doc, const struct ut_yaml_node *map, const char *what,
		 const struct ut_yaml_field *fields, size_t nfields, void *target,
		 const struct ut_yaml_node **seen)
{
	int r = 0;

	if (seen)
		for (size_t i = 0; i < nfields; i++)
			seen[i] = NULL;
	if (!map || map->type != UT_YAML_MAP)
		return ut_yaml_error(doc, map, "a %s must be a mapping of keys and values", what);
	for (size_t p = 0; p < map->count; p++) {
		const struct ut_yaml_node *k = map->items[2 * p], *v = map->items[2 * p + 1];
		size_t i;

		for (i = 0; i < nfields; i++)
			if (!strcmp(fields[i].key, k->text))
				break;
		if (i == nfields) {
			r = unknown_key(doc, k, what, fields, nfields);
			continue;
		}
		if (read_field(doc, &fields[i], v, target) < 0)
			r = -EINVAL;
		if (seen)
			seen[i] = v;
	}
	return r;
}
