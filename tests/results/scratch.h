/* A scratch folder for the results tests: made before a group of tests,
 * removed with all it holds after it.
 */
#ifndef TESTS_RESULTS_SCRATCH_H
#define TESTS_RESULTS_SCRATCH_H

/* cmocka group setup: makes a fresh folder under $TMPDIR (or /tmp) and
 * puts its path (a string the teardown frees) in *state.
 */
int scratch_make(void **state);

/* cmocka group teardown: removes the folder of *state and what it holds. */
int scratch_remove(void **state);

/* "dir/name" into buf (PATH_MAX bytes); fails the test when it is longer. */
void scratch_join(char *buf, const char *dir, const char *name);

#endif
