/*
 * The YAML configuration reader (src/util/yaml-config.c) on its own: the
 * number grammar and units, the tree it builds, every error of a file
 * through the report callback, the table reader.  The daemon's and the
 * compositor's tests check the files they read with it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/yaml-config.h"

static void
test_numbers(void **state)
{
	static const struct {
		const char *text, *unit;
		int whole;
		double value;   /* accepted */
		const char *why; /* or refused with this */
	} cases[] = {
		{ "8", NULL, 0, 8, NULL },
		{ "-2.5", NULL, 0, -2.5, NULL },
		{ "+.5", NULL, 0, 0.5, NULL },
		{ "5.", NULL, 0, 5, NULL },
		{ "1e3", NULL, 1, 1000, NULL },
		{ "12mm", "mm", 0, 12, NULL },
		{ "12 mm", "mm|deg", 0, 12, NULL },
		{ "20deg", "mm|deg", 0, 20, NULL },
		{ "300 ms", "ms", 1, 300, NULL },
		{ "0.25 s", "ms", 1, 250, NULL },
		{ "0x3", NULL, 1, 0, "\"0x3\" is not a number" },
		{ "0x3", "ms", 1, 0, "\"0x3\" is not a number" },
		{ "inf", NULL, 0, 0, "\"inf\" is not a number" },
		{ ".nan", NULL, 0, 0, "\".nan\" is not a number" },
		{ "", NULL, 0, 0, "\"\" is not a number" },
		{ "1e", NULL, 0, 0, "\"1e\" is not a number" },
		{ "3 apples", NULL, 0, 0, "\"3 apples\" is not a number" },
		{ "5 mm", "ms", 1, 0, "\"5 mm\": the unit here is ms" },
		{ "1e400", NULL, 0, 0, "1e400 is out of range (0 to 100)" },
		{ "101", NULL, 0, 0, "101 is out of range (0 to 100)" },
		{ "2.5", NULL, 1, 0, "2.5 is not a whole number" },
		{ "0.0005 s", "ms", 1, 0, "0.0005 s is not a whole number" },
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char why[128] = "";
		double v = -1;
		int r = ut_config_number(cases[i].text, cases[i].unit, cases[i].why ? 0 : -1000,
					 cases[i].why ? 100 : 1e6, cases[i].whole, &v, why,
					 sizeof(why));

		if (cases[i].why ? (r != -EINVAL || strcmp(why, cases[i].why))
				 : (r != 0 || v != cases[i].value)) {
			fprintf(stderr, "\"%s\": %d %g \"%s\"\n", cases[i].text, r, v, why);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void
collect(void *data, const char *message)
{
	char *all = data;

	strncat(all, message, 2048 - strlen(all) - 2);
	strcat(all, "\n");
}

/* the tree: types, positions, quoting; errors go on to the next key */
static void
test_tree_and_table(void **state)
{
	static const char text[] = "a: 1\n"
				   "b: [x, \"y\"]\n"
				   "c: {d: on}\n"
				   "e:\n";
	struct ut_yaml_doc doc;
	char all[2048] = "";

	ut_yaml_init(&doc, "t.yaml", collect, all);
	assert_int_equal(ut_yaml_load(&doc, text, strlen(text)), 0);
	assert_int_equal(doc.root->type, UT_YAML_MAP);
	assert_int_equal(doc.root->count, 4);
	const struct ut_yaml_node *b = ut_yaml_get(doc.root, "b");
	assert_int_equal(b->type, UT_YAML_LIST);
	assert_int_equal(b->count, 2);
	assert_false(b->items[0]->quoted);
	assert_true(b->items[1]->quoted);
	assert_int_equal(b->line, 2);
	assert_int_equal(b->column, 4);
	assert_true(ut_yaml_is_empty(ut_yaml_get(doc.root, "e")));
	assert_null(ut_yaml_get(doc.root, "z"));

	struct target {
		int a;
		const char *b;
	} t = { 0, NULL };
	static const struct ut_yaml_field fields[] = {
		{ "a", UT_YAML_INT, offsetof(struct target, a), 0, 10, NULL, NULL, NULL },
		{ "b", UT_YAML_STRING, offsetof(struct target, b), 0, 0, NULL, NULL, NULL },
		{ "cc", UT_YAML_BOOL, 0, 0, 0, NULL, NULL, NULL },
	};
	const struct ut_yaml_node *seen[3];
	assert_int_equal(ut_yaml_read_map(&doc, doc.root, "test", fields, 3, &t, seen), -EINVAL);
	assert_int_equal(t.a, 1);
	assert_non_null(seen[0]);
	assert_non_null(seen[1]);
	assert_null(seen[2]);
	/* every error, in order: b is a list, c and e are unknown */
	assert_string_equal(all, "t.yaml:2:4: \"b\" needs a single value\n"
				 "t.yaml:3:1: unknown test key \"c\"\n"
				 "t.yaml:4:1: unknown test key \"e\"\n");
	assert_int_equal(doc.nerrors, 3);
	assert_string_equal(doc.first, "t.yaml:2:4: \"b\" needs a single value");
	/* a close key is suggested, a far one not */
	static const char *const keys[] = { "fingers", "gesture", "direction" };
	assert_string_equal(ut_config_suggest("fingrs", keys, 3), "fingers");
	assert_string_equal(ut_config_suggest("Gesture", keys, 3), "gesture");
	assert_null(ut_config_suggest("colour", keys, 3));
	ut_yaml_warning(&doc, b, "just so");
	assert_int_equal(doc.nerrors, 3);
	assert_non_null(strstr(all, "t.yaml:2:4: warning: just so\n"));
	ut_yaml_fini(&doc);
}

/* bad and repeated keys: every one reported in the file's order, their
 * pairs left out, the rest of the tree kept for the reader's own errors */
static void
test_bad_keys(void **state)
{
	static const char text[] = "a: 1\n"
				   "b: {x: 1, y: 2, x: 3, x: 4}\n"
				   "[k]: 5\n"
				   "a: 6\n"
				   "c: 7\n";
	struct ut_yaml_doc doc;
	char all[2048] = "";

	(void)state;
	ut_yaml_init(&doc, "k.yaml", collect, all);
	assert_int_equal(ut_yaml_load(&doc, text, strlen(text)), -EINVAL);
	assert_string_equal(all, "k.yaml:2:17: \"x\" appears twice (first on line 2)\n"
				 "k.yaml:2:23: \"x\" appears twice (first on line 2)\n"
				 "k.yaml:3:1: a key must be a name, not a list\n"
				 "k.yaml:4:1: \"a\" appears twice (first on line 1)\n");
	assert_int_equal(doc.nerrors, 4);
	assert_non_null(doc.root);
	assert_int_equal(doc.root->count, 3);
	assert_string_equal(ut_yaml_get(doc.root, "a")->text, "1");
	assert_string_equal(ut_yaml_get(doc.root, "c")->text, "7");
	const struct ut_yaml_node *b = ut_yaml_get(doc.root, "b");
	assert_int_equal(b->count, 2);
	assert_string_equal(ut_yaml_get(b, "x")->text, "1");
	assert_string_equal(ut_yaml_get(b, "y")->text, "2");
	ut_yaml_fini(&doc);
	assert_null(doc.root);

	/* a syntax error after a bad key still leaves no tree */
	static const char broken[] = "x: {a: 1, a: 2}\nb: [\n";
	ut_yaml_init(&doc, "s.yaml", NULL, NULL);
	assert_int_equal(ut_yaml_load(&doc, broken, strlen(broken)), -EINVAL);
	assert_null(doc.root);
	assert_int_equal(doc.nerrors, 2);
	assert_string_equal(doc.first, "s.yaml:1:11: \"a\" appears twice (first on line 1)");
	ut_yaml_fini(&doc);
}

/* the limits, one at a time */
static void
test_limits(void **state)
{
	static char big[UT_YAML_MAX_BYTES + 2];
	char deep[64];
	struct ut_yaml_doc doc;

	memset(deep, '[', 17);
	memset(deep + 17, ']', 17);
	deep[34] = '\0';
	ut_yaml_init(&doc, "d", NULL, NULL);
	assert_int_equal(ut_yaml_load(&doc, deep, strlen(deep)), -EINVAL);
	assert_string_equal(doc.first, "d:1:17: lists and mappings nested deeper than 16 levels");
	assert_null(doc.root);
	ut_yaml_fini(&doc);
	memset(deep, '[', 16);   /* 16 levels are fine */
	memset(deep + 16, ']', 16);
	deep[32] = '\0';
	ut_yaml_init(&doc, "d", NULL, NULL);
	assert_int_equal(ut_yaml_load(&doc, deep, strlen(deep)), 0);
	ut_yaml_fini(&doc);

	memset(big, '#', sizeof(big));
	ut_yaml_init(&doc, "big", NULL, NULL);
	assert_int_equal(ut_yaml_load(&doc, big, sizeof(big)), -EINVAL);
	assert_string_equal(doc.first, "big: larger than 1024 KiB");
	ut_yaml_fini(&doc);

	/* 65,537 values: [0,0,0,...] */
	size_t n = UT_YAML_MAX_NODES + 1, len = 0;
	big[len++] = '[';
	for (size_t i = 0; i < n && len + 3 < sizeof(big); i++) {
		big[len++] = '0';
		big[len++] = ',';
	}
	big[len - 1] = ']';
	ut_yaml_init(&doc, "many", NULL, NULL);
	assert_int_equal(ut_yaml_load(&doc, big, len), -EINVAL);
	assert_non_null(strstr(doc.first, "more than 65536 values in the file"));
	ut_yaml_fini(&doc);
}

/* text libyaml's reader refuses (control characters, broken UTF-8) is
 * named by line and column like every other error */
static void
test_unreadable_text(void **state)
{
	static const struct {
		const char *text;
		const char *first;
	} cases[] = {
		{ "a: 1\nb: x\001y\n",
		  "u:2:5: control characters are not allowed (byte 9)" },
		{ "a: 1\r\nb: \"\xc3\xa9\xc3\x28\"\n",
		  "u:2:7: invalid trailing UTF-8 octet (byte 13)" },
		{ "# \xc3\xa9\n\n  k: \xff\n",
		  "u:3:6: invalid leading UTF-8 octet (byte 11)" },
		{ "a: \"x\0y\"\n", "u:1:6: control characters are not allowed (byte 5)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ut_yaml_doc doc;
		size_t len = strlen(cases[i].text);

		if (i == 3)
			len = 10;   /* the NUL byte and what follows it */
		ut_yaml_init(&doc, "u", NULL, NULL);
		assert_int_equal(ut_yaml_load(&doc, cases[i].text, len), -EINVAL);
		assert_string_equal(doc.first, cases[i].first);
		assert_null(doc.root);
		ut_yaml_fini(&doc);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_tree_and_table),
		cmocka_unit_test(test_bad_keys),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_unreadable_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
