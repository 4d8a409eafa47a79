/* dmo_bare.h - `valgrind --tool=dmo PROG` with nothing set up: the run
 * folder and the FIFO the tool makes for itself, and the client request
 * through which the program's libdmo-harness learns the FIFO's path
 * (docs/install.md, "Running the tool directly"). */
#ifndef DMO_BARE_H
#define DMO_BARE_H

#include "pub_tool_basics.h"

/* The run folder for --dmo-out=OUT (NULL: not given) when the FIFO is
 * FIFO (NULL: none given): OUT with %p and %q{VAR} expanded, or
 * dmo.out.PID when neither was given; NULL (report only) when a FIFO was
 * given without a folder.  A folder that does not exist is created; one
 * that cannot be is refused here, before the program starts. */
const HChar *dmo_bare_out_dir(const HChar *out, const HChar *fifo);

/* The run folder of a traced child's instance, OUT/proc-PID, made if
 * missing; NULL (said why) when it cannot be, and the child is then not
 * recorded.  Its records and event files never touch OUT's. */
const HChar *dmo_bare_child_out_dir(const HChar *out);

/* A FIFO of the tool's own in OUT_DIR, for a run with none given; its
 * path, or NULL (said why). */
const HChar *dmo_bare_make_fifo(const HChar *out_dir);

/* The FIFO the program should write to (NULL: none). */
void dmo_bare_set_fifo(const HChar *fifo);

/* Valgrind's client-request hook: DMO_WIRE_REQ_FIFO_PATH copies the
 * FIFO's path into the program's buffer. */
Bool dmo_bare_client_request(ThreadId tid, UWord *args, UWord *ret);

/* At exit, given the rows the run recorded: the tool's own FIFO removed,
 * and where the run went said, or why it may have recorded nothing. */
void dmo_bare_fini(ULong rows);

#endif
