/* utouch-synth: generate evdev recordings from touch scenarios. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "synth.h"
#include "tool.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
		"Usage: utouch-synth [OPTIONS] SCENARIO\n"
		"Generate a multitouch evdev recording from a scenario file.\n"
		"\n"
		"Options:\n"
		"  -d, --device PRESET   device preset (overrides the scenario's 'device' line;\n"
		"                        default: touchscreen)\n"
		"  -f, --format FORMAT   evemu2 (default), evemu1 or libinput\n"
		"  -o, --output FILE     write to FILE instead of standard output\n"
		"      --split-device    evemu1 only: write the device description to\n"
		"                        device.prop next to FILE and only events to FILE\n"
		"      --backstep US     stamp every second event of a report US microseconds\n"
		"                        (1..1000) before the one before it, as real devices do\n"
		"      --stats           print the number of reports and events to stderr\n"
		"      --list-devices    list the device presets and exit\n"
		"  -h, --help            show this help and exit\n"
		"\n"
		"See utouch-synth(1) and doc/synth.md for the scenario language.\n");
}

static void
list_devices(void)
{
	const struct synth_preset *pr;

	for (size_t i = 0; (pr = synth_preset_get(i)); i++)
		printf("%-20s %s\n", pr->name, pr->summary);
}

/* Write to PATH through a temporary file, so that a failure leaves no
 * half-written output behind. */
static int
write_file(const char *path, const struct synth_stream *st, enum synth_format format,
	   bool device_only, bool events_only, const char *source)
{
	size_t len = strlen(path) + 16;
	char *tmp = malloc(len);
	int rc = 0;

	if (!tmp) {
		fprintf(stderr, "utouch-synth: out of memory\n");
		return -1;
	}
	snprintf(tmp, len, "%s.tmp-synth", path);
	FILE *fp = fopen(tmp, "w");
	if (!fp) {
		fprintf(stderr, "%s: cannot create: %s\n", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	if (format == SYNTH_FORMAT_LIBINPUT) {
		rc = synth_write_libinput(fp, st, source);
	} else {
		if (!events_only)
			rc = synth_write_evemu_device(fp, st, format, source);
		if (rc == 0 && !device_only)
			rc = synth_write_evemu_events(fp, st, format);
	}
	if (fclose(fp) != 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc != 0) {
		fprintf(stderr, "%s: write error: %s\n", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

static int
write_stdout(const struct synth_stream *st, enum synth_format format, const char *source)
{
	int rc;

	if (format == SYNTH_FORMAT_LIBINPUT) {
		rc = synth_write_libinput(stdout, st, source);
	} else {
		rc = synth_write_evemu_device(stdout, st, format, source);
		if (rc == 0)
			rc = synth_write_evemu_events(stdout, st, format);
	}
	if (fflush(stdout) != 0 || rc != 0) {
		fprintf(stderr, "utouch-synth: write error on standard output: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	enum { OPT_SPLIT = 256, OPT_STATS, OPT_LIST, OPT_BACKSTEP };
	static const struct option options[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "split-device", no_argument, NULL, OPT_SPLIT },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "backstep", required_argument, NULL, OPT_BACKSTEP },
		{ "list-devices", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *device = NULL, *output = NULL;
	enum synth_format format = SYNTH_FORMAT_EVEMU2;
	bool split = false, stats = false;
	int backstep = 0;
	int c;

	tool_init("utouch-synth");
	while ((c = getopt_long(argc, argv, "d:f:o:h", options, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "evemu2") == 0 || strcmp(optarg, "evemu") == 0) {
				format = SYNTH_FORMAT_EVEMU2;
			} else if (strcmp(optarg, "evemu1") == 0) {
				format = SYNTH_FORMAT_EVEMU1;
			} else if (strcmp(optarg, "libinput") == 0) {
				format = SYNTH_FORMAT_LIBINPUT;
			} else {
				fprintf(stderr, "utouch-synth: unknown format '%s' "
					"(expected evemu2, evemu1 or libinput)\n", optarg);
				return 2;
			}
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_SPLIT:
			split = true;
			break;
		case OPT_STATS:
			stats = true;
			break;
		case OPT_BACKSTEP: {
			char *end;
			long v;

			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 1 || v > 1000) {
				fprintf(stderr, "utouch-synth: --backstep needs a number of "
					"microseconds from 1 to 1000, not '%s'\n", optarg);
				return 2;
			}
			backstep = (int)v;
			break;
		}
		case OPT_LIST:
			list_devices();
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "utouch-synth: expected exactly one scenario file\n");
		usage(stderr);
		return 2;
	}
	if (split && (format != SYNTH_FORMAT_EVEMU1 || !output)) {
		fprintf(stderr, "utouch-synth: --split-device needs --format evemu1 and -o FILE\n");
		return 2;
	}
	if (device && !synth_preset_find(device)) {
		fprintf(stderr, "utouch-synth: unknown device preset '%s' (see --list-devices)\n",
			device);
		return 2;
	}

	struct synth_scenario *sc = synth_scenario_load(argv[optind]);
	if (!sc)
		return 1;
	const char *preset_name = device ? device : sc->preset_name ? sc->preset_name : "touchscreen";
	const struct synth_preset *preset = synth_preset_find(preset_name);
	struct synth_stream st;
	int rc = 1;

	if (synth_render(sc, preset, &st) < 0)
		goto out;
	if (backstep)
		synth_stream_backstep(&st, backstep);
	if (stats)
		fprintf(stderr, "reports %zu events %zu duration_ms %lld\n", st.nreports,
			st.nevents,
			(long long)(st.nevents ? st.events[st.nevents - 1].usec / 1000 : 0));
	if (!output) {
		rc = write_stdout(&st, format, sc->basename) < 0 ? 1 : 0;
	} else if (split) {
		char *copy = strdup(output);
		char *dir = copy ? dirname(copy) : NULL;
		size_t len = dir ? strlen(dir) + sizeof("/device.prop") : 0;
		char *prop = dir ? malloc(len) : NULL;
		if (!prop) {
			fprintf(stderr, "utouch-synth: out of memory\n");
		} else {
			snprintf(prop, len, "%s/device.prop", dir);
			rc = write_file(prop, &st, format, true, false, sc->basename) < 0 ||
			     write_file(output, &st, format, false, true, sc->basename) < 0;
		}
		free(prop);
		free(copy);
	} else {
		rc = write_file(output, &st, format, false, false, sc->basename) < 0 ? 1 : 0;
	}
	synth_stream_release(&st);
out:
	synth_scenario_free(sc);
	return rc;
}
