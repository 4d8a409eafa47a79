/* csv_tsv.c - test helper: any CSV file (libcsv, strict) printed with tabs
 * between fields and the quotes gone, so shell tests can split rows whose
 * fields hold commas (op specs).  A field with a tab or newline is an
 * error.  usage: csv_tsv FILE */
#include <csv.h>
#include <stdio.h>
#include <string.h>

struct state {
	int field, bad;
};

static void on_field(void *text, size_t len, void *data)
{
	struct state *s = data;

	if (memchr(text, '\t', len) != NULL || memchr(text, '\n', len) != NULL)
		s->bad = 1;
	printf("%s%.*s", s->field++ ? "\t" : "", (int)len, (const char *)text);
}

static void on_row(int terminator, void *data)
{
	struct state *s = data;

	(void)terminator;
	putchar('\n');
	s->field = 0;
}

int main(int argc, char **argv)
{
	struct csv_parser parser;
	struct state s = { 0, 0 };
	char buf[8192];
	size_t n;
	FILE *in;

	if (argc != 2 || (in = fopen(argv[1], "rb")) == NULL) {
		fprintf(stderr, "usage: csv_tsv FILE (a readable CSV file)\n");
		return 2;
	}
	csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI);
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		if (csv_parse(&parser, buf, n, on_field, on_row, &s) != n)
			s.bad = 1;
	if (csv_fini(&parser, on_field, on_row, &s) != 0)
		s.bad = 1;
	csv_free(&parser);
	fclose(in);
	if (s.bad)
		fprintf(stderr, "csv_tsv: %s: malformed CSV or a field with a tab\n", argv[1]);
	return s.bad ? 1 : 0;
}
