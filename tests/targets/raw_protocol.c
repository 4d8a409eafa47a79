/* raw_protocol.c - test target that speaks the wire protocol of
 * docs/protocol.md byte by byte, without libdmo-harness or its headers,
 * as a program in another language would.  argv[1] picks a variant:
 *   good       two layers (in-order and reversed copy)
 *   garbage    garbage bytes on the FIFO, then a good layer
 *   truncated  a good layer, then half a LAYER record, then exit */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 512

/* Marker region: begin word, end word, status word. */
static volatile uint64_t markers[3] __attribute__((aligned(64)));
static int fifo = -1;
static unsigned char in[N], out[N];

static void put(unsigned char *p, uint64_t value, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(value >> (8 * i));
}

static void record_header(unsigned char *p, unsigned type, unsigned length)
{
	memcpy(p, "DMOR", 4);
	put(p + 4, 1, 2);      /* version */
	put(p + 6, type, 2);
	put(p + 8, length, 4);
	put(p + 12, 0, 4);
}

static void send(const unsigned char *p, size_t n)
{
	if (write(fifo, p, n) != (ssize_t)n)
		exit(5);
}

static size_t layer_record(unsigned char *p, unsigned seq, const char *name)
{
	size_t name_len = strlen(name), length = 56 + name_len;
	record_header(p, 2, (unsigned)length);
	put(p + 16, seq, 4);
	put(p + 20, name_len, 2);
	put(p + 22, 0, 2);
	put(p + 24, (uintptr_t)in, 8);
	put(p + 32, N, 8);
	put(p + 40, (uintptr_t)out, 8);
	put(p + 48, N, 8);
	memcpy(p + 56, name, name_len);
	return length;
}

static void layer(unsigned seq, const char *name, int reversed)
{
	unsigned char rec[128];
	send(rec, layer_record(rec, seq, name));
	markers[0] = seq;
	for (int k = 0; k < N; k++) {
		int i = reversed ? N - 1 - k : k;
		out[i] = in[i];
	}
	markers[1] = seq;
}

int main(int argc, char **argv)
{
	unsigned char hello[32], rec[128];
	const char *path = getenv("DMO_FIFO");
	if (argc != 2 || path == NULL || (fifo = open(path, O_WRONLY)) < 0)
		return 2;
	record_header(hello, 1, 32);
	put(hello + 16, (uintptr_t)markers, 8);
	put(hello + 24, (uint64_t)getpid(), 4);
	put(hello + 28, 0, 4);
	send(hello, sizeof hello);

	if (strcmp(argv[1], "good") == 0) {
		layer(1, "copy_forward", 0);
		layer(2, "copy_backward", 1);
	} else if (strcmp(argv[1], "garbage") == 0) {
		send((const unsigned char *)"this is not a record at all", 27);
		layer(1, "after_garbage", 0);
	} else if (strcmp(argv[1], "truncated") == 0) {
		layer(1, "before_truncation", 0);
		send(rec, layer_record(rec, 2, "cut") / 2);
	} else if (strcmp(argv[1], "duplicate") == 0) {
		layer(1, "first", 0);
		layer(1, "again", 1); /* refused: its event file would replace the first's */
		layer(2, "next", 0);
	} else if (strcmp(argv[1], "two-in-one-write") == 0) {
		unsigned char both[256];
		size_t n = layer_record(both, 1, "one");
		n += layer_record(both + n, 2, "two");
		send(both, n);
		for (unsigned seq = 1; seq <= 2; seq++) {
			markers[0] = seq;
			for (int k = 0; k < N; k++)
				out[k] = in[k];
			markers[1] = seq;
		}
	} else if (strcmp(argv[1], "end-without-begin") == 0) {
		layer(1, "before", 0);
		markers[1] = 2;
		layer(2, "after", 0);
	} else {
		return 2;
	}
	return 0;
}
