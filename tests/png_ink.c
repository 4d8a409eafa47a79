/* png_ink.c - test helper for tests/plot_render.sh: decode an 8-bit,
 * non-interlaced PNG (what gnuplot's pngcairo writes) with zlib alone and
 * print "WIDTH HEIGHT INK": INK is the per-mille share of pixels inside the
 * plot area of a dmo figure (columns 8-95 %, rows 10-88 %: no title, axis
 * labels or legend) dark or saturated enough to be data: some channel below 160,
 * which white, the light overlap band and the grid never are. */
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

	if (argc != 2) {
		fprintf(stderr, "usage: png_ink FILE.png\n");
		return 2;
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

	uint64_t inked = 0, total = 0;
	for (uint32_t y = h / 10; y < h * 88 / 100; y++)
		for (uint32_t x = w * 8 / 100; x < w * 95 / 100; x++) {
			const unsigned char *p = raw + y * (stride + 1) + 1 + (size_t)x * channels;
			inked += p[0] < 160 || p[1] < 160 || p[2] < 160;
			total++;
		}
	printf("%u %u %u\n", w, h, (unsigned)(total ? inked * 1000 / total : 0));
	free(raw);
	free(idat);
	return 0;
}
