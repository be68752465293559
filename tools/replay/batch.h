/*
 * utouch-replay --batch: many replays from one process, one per line of a
 * file (doc/replay.md, "Many replays at once").
 */
#ifndef UTOUCH_REPLAY_BATCH_H
#define UTOUCH_REPLAY_BATCH_H

#include <stddef.h>

/**
 * Split @p line in place into words, as a shell would without expanding
 * anything: blanks (spaces and tabs) separate words, '...' takes every
 * character up to the next ' as it is, "..." the same except that a
 * backslash there takes a following " or \ as it is, and a backslash
 * elsewhere takes the next character as it is.  "" and '' make an empty
 * word.
 *
 * @param line   the text, changed in place; the words point into it
 * @param words  room for @p max words
 * @param max    how many words fit
 * @param err    on failure, set to a message naming the problem
 * @return the number of words, or -1 on an unterminated quote, a backslash
 *         at the end or more than @p max words
 */
int replay_batch_split(char *line, char **words, int max, const char **err);

/**
 * Run one replay for every line of @p path ("-": standard input), each in
 * a child process forked from this one that calls @p run with the line's
 * words after the program name as its arguments (getopt state reset).
 * Blank lines and lines whose first non-blank character is '#' are
 * skipped.
 * After each replay's output, a line "# batch line=N status=S" goes to
 * standard output: S is the replay's exit status, 128 + the signal number
 * if a signal ended it, 2 if the line could not be split.  The file is
 * read whole before the first replay starts.  This process takes no heap
 * memory for the batch (the file and the words are mapped, the markers
 * written with write(2)), so each child starts with the heap a fresh
 * process would have: what the original grail prints can depend on it
 * (tests/replay/ref-grail-batch.c).
 *
 * @param path      the batch file, or "-"
 * @param progname  argv[0] for the replays and the prefix of messages
 * @param run       the replay's main function; its return value is the
 *                  child's exit status
 * @return 0 when every line's replay exited with status 0, 1 otherwise
 *         (or when the file cannot be read, or a child cannot be started)
 */
int replay_batch(const char *path, const char *progname, int (*run)(int argc, char **argv));

#endif
