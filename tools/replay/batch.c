#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"
#include "tool.h"
#include "util/poison.h"   /* UT_HAVE_ASAN */

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

/*
 * The parent of the replays takes no memory from the heap (the file and
 * the word lists are mapped, the markers written with write(2)), so that
 * every child starts with the heap as a fresh process of the program has
 * it.  For utouch-replay that is tidiness; for the original grail run by
 * tests/replay/ref-grail-batch it is what makes a forked replay print
 * what a started one does: the original reads uninitialised gesture
 * memory (original-utouch.md section 4, item 2) and orders gestures by
 * heap address, so memory the parent had used and freed could change
 * its output.
 */
struct mapping {
	char *base;
	size_t size;
};

static bool
map_grow(struct mapping *m, size_t size)
{
	void *p = m->base ? mremap(m->base, m->size, size, MREMAP_MAYMOVE)
			  : mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0);

	if (p == MAP_FAILED)
		return false;
	m->base = p;
	m->size = size;
	return true;
}

static void
map_free(struct mapping *m)
{
	if (m->base)
		munmap(m->base, m->size);
	m->base = NULL;
}

/* The whole file (or standard input) in one NUL-terminated mapping. */
static bool
read_all(const char *path, const char *shown, struct mapping *m, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	size_t n = 0;
	bool ok = true;

	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", tool_name(), shown, strerror(errno));
		return false;
	}
	for (;;) {
		if ((!m->base || m->size - n < 4097) && !map_grow(m, m->base ? m->size * 2 : 65536))
			tool_oom();
		ssize_t got = read(fd, m->base + n, m->size - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			fprintf(stderr, "%s: %s: %s\n", tool_name(), shown, strerror(errno));
			ok = false;
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (!ok) {
		map_free(m);
		return false;
	}
	m->base[n] = '\0';
	*len = n;
	return true;
}

/* All of @p len bytes to standard output. */
static void
write_out(const char *text, size_t len)
{
	while (len > 0) {
		ssize_t n = write(STDOUT_FILENO, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* a closed pipe: the replays' own writes fail too */
		text += n;
		len -= (size_t)n;
	}
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
		st = run(argc, argv);
		/* the replay's output, then out without the libraries'
		 * destructors and exit handlers: each would touch (and copy)
		 * pages of the parent for nothing.  Under AddressSanitizer
		 * the exit handlers include the leak check of the replay. */
		fflush(NULL);
#ifdef UT_HAVE_ASAN
		exit(st);
#else
		_exit(st);
#endif
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
	struct mapping file = {0}, words = {0};
	size_t len, lineno = 0;
	char *line, *end;
	int failed = 0;

	if (!read_all(path, shown, &file, &len))
		return 1;
	/* room for the words of any line: a word takes at least one character
	 * and a blank, or two quotes */
	if (!map_grow(&words, (len / 2 + 3) * sizeof(char *)))
		tool_oom();
	for (line = file.base; line < file.base + len; line = end + 1) {
		const char *err = NULL;
		char **argv = (char **)words.base;
		char marker[64];
		int n, status;

		lineno++;
		end = memchr(line, '\n', (size_t)(file.base + len - line));
		if (!end)
			end = file.base + len;
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
			n = replay_batch_split(line, argv + 1, (int)(strlen(line) / 2 + 1), &err);
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
		int k = snprintf(marker, sizeof(marker), "# batch line=%zu status=%d\n", lineno,
				 status);
		write_out(marker, (size_t)k);
		failed |= status != 0;
	}
	map_free(&words);
	map_free(&file);
	return failed;
}
