/*
 * peak-rss FILE COMMAND [ARG...]: run COMMAND and write its peak resident
 * set size in KiB (ru_maxrss of the child) to FILE; exit with its status.
 *
 * The load tests use it instead of measuring from Python: a child forked
 * from a Python process counts the interpreter's pages in its ru_maxrss
 * (the peak carries over exec), and this program is small.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *out;

	if (argc < 3) {
		fputs("usage: peak-rss FILE COMMAND [ARG...]\n", stderr);
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("peak-rss: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("peak-rss: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("peak-rss: wait4");
		return 2;
	}
	out = fopen(argv[1], "w");
	if (!out || fprintf(out, "%ld\n", ru.ru_maxrss) < 0 || fclose(out) != 0) {
		perror(argv[1]);
		return 2;
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "peak-rss: %s died of signal %d\n", argv[2], WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}
