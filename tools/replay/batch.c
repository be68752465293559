#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"
#include "tool.h"

int
replay_batch_split(char *line, char **words, int max, const char **err)
{
	char *in = line, *out = line;
	int n = 0;

	for (;;) {
		while (*in == ' ' || *in == '\t')
			in++;
		if (!*in)
			return n;
		if (n == max) {
			*err = "too many words";
			return -1;
		}
		words[n++] = out;
		/* one word: up to a blank outside quotes */
		while (*in && *in != ' ' && *in != '\t') {
			char q = *in;

			if (q == '\'' || q == '"') {
				in++;
				while (*in && *in != q) {
					if (q == '"' && *in == '\\' && (in[1] == '"' || in[1] == '\\'))
						in++;
					*out++ = *in++;
				}
				if (!*in) {
					*err = q == '"' ? "a \" quote is not closed" :
							  "a ' quote is not closed";
					return -1;
				}
				in++;
			} else if (q == '\\') {
				if (!in[1]) {
					*err = "a backslash ends the line";
					return -1;
				}
				*out++ = in[1];
				in += 2;
			} else {
				*out++ = *in++;
			}
		}
		/* the blank after the word (if any) becomes its terminator; the
		 * text still to read starts after it */
		if (*in)
			in++;
		*out++ = '\0';
	}
}

/* The whole file (or standard input) in one NUL-terminated buffer. */
static char *
read_all(const char *path, const char *shown, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", tool_name(), shown, strerror(errno));
		return NULL;
	}
	for (;;) {
		TOOL_RESERVE(buf, cap, n + 4097, 4097);
		size_t got = fread(buf + n, 1, 4096, f);

		n += got;
		if (got < 4096)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: %s: read error\n", tool_name(), shown);
		free(buf);
		buf = NULL;
	} else {
		buf[n] = '\0';
		*len = n;
	}
	if (f != stdin)
		fclose(f);
	return buf;
}

/* Run one replay in a child; its exit status as a shell reports it. */
static int
run_child(int argc, char **argv, int (*run)(int argc, char **argv))
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		optind = 0; /* glibc: start getopt afresh */
		exit(run(argc, argv));
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

int
replay_batch(const char *path, const char *progname, int (*run)(int argc, char **argv))
{
	const char *shown = strcmp(path, "-") ? path : "standard input";
	size_t len, lineno = 0;
	char *buf = read_all(path, shown, &len), *line, *end;
	int failed = 0;

	if (!buf)
		return 1;
	for (line = buf; line < buf + len; line = end + 1) {
		const char *err = NULL;
		char **argv;
		int max, n, status;

		lineno++;
		end = memchr(line, '\n', (size_t)(buf + len - line));
		if (!end)
			end = buf + len;
		argv = NULL;
		if (memchr(line, '\0', (size_t)(end - line))) {
			err = "the line holds a NUL byte";
			n = -1;
		} else {
			*end = '\0';
			if (end > line && end[-1] == '\r')
				end[-1] = '\0';
			char first = line[strspn(line, " \t")];
			if (first == '#' || first == '\0')
				continue;
			/* a word takes at least one character and a blank, or
			 * two quotes */
			max = (int)(strlen(line) / 2 + 1);
			argv = malloc(((size_t)max + 2) * sizeof(*argv));
			if (!argv)
				tool_oom();
			n = replay_batch_split(line, argv + 1, max, &err);
		}
		if (n < 0) {
			fprintf(stderr, "%s: %s:%zu: %s\n", tool_name(), shown, lineno, err);
			status = 2;
		} else {
			argv[0] = (char *)progname;
			argv[n + 1] = NULL;
			status = run_child(n + 1, argv, run);
			if (status < 0) {
				fprintf(stderr, "%s: %s:%zu: cannot start the replay: %s\n",
					tool_name(), shown, lineno, strerror(errno));
				status = 1;
			} else if (status != 0) {
				fprintf(stderr, "%s: %s:%zu: the replay ended with status %d\n",
					tool_name(), shown, lineno, status);
			}
		}
		free(argv);
		printf("# batch line=%zu status=%d\n", lineno, status);
		failed |= status != 0;
	}
	fflush(stdout);
	free(buf);
	return failed;
}
