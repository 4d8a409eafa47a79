/* report_html.c - the parts every `dmo report` page is made of: escaping,
 * the page frame with its Content-Security-Policy, sortable tables, the
 * hover box and SVG line charts (report_html.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_html.h"

void dmo_html_text(FILE *out, const char *text)
{
	for (const char *c = text; *c; c++)
		switch (*c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*c, out);
		}
}

/* Nothing is loaded from anywhere: CSS and script inline only. */
static const char *const page_style =
	"body{font:14px/1.4 sans-serif;margin:1.5em;color:#222;max-width:1200px}\n"
	"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}\n"
	"th{background:#eee}td.t,th.t{text-align:left}\n"
	"table.sortable th{cursor:pointer}\n"
	"th[data-sort=asc]::after{content:' \\25b2'}th[data-sort=desc]::after{content:' \\25bc'}\n"
	".summary th{text-align:left}\n"
	".scroll{overflow-x:auto;border:1px solid #ddd}\n"
	"svg text{font:11px sans-serif}svg .title{font-size:13px;font-weight:bold}\n"
	"svg .tensor:hover{stroke:#000;stroke-width:2}\n"
	"#tip{position:absolute;display:none;background:#ffd;border:1px solid #888;"
	"padding:3px 6px;font-size:12px;pointer-events:none;white-space:pre}\n"
	".made{color:#666;font-size:12px}\n";

/* Sorting by a header click (numbers by data-v), the hover box of every
 * element with data-tip, and a mark that the script ran to its end. */
static const char *const page_script =
	"(function(){\n"
	"function v(td){var x=td.getAttribute('data-v');return x!==null?x:td.textContent;}\n"
	"document.querySelectorAll('table.sortable').forEach(function(t){\n"
	" var hs=t.tHead.rows[0].cells;\n"
	" Array.prototype.forEach.call(hs,function(h,i){h.addEventListener('click',function(){\n"
	"  var num=h.getAttribute('data-num')==='1',up=h.getAttribute('data-sort')!=='asc';\n"
	"  Array.prototype.forEach.call(hs,function(o){o.removeAttribute('data-sort');});\n"
	"  h.setAttribute('data-sort',up?'asc':'desc');\n"
	"  var b=t.tBodies[0],rs=Array.prototype.slice.call(b.rows);\n"
	"  rs.sort(function(p,q){var x=v(p.cells[i]),y=v(q.cells[i]);\n"
	"   var r=num?(parseFloat(x)||0)-(parseFloat(y)||0):x.localeCompare(y);return up?r:-r;});\n"
	"  rs.forEach(function(r){b.appendChild(r);});});});});\n"
	"var tip=document.getElementById('tip');\n"
	"document.querySelectorAll('[data-tip]').forEach(function(e){\n"
	" e.addEventListener('mousemove',function(ev){tip.textContent=e.getAttribute('data-tip');\n"
	"  tip.style.left=(ev.pageX+14)+'px';tip.style.top=(ev.pageY+14)+'px';tip.style.display='block';});\n"
	" e.addEventListener('mouseleave',function(){tip.style.display='none';});});\n"
	"document.body.setAttribute('data-ready','1');\n"
	"})();\n";

void dmo_html_begin(FILE *out, const char *title, const struct dmo_kernels *k)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
	      "<meta name=\"generator\" content=\"dmo " PACKAGE_VERSION "\">\n<title>", out);
	dmo_html_text(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", page_style);
	dmo_html_text(out, title);
	fputs("</h1>\n<p class=\"made\" id=\"made\">made by <span data-key=\"dmo_version\">dmo "
	      PACKAGE_VERSION "</span>", out);
	if (k != NULL) {
		fputs("; kernels <span data-key=\"kernels_label\">", out);
		dmo_html_text(out, k->name);
		fputs(": ", out);
		dmo_html_text(out, dmo_kernels_describe(k));
		if (k->version[0]) {
			fputs(", ", out);
			dmo_html_text(out, k->version);
		}
		if (k->isa[0]) {
			fputs(", ", out);
			dmo_html_text(out, k->isa);
		}
		fputs("</span>", out);
	}
	fputs("</p>\n<div id=\"tip\"></div>\n", out);
}

void dmo_html_end(FILE *out)
{
	fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", page_script);
}

void dmo_html_summary_row(FILE *out, const char *label, const char *key, const char *value)
{
	fputs("<tr><th>", out);
	dmo_html_text(out, label);
	fputs("</th><td class=\"t\" data-key=\"", out);
	dmo_html_text(out, key);
	fputs("\">", out);
	dmo_html_text(out, value);
	fputs("</td></tr>\n", out);
}

void dmo_html_table_begin(FILE *out, const char *id, const char *const *headers,
			  const int *numeric, size_t n)
{
	fprintf(out, "<div class=\"scroll\"><table class=\"sortable\" id=\"%s\">\n<thead><tr>", id);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<th%s data-num=\"%d\">", numeric[i] ? "" : " class=\"t\"", numeric[i]);
		dmo_html_text(out, headers[i]);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
}

void dmo_html_table_end(FILE *out)
{
	fputs("</tbody></table></div>\n", out);
}

void dmo_html_cell(FILE *out, const char *column, const char *value)
{
	fprintf(out, "<td class=\"t\" data-col=\"%s\">", column);
	dmo_html_text(out, value);
	fputs("</td>", out);
}

void dmo_html_cell_u64(FILE *out, const char *column, uint64_t value)
{
	fprintf(out, "<td data-col=\"%s\" data-v=\"%llu\">%llu</td>", column,
		(unsigned long long)value, (unsigned long long)value);
}

void dmo_si(double value, char *buf, size_t len)
{
	static const char *const prefix[] = { "", "k", "M", "G", "T" };
	double a = fabs(value);
	int p = 0;

	while (a >= 1000 && p < 4) {
		a /= 1000;
		value /= 1000;
		p++;
	}
	snprintf(buf, len, "%.*f%s%s", a == floor(a) || a >= 100 ? 0 : a >= 10 ? 1 : 2, value,
		 p ? " " : "", prefix[p]);
}

/* The plot area inside the chart's canvas, pixels. */
enum { CHART_W = 760, CHART_H = 300, LEFT = 70, RIGHT = 20, TOP = 28, BOTTOM = 44 };

double dmo_svg_tick_step(double span)
{
	double raw = span / 6, p = pow(10, floor(log10(raw))), r = raw / p;

	return p * (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10);
}

struct chart_frame {
	double x0, x1, y0, y1;
};

static double px(const struct chart_frame *f, double x)
{
	return LEFT + (x - f->x0) / (f->x1 - f->x0) * (CHART_W - LEFT - RIGHT);
}

static double py(const struct chart_frame *f, double y)
{
	return CHART_H - BOTTOM - (y - f->y0) / (f->y1 - f->y0) * (CHART_H - TOP - BOTTOM);
}

static void axes(FILE *out, const struct dmo_svg_chart *c, const struct chart_frame *f)
{
	char label[32];
	double step;

	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" "
		"stroke=\"#888\"/>\n", LEFT, TOP, CHART_W - LEFT - RIGHT, CHART_H - TOP - BOTTOM);
	step = dmo_svg_tick_step(f->y1 - f->y0);
	for (double y = ceil(f->y0 / step) * step; y <= f->y1 + step * 1e-9; y += step) {
		dmo_si(fabs(y) < step * 1e-9 ? 0 : y, label, sizeof label);
		fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", LEFT,
			CHART_W - RIGHT, py(f, y), py(f, y), LEFT - 4, py(f, y) + 4, label);
	}
	step = dmo_svg_tick_step(f->x1 - f->x0);
	if (step < 1 && f->x1 - f->x0 >= 1)
		step = 1;
	for (double x = ceil(f->x0 / step) * step; x <= f->x1 + step * 1e-9; x += step) {
		dmo_si(fabs(x) < step * 1e-9 ? 0 : x, label, sizeof label);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", px(f, x),
			CHART_H - BOTTOM + 14, label);
	}
	fprintf(out, "<text class=\"title\" x=\"%d\" y=\"18\">", LEFT);
	dmo_html_text(out, c->title);
	fprintf(out, "</text>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (CHART_W + LEFT) / 2,
		CHART_H - 8);
	dmo_html_text(out, c->xlabel);
	fprintf(out, "</text>\n<text transform=\"translate(14 %d) rotate(-90)\" "
		"text-anchor=\"middle\">", (CHART_H - BOTTOM + TOP) / 2);
	dmo_html_text(out, c->ylabel);
	fputs("</text>\n", out);
}

static void series(FILE *out, const struct chart_frame *f, const struct dmo_svg_series *s)
{
	if (s->n == 0)
		return;
	if (s->style == DMO_SVG_POINTS) {
		for (size_t i = 0; i < s->n; i++) {
			int alarm = s->alarm != NULL && s->alarm[i];
			fprintf(out, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" "
				"fill=\"%s\"/>\n", alarm ? "point alarm" : "point", px(f, s->x[i]),
				py(f, s->y[i]), alarm ? 4 : 2, alarm ? "#d00" : s->color);
		}
		return;
	}
	fprintf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s d=\"", s->color,
		s->dashed ? " stroke-dasharray=\"6 4\"" : "");
	if (s->style == DMO_SVG_RANGES) {
		for (size_t i = 0; i < s->n; i++)
			fprintf(out, "M%.1f %.1fV%.1f", px(f, s->x[i]), py(f, s->y[i]),
				fmin(py(f, s->y[i]) - 1, py(f, s->y2[i])));
		fputs("\"/>\n", out);
		return;
	}
	for (size_t i = 0; i < s->n; i++) {
		fprintf(out, "%c%.1f %.1f", i ? 'L' : 'M', px(f, s->x[i]), py(f, s->y[i]));
		if (s->style == DMO_SVG_STEPS)
			fprintf(out, "H%.1f", px(f, s->x[i] + 1));
	}
	fputs("\"/>\n", out);
}

void dmo_svg_chart(FILE *out, const struct dmo_svg_chart *c, const struct dmo_svg_series *s,
		   size_t n)
{
	struct chart_frame f = { c->xmin, c->xmax, c->ymin, c->ymax };

	if (!(f.x1 > f.x0))
		f.x1 = f.x0 + 1;
	if (!(f.y1 > f.y0))
		f.y1 = f.y0 + 1;
	fprintf(out, "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\">\n", c->id, CHART_W, CHART_H + 18 * (int)n,
		CHART_W, CHART_H + 18 * (int)n);
	axes(out, c, &f);
	for (size_t i = 0; i < n; i++)
		series(out, &f, &s[i]);
	if (!isnan(c->mark_x)) {
		fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#d00\" "
			"stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" fill=\"#d00\">",
			px(&f, c->mark_x), px(&f, c->mark_x), TOP, CHART_H - BOTTOM,
			px(&f, c->mark_x) + 3, CHART_H - BOTTOM - 6);
		dmo_html_text(out, c->mark_label ? c->mark_label : "");
		fputs("</text>\n", out);
	}
	/* The legend under the axes, one line per series. */
	for (size_t i = 0; i < n; i++) {
		int y = CHART_H + 18 * (int)i;
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\">", LEFT, y - 2, s[i].color, LEFT + 20, y + 4);
		dmo_html_text(out, s[i].name);
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
}
