/* cmd_demo.c - `dmo demo`: the README's showcase, in two parts.  First three
 * reference kernels under the real tool (the golden MobileNet v2 layer, a
 * ReLU and a fully connected layer), the three methods cross-checked and
 * the golden layer drawn.  Then a real model end to end: person_detect from
 * its .tflite file, every layer profiled with its real weights, the arena
 * planned with the measured O_s and drawn, and the model run in that arena,
 * its output compared bit for bit with the plain arena's.  Last, when dmo
 * was built with TensorFlow Lite Micro (--with-tflm), the plan for each of
 * its kernel builds, written into the model and proven inside TFLM, and
 * the reference plan refused for CMSIS-NN as gcc builds it.  Each step is the
 * dmo command it shows, run as a child process of this same dmo binary, so
 * the demo is exactly what a user can type. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "fs.h"
#include "kernels.h"
#include "locate.h"

static const struct cmd_option options[] = {
	{ "out", required_argument, 'o', "DIR", "where the files go (default: dmo-demo)" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "demo",
	.synopsis = "[--out DIR]",
	.description =
	"Profile the second depthwise convolution of MobileNet v2 (the golden\n"
	"layer of docs/definitions.md), a ReLU and a fully connected layer under\n"
	"valgrind --tool=dmo, print the per-layer table, compare the exact,\n"
	"algorithmic and analytic O_s,\n"
	"and draw the golden layer's access pattern and minR/maxW bounds.  Then take\n"
	"a real model, person_detect (TensorFlow Lite Micro's example), from its\n"
	".tflite file: profile every layer with its real weights, plan its arena\n"
	"with the measured O_s, draw the plan, and run the model in the overlapped\n"
	"arena, its output bit for bit the plain arena's.  Every step is printed as\n"
	"the dmo command that does it.  Built with TensorFlow Lite Micro\n"
	"(docs/deploy.md), it then plans the model for each of TFLM's kernel\n"
	"builds, writes each plan into the model and proves it inside TFLM, and\n"
	"shows the reference plan refused for CMSIS-NN as gcc builds it.  Files go\n"
	"to DIR (default: dmo-demo).\n",
	.tables = { options },
	.finding = "a step failed (its own status: a failed verdict, an output that\n"
		   "differs)",
};

static const char *const demo_specs[] = {
	"dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same",
	"relu:in=56x56x96",
	"fc:in=1x1024,units=1000",
};

/* The real model, found by name (locate.h) in the build tree or installed. */
static const char demo_model[] = "tflm_person_detect";

/* Run `dmo ARGV...` (ARGV[0] is the subcommand) as a child of this binary,
 * after echoing it.  Returns its exit status (128+signal if killed), or 2
 * when it could not be started. */
static int dmo(char *const argv[])
{
	char *child[32];
	size_t n = 0;
	pid_t pid;
	int status;

	child[n++] = "dmo";
	printf("$ dmo");
	for (; argv[n - 1] != NULL && n < sizeof child / sizeof child[0] - 1; n++) {
		child[n] = argv[n - 1];
		printf(" %s", child[n]);
	}
	child[n] = NULL;
	printf("\n");
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "dmo demo: fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		execv("/proc/self/exe", child);
		fprintf(stderr, "dmo demo: cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "dmo demo: waitpid: %s\n", strerror(errno));
			return 2;
		}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int kernels(const char *dir)
{
	char run_dir[PATH_MAX];
	int rc;

	snprintf(run_dir, sizeof run_dir, "%s/kernels", dir);
	printf("== 1. three reference kernels under valgrind --tool=dmo\n");
	char *run[] = { "run", "--out", run_dir, "--trace=full", (char *)demo_specs[0],
			(char *)demo_specs[1], (char *)demo_specs[2], NULL };
	if ((rc = dmo(run)) != 0)
		return rc;
	printf("\n== 2. exact (tool), trace (recomputed), algorithmic and analytic O_s\n");
	char *analyze[] = { "analyze", run_dir, NULL };
	if ((rc = dmo(analyze)) != 0)
		return rc;
	printf("\n== 3. figures of the golden layer (layer 1)\n");
	char *pattern[] = { "plot", "--kind=pattern", "--layer=1", run_dir, NULL };
	char *bounds[] = { "plot", "--kind=bounds", "--layer=1", run_dir, NULL };
	if ((rc = dmo(pattern)) != 0)
		return rc;
	return dmo(bounds);
}

static int real_model(const char *dir)
{
	char run_dir[PATH_MAX], os[PATH_MAX + 16], figure[PATH_MAX], plain_out[PATH_MAX],
	     overlap_out[PATH_MAX], why[PATH_MAX + 64];
	long at;
	int rc, differ[2];

	snprintf(run_dir, sizeof run_dir, "%s/%s", dir, demo_model);
	snprintf(os, sizeof os, "measured:%s", run_dir);
	snprintf(figure, sizeof figure, "%s/%s-plan.png", dir, demo_model);
	snprintf(plain_out, sizeof plain_out, "%s/%s-plain.out", dir, demo_model);
	snprintf(overlap_out, sizeof overlap_out, "%s/%s-overlap.out", dir, demo_model);

	printf("\n== 4. a real model: every layer of %s under the tool, with its real\n"
	       "      weights and quantisation, on an all-zero input image\n", demo_model);
	char *run[] = { "run", "--out", run_dir, "--zeros", "--model", (char *)demo_model, NULL };
	if ((rc = dmo(run)) != 0)
		return rc;
	printf("\n== 5. the measured O_s cross-checked with the algorithmic and analytic ones\n");
	char *analyze[] = { "analyze", run_dir, NULL };
	if ((rc = dmo(analyze)) != 0)
		return rc;
	printf("\n== 6. the arena planned with the measured O_s (TensorFlow Lite Micro's\n"
	       "      greedy plan needs 55296 bytes), checked by running the real model\n");
	char *plan[] = { "plan", "--os", os, "--verify", (char *)demo_model, NULL };
	if ((rc = dmo(plan)) != 0)
		return rc;
	char *plot[] = { "plot", "--plan", (char *)demo_model, "--os", os, "--out", figure, NULL };
	if ((rc = dmo(plot)) != 0)
		return rc;
	printf("\n== 7. the model run in the overlapped arena and in the plain one\n");
	char *overlap[] = { "infer", "--zeros", "--os", os, "--arena", "overlap", "--output",
			    overlap_out, (char *)demo_model, NULL };
	char *plain[] = { "infer", "--zeros", "--arena", "plain", "--output", plain_out,
			  (char *)demo_model, NULL };
	if ((rc = dmo(overlap)) != 0 || (rc = dmo(plain)) != 0)
		return rc;
	rc = dmo_same_bytes(overlap_out, plain_out, &at, differ, why, sizeof why);
	if (rc < 0) {
		fprintf(stderr, "dmo demo: %s\n", why);
		return 2;
	}
	printf("%s\n", rc ? "the two outputs are the same, bit for bit"
			  : "dmo demo: the overlapped arena's output DIFFERS from the plain arena's");
	return rc ? 0 : 1;
}

static int deployed(const char *dir)
{
	char path[PATH_MAX], os[PATH_MAX + 16], emitted[PATH_MAX], why[1024];
	const char *gcc_dsp = NULL, *runtime;
	int rc;

	/* Every kernel build of TFLM (kernels.h) whose runner configure built. */
	if (dmo_locate_tflm_runner(dmo_kernels_runtime(0), path, sizeof path, why, sizeof why) != 0) {
		printf("\n(TensorFlow Lite Micro is not built in: ./configure --with-tflm=DIR\n"
		       " --with-cmsis-nn=DIR adds the plan proven inside it, docs/deploy.md)\n");
		return 0;
	}
	printf("\n== 8. the plan for the kernels that ship: each of TensorFlow Lite Micro's\n"
	       "      kernel builds measured inside TFLM, the plan written into the model as\n"
	       "      TFLM's offline plan and run there against TFLM's own plan\n");
	for (size_t i = 0; (runtime = dmo_kernels_runtime(i)) != NULL; i++) {
		if (dmo_locate_tflm_runner(runtime, path, sizeof path, why, sizeof why) != 0)
			continue;
		if (strcmp(runtime, "tflm-cmsis-nn-dsp") == 0)
			gcc_dsp = runtime;
		snprintf(emitted, sizeof emitted, "%s/%s-%s.tflite", dir, demo_model, runtime);
		char *plan[] = { "plan", "--kernels", (char *)runtime, "--verify",
				 "--emit-tflite", emitted, (char *)demo_model, NULL };
		if ((rc = dmo(plan)) != 0)
			return rc;
	}
	if (gcc_dsp == NULL)
		return 0;
	printf("\n== 9. the reference kernels' plan (step 6) handed to CMSIS-NN as gcc builds\n"
	       "      it: refused, because its 1x1 convolutions allow 2 bytes, not 18425\n");
	snprintf(os, sizeof os, "measured:%s/%s", dir, demo_model);
	snprintf(emitted, sizeof emitted, "%s/%s-refused.tflite", dir, demo_model);
	char *refused[] = { "plan", "--kernels", (char *)gcc_dsp, "--os", os, "--emit-tflite",
			    emitted, (char *)demo_model, NULL };
	rc = dmo(refused);
	if (rc == 2) {
		printf("refused, as it must be\n");
		return 0;
	}
	fprintf(stderr, "dmo demo: the reference plan was not refused for %s (status %d)\n",
		gcc_dsp, rc);
	return 1;
}

int cmd_demo(int argc, char **argv)
{
	const char *dir = "dmo-demo";
	int c, rc;

	while ((c = cmd_getopt(&command, argc, argv)) != -1)
		if (c == 'o')
			dir = optarg;
	if (optind != argc)
		return cmd_misuse(&command, "takes no operand, not '%s'", argv[optind]);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "dmo demo: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	rc = kernels(dir);
	if (rc == 0)
		rc = real_model(dir);
	return rc ? rc : deployed(dir);
}
