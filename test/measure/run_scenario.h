/*
 * run_scenario.h -- runs a test program (scenarios/) in a child process
 * with POMP_EXPERIMENT pointing into a private temporary directory, and
 * gives back its exit status, output and experiment directory.
 */
#ifndef RUN_SCENARIO_H
#define RUN_SCENARIO_H

typedef struct sc_result {
  int status;      /* as waitpid returns it */
  char dir[512];   /* the experiment directory */
  char trace[600]; /* dir/traces.otf2 */
  char out[8192];  /* stdout */
  char err[8192];  /* stderr */
} sc_result;

/* Runs SCENARIO_DIR/program with args (NULL-terminated, may be NULL) and
   extra environment "NAME=value" entries (NULL-terminated, may be NULL).
   The experiment is <tmp>/<tag>; a directory already there is kept. */
void sc_run(const char *program, const char *tag, const char *const *args, const char *const *env,
            sc_result *r);

/* The private temporary directory (created at the first call). */
const char *sc_tmpdir(void);
/* Contents of dir/name as a string (static buffer), "" if unreadable. */
const char *sc_file(const char *dir, const char *name);
/* Removes the temporary directory and everything in it. */
void sc_cleanup(void);

#endif
