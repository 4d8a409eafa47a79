/* check_main.h - how every Check test program ends: run its suite and turn
 * the failures into the exit status make check reads. */
#ifndef DMO_CHECK_MAIN_H
#define DMO_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

static inline int dmo_run_suite(Suite *suite)
{
	SRunner *runner = srunner_create(suite);
	int failed;

	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
