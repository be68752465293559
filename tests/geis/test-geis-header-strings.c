/*
 * Every string constant of <geis/geis.h> against geis 2.2.17's installed
 * header (the oracle in ../shared/tools/geis-orig): each `#define NAME
 * "value"` of one header must be in the other with the same value.  A
 * program built against the original header passes the original strings,
 * so a differing value is a name geis no longer understands.
 *
 * Usage: test-geis-header-strings OURS ORIGINAL.  Exit 77 (skip) when the
 * original header is not there.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEFS 512

struct def {
	char name[96];
	char value[160];
};

/* Collect the `#define NAME "literal"` lines of @p path; -1 on error. */
static int
read_defs(const char *path, struct def *defs, int max)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line;
		size_t len;

		while (isspace((unsigned char)*p))
			p++;
		if (*p++ != '#')
			continue;
		while (isspace((unsigned char)*p))
			p++;
		if (strncmp(p, "define", 6) != 0 || !isspace((unsigned char)p[6]))
			continue;
		p += 6;
		while (isspace((unsigned char)*p))
			p++;
		len = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			     "0123456789_");
		if (len == 0 || len >= sizeof(defs[0].name) || p[len] == '(')
			continue;
		const char *v = p + len;
		while (isspace((unsigned char)*v))
			v++;
		if (*v != '"')
			continue;
		const char *end = strchr(v + 1, '"');
		if (!end || (size_t)(end - v - 1) >= sizeof(defs[0].value))
			continue;
		if (n == max) {
			fclose(f);
			fprintf(stderr, "%s: more than %d string constants\n", path, max);
			return -1;
		}
		memcpy(defs[n].name, p, len);
		defs[n].name[len] = '\0';
		memcpy(defs[n].value, v + 1, (size_t)(end - v - 1));
		defs[n].value[end - v - 1] = '\0';
		n++;
	}
	fclose(f);
	return n;
}

static const struct def *
find(const struct def *defs, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(defs[i].name, name) == 0)
			return &defs[i];
	return NULL;
}

int
main(int argc, char **argv)
{
	static struct def ours[MAX_DEFS], orig[MAX_DEFS];
	int nours, norig, bad = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s OUR_GEIS_H ORIGINAL_GEIS_H\n", argv[0]);
		return 2;
	}
	norig = read_defs(argv[2], orig, MAX_DEFS);
	if (norig < 0 && errno == ENOENT) {
		printf("SKIP: the original header %s is not there\n", argv[2]);
		return 77;
	}
	nours = read_defs(argv[1], ours, MAX_DEFS);
	if (nours < 0 || norig < 0) {
		fprintf(stderr, "cannot read the headers\n");
		return 1;
	}
	for (int i = 0; i < norig; i++) {
		const struct def *d = find(ours, nours, orig[i].name);

		if (!d) {
			fprintf(stderr, "%s is missing (original \"%s\")\n", orig[i].name,
				orig[i].value);
			bad++;
		} else if (strcmp(d->value, orig[i].value) != 0) {
			fprintf(stderr, "%s is \"%s\", the original \"%s\"\n", orig[i].name,
				d->value, orig[i].value);
			bad++;
		}
	}
	for (int i = 0; i < nours; i++)
		if (!find(orig, norig, ours[i].name)) {
			fprintf(stderr, "%s (\"%s\") is not in the original header\n",
				ours[i].name, ours[i].value);
			bad++;
		}
	printf("%d string constants compared with %d of the original, %d differences\n",
	       nours, norig, bad);
	/* a parser that finds nothing compares nothing */
	if (norig < 100) {
		fprintf(stderr, "only %d string constants found in the original\n", norig);
		bad++;
	}
	return bad ? 1 : 0;
}
