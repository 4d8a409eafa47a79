/* png_ink.c - test helper for tests/plot_render.sh and plot_outputs.sh: decode an 8-bit,
 * non-interlaced PNG (what gnuplot's pngcairo writes) with zlib alone and
 * print "WIDTH HEIGHT INK EDGE [COUNT...]".  INK is the per-mille share of
 * pixels inside the plot frame (the outermost black lines running across
 * a quarter of the image's width or an eighth of its height: no title,
 * key, tick labels or margin tags; for panels side by side or stacked,
 * the span of all) that
 * are data: coloured, with some channel below 160 and channels at least 40
 * apart, which white, the light overlap band, the grid, text and the frame
 * never are.  EDGE counts the pixels of the image's two outermost rows and
 * columns that are not white: anything there is something cut off (a title
 * or tick label wider than its room).  For every RRGGBB argument, COUNT is
 * the number of data pixels within 15 degrees of that colour's hue:
 * half-transparent marks over white or the band keep their hue, so a
 * series hidden under another one counts (almost) nothing. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Hue in degrees, 0 to 360. */
static double hue_of(int r, int g, int b)
{
	int max = r > g ? (r > b ? r : b) : (g > b ? g : b);
	int min = r < g ? (r < b ? r : b) : (g < b ? g : b);
	double d = max - min, h;

	if (d == 0)
		return 0;
	if (max == r)
		h = 60.0 * ((g - b) / d);
	else if (max == g)
		h = 60.0 * (2 + (b - r) / d);
	else
		h = 60.0 * (4 + (r - g) / d);
	return h < 0 ? h + 360 : h;
}

static int is_ink(const unsigned char *p)
{
	int max = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
	int min = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);

	return min < 160 && max - min >= 40;
}

static int is_black(const unsigned char *p)
{
	return p[0] < 60 && p[1] < 60 && p[2] < 60;
}

struct image {
	const unsigned char *raw; /* unfiltered rows, each after its filter byte */
	size_t stride;
	int channels;
	uint32_t w, h;
};

static const unsigned char *pixel(const struct image *im, uint32_t x, uint32_t y)
{
	return im->raw + (size_t)y * (im->stride + 1) + 1 + (size_t)x * im->channels;
}

/* The longest run of black pixels along row AT (ROW) or column AT. */
static uint32_t black_run(const struct image *im, uint32_t at, int row)
{
	uint32_t run = 0, best = 0, n = row ? im->w : im->h;

	for (uint32_t i = 0; i < n; i++) {
		run = is_black(row ? pixel(im, i, at) : pixel(im, at, i)) ? run + 1 : 0;
		best = run > best ? run : best;
	}
	return best;
}

static int fail(const char *path, const char *why)
{
	fprintf(stderr, "png_ink: %s: %s\n", path, why);
	return 1;
}

int main(int argc, char **argv)
{
	static const unsigned char sig[8] = { 137, 'P', 'N', 'G', '\r', '\n', 26, '\n' };
	unsigned char head[8], *idat = NULL, *raw;
	size_t idat_len = 0;
	uint32_t w = 0, h = 0;
	int channels = 0;
	FILE *f;

	enum { MAX_HUES = 8 };
	double hues[MAX_HUES];
	int n_hues = argc - 2;

	if (argc < 2 || n_hues > MAX_HUES) {
		fprintf(stderr, "usage: png_ink FILE.png [RRGGBB...]\n");
		return 2;
	}
	for (int i = 0; i < n_hues; i++) {
		unsigned r, g, b;
		if (sscanf(argv[i + 2], "%2x%2x%2x", &r, &g, &b) != 3) {
			fprintf(stderr, "png_ink: %s is not RRGGBB\n", argv[i + 2]);
			return 2;
		}
		hues[i] = hue_of((int)r, (int)g, (int)b);
	}
	f = fopen(argv[1], "rb");
	if (f == NULL || fread(head, 1, 8, f) != 8 || memcmp(head, sig, 8) != 0)
		return fail(argv[1], "not a PNG");
	for (;;) {
		unsigned char len_type[8];
		if (fread(len_type, 1, 8, f) != 8)
			return fail(argv[1], "truncated");
		uint32_t len = be32(len_type);
		unsigned char *data = malloc(len + 4u);
		if (data == NULL || fread(data, 1, len + 4u, f) != len + 4u) /* + CRC */
			return fail(argv[1], "truncated chunk");
		if (memcmp(len_type + 4, "IHDR", 4) == 0) {
			w = be32(data);
			h = be32(data + 4);
			/* bit depth 8; colour type 2 (RGB) or 6 (RGBA); no interlace */
			if (data[8] != 8 || (data[9] != 2 && data[9] != 6) || data[12] != 0)
				return fail(argv[1], "not 8-bit RGB(A), non-interlaced");
			channels = data[9] == 2 ? 3 : 4;
		} else if (memcmp(len_type + 4, "IDAT", 4) == 0) {
			idat = realloc(idat, idat_len + len);
			if (idat == NULL)
				return fail(argv[1], "out of memory");
			memcpy(idat + idat_len, data, len);
			idat_len += len;
		}
		free(data);
		if (memcmp(len_type + 4, "IEND", 4) == 0)
			break;
	}
	fclose(f);
	if (channels == 0 || idat == NULL)
		return fail(argv[1], "no IHDR or IDAT");

	size_t stride = (size_t)w * channels;
	uLongf raw_len = (uLongf)(stride + 1) * h;
	raw = malloc(raw_len);
	if (raw == NULL || uncompress(raw, &raw_len, idat, idat_len) != Z_OK ||
	    raw_len != (uLongf)(stride + 1) * h)
		return fail(argv[1], "bad image data");

	/* Undo the per-row filters in place (PNG spec, section 9). */
	for (uint32_t y = 0; y < h; y++) {
		unsigned char *row = raw + y * (stride + 1), *cur = row + 1;
		const unsigned char *prev = y ? raw + (y - 1) * (stride + 1) + 1 : NULL;
		for (size_t x = 0; x < stride; x++) {
			int a = x >= (size_t)channels ? cur[x - channels] : 0;
			int b = prev ? prev[x] : 0;
			int c = prev && x >= (size_t)channels ? prev[x - channels] : 0;
			switch (row[0]) {
			case 0: break;
			case 1: cur[x] += a; break;
			case 2: cur[x] += b; break;
			case 3: cur[x] += (a + b) / 2; break;
			case 4: cur[x] += paeth(a, b, c); break;
			default: return fail(argv[1], "bad row filter");
			}
		}
	}

	/* The frame: black runs a quarter of the width or an eighth of the
	 * height (a panel of three stacked). */
	struct image im = { raw, stride, channels, w, h };
	uint32_t top = h, bottom = 0, left = w, right = 0;
	for (uint32_t y = 0; y < h; y++)
		if (black_run(&im, y, 1) >= w / 4) {
			top = y < top ? y : top;
			bottom = y;
		}
	for (uint32_t x = 0; x < w; x++)
		if (black_run(&im, x, 0) >= h / 8) {
			left = x < left ? x : left;
			right = x;
		}
	if (bottom < top + 4 || right < left + 4)
		return fail(argv[1], "no plot frame");
	uint64_t inked = 0, total = 0, near[MAX_HUES] = { 0 };
	for (uint32_t y = top + 2; y < bottom - 1; y++)
		for (uint32_t x = left + 2; x < right - 1; x++) {
			const unsigned char *p = pixel(&im, x, y);
			total++;
			if (!is_ink(p))
				continue;
			inked++;
			double hue = hue_of(p[0], p[1], p[2]);
			for (int i = 0; i < n_hues; i++) {
				double d = hue > hues[i] ? hue - hues[i] : hues[i] - hue;
				near[i] += (d < 360 - d ? d : 360 - d) <= 15;
			}
		}
	uint64_t edge = 0;
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			const unsigned char *p = pixel(&im, x, y);
			int outer = x < 2 || x + 2 >= w || y < 2 || y + 2 >= h;
			edge += outer && (p[0] < 200 || p[1] < 200 || p[2] < 200);
		}
	printf("%u %u %u %" PRIu64, w, h, (unsigned)(total ? inked * 1000 / total : 0), edge);
	for (int i = 0; i < n_hues; i++)
		printf(" %" PRIu64, near[i]);
	printf("\n");
	free(raw);
	free(idat);
	return 0;
}
