/* test_rundir.c - the run directory's writer and readers (rundir.h)
 * without Valgrind: layers.csv cut short by a full disk keeps its whole
 * rows (RLIMIT_FSIZE stands in for the full disk), tool-layers.bin with a
 * damaged record, impossible values or a partial tail keeps the others,
 * and the files a new run removes are dmo's own only. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check_main.h"
#include "rundir.h"
#include "summary.h"

static char dir[] = "/tmp/dmo-test-rundir.XXXXXX";

static void setup(void)
{
	strcpy(dir, "/tmp/dmo-test-rundir.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static struct dmo_layer_table table_of(size_t n)
{
	struct dmo_layer_table t = { calloc(n, sizeof *t.rows), n };
	for (size_t i = 0; i < n; i++) {
		t.rows[i].layer = (unsigned)i + 1;
		snprintf(t.rows[i].name, sizeof t.rows[i].name, "layer_number_%zu", i + 1);
		t.rows[i].in_bytes = t.rows[i].out_bytes = 4096;
		t.rows[i].os_bytes = 4096;
		strcpy(t.rows[i].status, "ok");
		dmo_layer_set_safe(&t.rows[i], 0);
	}
	return t;
}

/* A disk that fills after 1000 bytes: the rows before the one that did
 * not fit are kept, whole, and the error names that row's layer. */
START_TEST(csv_write_keeps_whole_rows)
{
	struct dmo_layer_table t = table_of(40), back;
	struct rlimit limit, saved;
	char path[256], err[512], expect[128];
	unsigned failed_at;
	int rc;

	signal(SIGXFSZ, SIG_IGN);
	snprintf(path, sizeof path, "%s/layers.csv", dir);
	/* The soft limit only, given back after the write: gcov writes this
	 * process's counters at exit, and a 1000-byte limit would cut them. */
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &saved), 0);
	limit = (struct rlimit){ 1000, saved.rlim_max };
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &limit), 0);
	ck_assert_int_eq(dmo_layers_csv_write(path, &t, err, sizeof err), -1);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &saved), 0);
	ck_assert_msg(sscanf(strstr(err, "at layer "), "at layer %u", &failed_at) == 1, "%s", err);
	snprintf(expect, sizeof expect, "it holds the %u layers before it", failed_at - 1);
	ck_assert_msg(strstr(err, expect) != NULL, "%s", err);
	ck_assert_uint_gt(failed_at, 2);
	ck_assert_uint_lt(failed_at, 40);
	rc = dmo_layers_csv_read(path, &back, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_uint_eq(back.count, failed_at - 1);
	for (size_t i = 0; i < back.count; i++)
		ck_assert_str_eq(back.rows[i].name, t.rows[i].name);
	snprintf(path, sizeof path, "%s/layers.csv.tmp", dir);
	ck_assert_int_ne(access(path, F_OK), 0);
	dmo_layer_table_free(&back);
	dmo_layer_table_free(&t);
}
END_TEST

/* How put_record damages a record. */
enum damage { WHOLE, BAD_MAGIC, MORE_LISTED_THREADS, OS_PAST_BUFFERS };

static void put_record(FILE *f, unsigned layer, enum damage damage)
{
	struct dmo_layer_summary r;
	memset(&r, 0, sizeof r);
	r.magic = damage == BAD_MAGIC ? 0 : DMO_SUMMARY_MAGIC;
	r.version = DMO_SUMMARY_VERSION;
	r.layer = layer;
	r.status = DMO_STATUS_OK;
	r.in_bytes = r.out_bytes = 64;
	r.threads = 1;
	r.listed_threads = damage == MORE_LISTED_THREADS ? 2 : 1; /* 2 listed of 1 */
	r.os_bytes = damage == OS_PAST_BUFFERS ? 65 : 64;         /* min(IB, OB) = 64 */
	snprintf(r.name, sizeof r.name, "l%u", layer);
	ck_assert_uint_eq(fwrite(&r, sizeof r, 1, f), 1);
}

/* A damaged record (a bad magic), or one whose values contradict each
 * other (more threads listed than ran, an O_s above the smaller buffer), is
 * skipped and the first such named; the whole records around it are kept,
 * and so are they before a partial tail. */
START_TEST(summary_keeps_whole_records)
{
	static const struct {
		enum damage damage;
		int partial_tail;
		const char *message;
	} cases[] = {
		{ BAD_MAGIC, 1, "record 2 is malformed; skipped" },
		{ MORE_LISTED_THREADS, 0, "record 2 has bad thread counts; skipped" },
		{ OS_PAST_BUFFERS, 0, "record 2: os_bytes 65 is larger than min(in_bytes, out_bytes); skipped" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct dmo_layer_table t;
		char path[256], err[512] = "";
		FILE *f;

		snprintf(path, sizeof path, "%s/" DMO_SUMMARY_FILE, dir);
		f = fopen(path, "wb");
		put_record(f, 1, WHOLE);
		put_record(f, 2, cases[i].damage);
		put_record(f, 3, WHOLE);
		if (cases[i].partial_tail)
			fwrite("partial", 1, 7, f);
		fclose(f);
		ck_assert_int_eq(dmo_summary_read(dir, &t, err, sizeof err), 1);
		ck_assert_uint_eq(t.count, 2);
		ck_assert_uint_eq(t.rows[0].layer, 1);
		ck_assert_uint_eq(t.rows[1].layer, 3);
		ck_assert_msg(strstr(err, cases[i].message) != NULL, "%s", err);
		dmo_layer_table_free(&t);
	}
}
END_TEST

START_TEST(owned_files)
{
	static const char *const ours[] = {
		"tool-layers.bin", "layers.csv", "layers.csv.tmp", "analysis.csv",
		"layer-0001.events", "layer-0012.csv", "layer-12345-curves.csv",
		"layer-0003-pattern.png", "layer-0003-bounds.svg",
	};
	static const char *const theirs[] = {
		"notes.txt", "layer-1.events", "layer-0001-my notes.png", "layer-0001.txt",
		"layers.csv.bak", ".dmo-lock", "layer-0001-Pattern.png", "analysis.csv~",
		"layer-abcd.events", "layer-0001-.png",
	};
	for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
		ck_assert_msg(dmo_rundir_owns(ours[i]), "%s", ours[i]);
	for (size_t i = 0; i < sizeof theirs / sizeof theirs[0]; i++)
		ck_assert_msg(!dmo_rundir_owns(theirs[i]), "%s", theirs[i]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rundir");
	TCase *tc = tcase_create("rundir");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, csv_write_keeps_whole_rows);
	tcase_add_test(tc, summary_keeps_whole_records);
	tcase_add_test(tc, owned_files);
	suite_add_tcase(s, tc);
	return dmo_run_suite(s);
}
