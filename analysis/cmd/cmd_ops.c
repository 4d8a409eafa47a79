/* cmd_ops.c - `dmo ops [--csv|--json] [OP...]`: the op-spec grammar, every
 * op with the keys it takes and every key with its format and default,
 * printed from the parser's own tables (opspec.h), so what it says is what
 * the parser accepts.  docs/opspec.md says the same in prose, and
 * tests/opspec_docs.sh holds the two together. */
#include <csv.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "json.h"
#include "nearest.h"
#include "opspec.h"

static const struct cmd_spec command = {
	.name = "ops",
	.synopsis = "[--csv|--json] [OP...]",
	.description =
	"Print the op-spec grammar, OP:key=value,key=value,... (e.g.\n"
	"dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same): every op dmo knows, the\n"
	"keys each takes (required ones marked), and every key's value format,\n"
	"default and meaning; with OPs, only those ops and their keys.  Shapes are\n"
	"NHWC; the output's shape follows TensorFlow's rules.\n",
	.notes = "--csv prints a row per op and key it takes:\n"
		 "op,key,required,format,default (docs/opspec.md).\n",
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON,
};

/* FIELD as a CSV field, then SEP. */
static void field(FILE *out, const char *text, char sep)
{
	csv_fwrite(out, text, strlen(text));
	fputc(sep, out);
}

static void print_csv(FILE *out, const int *ops, int n_ops)
{
	const struct dmo_opspec_key *k;

	fprintf(out, "op,key,required,format,default\n");
	for (int i = 0; i < n_ops; i++) {
		unsigned required, allowed = dmo_opspec_op_keys(ops[i], &required);

		for (int key = 0; (k = dmo_opspec_key(key)) != NULL; key++) {
			if (!(allowed & (1u << key)))
				continue;
			field(out, dmo_op_name(ops[i]), ',');
			field(out, k->name, ',');
			field(out, required & (1u << key) ? "yes" : "no", ',');
			field(out, dmo_opspec_value_format(ops[i], key), ',');
			field(out, required & (1u << key) ? "required" : k->default_text, '\n');
		}
	}
}

static void print_text(FILE *out, const int *ops, int n_ops)
{
	const struct dmo_opspec_key *k;
	unsigned used = 0;

	fprintf(out, "Op specs: OP:key=value,key=value,...  (keys in any order, each once)\n\n"
		"Ops (keys marked * are required):\n");
	for (int i = 0; i < n_ops; i++) {
		unsigned required, allowed = dmo_opspec_op_keys(ops[i], &required);

		fprintf(out, "  %-11s %s\n  %-11s keys:", dmo_op_name(ops[i]),
			dmo_op_meaning(ops[i]), "");
		for (int key = 0; (k = dmo_opspec_key(key)) != NULL; key++)
			if (allowed & (1u << key))
				fprintf(out, " %s%s", k->name, required & (1u << key) ? "*" : "");
		fputc('\n', out);
		used |= allowed;
	}
	fprintf(out, "\nKeys:\n");
	for (int key = 0; (k = dmo_opspec_key(key)) != NULL; key++) {
		if (!(used & (1u << key)))
			continue;
		fprintf(out, "  %-10s %s\n  %-10s format: %s\n", k->name, k->meaning, "", k->format);
		/* A format of one op's own (fc's in). */
		for (int i = 0; i < n_ops; i++)
			if (strcmp(dmo_opspec_value_format(ops[i], key), k->format) != 0 &&
			    (dmo_opspec_op_keys(ops[i], NULL) & (1u << key)))
				fprintf(out, "  %-10s %s: %s\n", "", dmo_op_name(ops[i]),
					dmo_opspec_value_format(ops[i], key));
		fprintf(out, "  %-10s default: %s\n", "", k->default_text);
	}
	fprintf(out, "\nExample: conv2d:in=32x32x3,k=3x3,out_c=8 is a 3x3 convolution with\n"
		"stride 1, no padding (pad=valid) and f32 elements: output 30x30x8.\n");
}

int cmd_ops(int argc, char **argv)
{
	struct cmd_output output = { CMD_TEXT, 0 };
	const char *names[DMO_OP_COUNT];
	int ops[DMO_OP_COUNT], n_ops = 0, c;
	char err[256];

	while ((c = cmd_getopt(&command, argc, argv)) != -1)
		cmd_output_option(&command, c, &output);
	for (int op = 0; op < DMO_OP_COUNT; op++)
		names[op] = dmo_op_name(op);
	for (int i = optind; i < argc; i++) {
		int op = 0;

		while (op < DMO_OP_COUNT && strcmp(argv[i], names[op]) != 0)
			op++;
		if (op == DMO_OP_COUNT) {
			const char *near = dmo_nearest(argv[i], strlen(argv[i]), names, DMO_OP_COUNT);

			if (near)
				return cmd_misuse(&command, "unknown op '%s'; did you mean '%s'?",
						  argv[i], near);
			return cmd_misuse(&command, "unknown op '%s' ('dmo ops' lists them)", argv[i]);
		}
		if (n_ops < DMO_OP_COUNT)
			ops[n_ops++] = op;
	}
	if (optind == argc)
		for (int op = 0; op < DMO_OP_COUNT; op++)
			ops[n_ops++] = op;
	if (output.format == CMD_TEXT) {
		print_text(stdout, ops, n_ops);
		return 0;
	}
	struct cmd_table table;
	if (cmd_table_open(&table, output.format, "ops") == NULL)
		return 2;
	print_csv(table.stream, ops, n_ops);
	if (cmd_table_close(&table, err, sizeof err) != 0) {
		fprintf(stderr, "dmo ops: %s\n", err);
		return 2;
	}
	return 0;
}
