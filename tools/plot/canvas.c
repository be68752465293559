#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-svg.h>

#include "plot.h"
#include "util/array.h"

#define FONT "sans-serif"

static int
append(char **buf, size_t *len, size_t *cap, const char *data, size_t n)
{
	if (!UT_ARRAY_RESERVE(*buf, *cap, *len + n + 1, 4096))
		return -1;
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 0;
}

static cairo_status_t
svg_write(void *closure, const unsigned char *data, unsigned int length)
{
	struct plot_canvas *c = closure;

	if (append(&c->svg, &c->svglen, &c->svgcap, (const char *)data, length)) {
		c->oom = 1;
		return CAIRO_STATUS_NO_MEMORY;
	}
	return CAIRO_STATUS_SUCCESS;
}

static void labels_printf(struct plot_canvas *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
labels_printf(struct plot_canvas *c, const char *fmt, ...)
{
	char small[512], *text = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		c->oom = 1;
		return;
	}
	if ((size_t)n >= sizeof(small)) {
		text = malloc((size_t)n + 1);
		if (!text) {
			c->oom = 1;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(text, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	if (append(&c->labels, &c->labelslen, &c->labelscap, text, (size_t)n))
		c->oom = 1;
	if (text != small)
		free(text);
}

int
plot_canvas_init(struct plot_canvas *c, enum plot_format format, int width, int height)
{
	memset(c, 0, sizeof(*c));
	c->format = format;
	c->width = width;
	c->height = height;
	if (format == PLOT_SVG) {
		c->surface = cairo_svg_surface_create_for_stream(svg_write, c, width, height);
		if (cairo_surface_status(c->surface) == CAIRO_STATUS_SUCCESS)
			cairo_svg_surface_restrict_to_version(c->surface, CAIRO_SVG_VERSION_1_1);
	} else {
		c->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
	}
	if (cairo_surface_status(c->surface) != CAIRO_STATUS_SUCCESS) {
		plot_canvas_fini(c);
		return -1;
	}
	c->cr = cairo_create(c->surface);
	if (cairo_status(c->cr) != CAIRO_STATUS_SUCCESS) {
		plot_canvas_fini(c);
		return -1;
	}
	cairo_set_source_rgb(c->cr, 1, 1, 1);
	cairo_paint(c->cr);
	return 0;
}

void
plot_set_rgb(struct plot_canvas *c, struct plot_rgb colour, double alpha)
{
	if (alpha >= 1)
		cairo_set_source_rgb(c->cr, colour.r, colour.g, colour.b);
	else
		cairo_set_source_rgba(c->cr, colour.r, colour.g, colour.b, alpha);
}

static void
set_font(struct plot_canvas *c, double size, int bold)
{
	cairo_select_font_face(c->cr, FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(c->cr, size);
}

double
plot_text_width(struct plot_canvas *c, double size, int bold, const char *text)
{
	cairo_text_extents_t ext;

	set_font(c, size, bold);
	cairo_text_extents(c->cr, text, &ext);
	return ext.x_advance;
}

/* Length of the valid UTF-8 sequence at @p s, or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07u;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	/* overlong forms, surrogates and values past U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* @p text for drawing: invalid UTF-8 (cairo refuses it, XML forbids it)
 * and control characters become '?'. */
static void
clean_text(const char *text, char *out, size_t outlen)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t used = 0;

	while (*s && used + 5 < outlen) {
		size_t n = utf8_len(s);

		if (n == 0 || (n == 1 && (*s < 0x20 || *s == 0x7f))) {
			out[used++] = '?';
			s++;
			continue;
		}
		memcpy(out + used, s, n);
		used += n;
		s += n;
	}
	out[used] = '\0';
}

/* @p text with the characters XML reserves escaped, into the label list. */
static void
labels_escaped(struct plot_canvas *c, const char *text)
{
	for (const char *p = text; *p; p++) {
		switch (*p) {
		case '<': labels_printf(c, "&lt;"); break;
		case '>': labels_printf(c, "&gt;"); break;
		case '&': labels_printf(c, "&amp;"); break;
		case '"': labels_printf(c, "&quot;"); break;
		default:
			labels_printf(c, "%c", *p);
		}
	}
}

void
plot_label(struct plot_canvas *c, double x, double y, enum plot_align align,
	   double size, struct plot_rgb colour, int bold, const char *cls,
	   const char *attrs, const char *text)
{
	static const char *const anchors[] = { "start", "middle", "end" };
	char clean[1024];

	clean_text(text, clean, sizeof(clean));
	text = clean;
	if (c->format == PLOT_SVG) {
		char hex[8];

		plot_rgb_hex(colour, hex);
		labels_printf(c, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\" fill=\"%s\"%s",
			      x, y, size, hex, bold ? " font-weight=\"bold\"" : "");
		if (align != PLOT_LEFT)
			labels_printf(c, " text-anchor=\"%s\"", anchors[align]);
		labels_printf(c, " class=\"%s\"%s%s>", cls, attrs ? " " : "", attrs ? attrs : "");
		labels_escaped(c, text);
		labels_printf(c, "</text>\n");
		return;
	}
	if (align != PLOT_LEFT) {
		double w = plot_text_width(c, size, bold, text);

		x -= align == PLOT_CENTER ? w / 2 : w;
	}
	set_font(c, size, bold);
	plot_set_rgb(c, colour, 1);
	cairo_move_to(c->cr, x, y);
	cairo_show_text(c->cr, text);
	cairo_new_path(c->cr);
}

void
plot_marker(struct plot_canvas *c, enum plot_shape shape, double x, double y,
	    double r, struct plot_rgb colour)
{
	cairo_t *cr = c->cr;
	int fill = 0;

	cairo_save(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_set_line_width(cr, 1.4);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
	plot_set_rgb(c, colour, 1);
	cairo_new_path(cr);
	switch (shape) {
	case PLOT_DOT:
		fill = 1;
		/* fall through */
	case PLOT_RING:
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
		break;
	case PLOT_BLOCK:
		fill = 1;
		/* fall through */
	case PLOT_SQUARE:
		cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
		break;
	case PLOT_DIAMOND:
		fill = 1;
		r *= 1.25;
		cairo_move_to(cr, x, y - r);
		cairo_line_to(cr, x + r, y);
		cairo_line_to(cr, x, y + r);
		cairo_line_to(cr, x - r, y);
		cairo_close_path(cr);
		break;
	case PLOT_TRIANGLE:
		fill = 1;
		/* fall through */
	case PLOT_NABLA: {
		double s = shape == PLOT_TRIANGLE ? 1 : -1;

		r *= 1.2;
		cairo_move_to(cr, x, y - s * r);
		cairo_line_to(cr, x + r * 0.866, y + s * r * 0.5);
		cairo_line_to(cr, x - r * 0.866, y + s * r * 0.5);
		cairo_close_path(cr);
		break;
	}
	case PLOT_CROSS:
		cairo_set_line_width(cr, 2);
		cairo_move_to(cr, x - r, y - r);
		cairo_line_to(cr, x + r, y + r);
		cairo_move_to(cr, x + r, y - r);
		cairo_line_to(cr, x - r, y + r);
		break;
	}
	if (fill)
		cairo_fill(cr);
	else
		cairo_stroke(cr);
	cairo_restore(cr);
}

/* cairo sizes the document in points; the canvas is in pixels, which is
 * what a browser shows 1:1, so the units go from the <svg> tag. */
static void
px_units(char *svg)
{
	char *tag = strstr(svg, "<svg"), *close = tag ? strchr(tag, '>') : NULL;

	for (char *p = tag; p && p < close; p++)
		if (!strncmp(p, "pt\"", 3) && p > tag && p[-1] >= '0' && p[-1] <= '9') {
			memmove(p, p + 2, strlen(p + 2) + 1);
			close -= 2;
		}
}

static cairo_status_t
file_write(void *closure, const unsigned char *data, unsigned int length)
{
	return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS
							  : CAIRO_STATUS_WRITE_ERROR;
}

int
plot_canvas_write(struct plot_canvas *c, FILE *out)
{
	cairo_status_t st;
	const char *end;
	size_t head;

	if (c->format == PLOT_PNG) {
		cairo_surface_flush(c->surface);
		errno = 0;
		st = cairo_surface_write_to_png_stream(c->surface, file_write, out);
		if (st != CAIRO_STATUS_SUCCESS) {
			if (!errno)
				errno = st == CAIRO_STATUS_NO_MEMORY ? ENOMEM : EIO;
			return -1;
		}
		return fflush(out) ? -1 : 0;
	}
	/* SVG: cairo writes the document when the surface finishes; the
	 * labels go in before its closing tag */
	cairo_destroy(c->cr);
	c->cr = NULL;
	cairo_surface_finish(c->surface);
	st = cairo_surface_status(c->surface);
	if (c->oom || st == CAIRO_STATUS_NO_MEMORY) {
		errno = ENOMEM;
		return -1;
	}
	if (c->svg)
		px_units(c->svg);
	end = c->svg ? strstr(c->svg, "</svg>") : NULL;
	if (st != CAIRO_STATUS_SUCCESS || !end) {
		errno = EIO;
		return -1;
	}
	head = (size_t)(end - c->svg);
	errno = 0;
	if (fwrite(c->svg, 1, head, out) != head ||
	    fputs("<g id=\"labels\" font-family=\"" FONT "\">\n", out) < 0 ||
	    (c->labelslen && fwrite(c->labels, 1, c->labelslen, out) != c->labelslen) ||
	    fputs("</g>\n", out) < 0 ||
	    fputs(end, out) < 0 || fflush(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

void
plot_canvas_fini(struct plot_canvas *c)
{
	if (c->cr)
		cairo_destroy(c->cr);
	if (c->surface)
		cairo_surface_destroy(c->surface);
	free(c->svg);
	free(c->labels);
	memset(c, 0, sizeof(*c));
}
