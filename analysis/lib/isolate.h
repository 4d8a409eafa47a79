/* isolate.h - another party's code (a backend plugin) run in a child
 * process: a crash, or a write out of bounds that faults, ends the child
 * with a signal, and dmo reports it with every other result kept.  Used by
 * `dmo verify` and `dmo compare`. */
#ifndef DMO_ISOLATE_H
#define DMO_ISOLATE_H

#include <stddef.h>

/* Run WORK(ARG, REPLY) in a forked child, which fills REPLY (REPLY_LEN
 * plain bytes: no pointers of its own making) and sends it back.  Returns
 * 0 with REPLY filled; -1 when the child died of a signal (its number in
 * *SIGNAL_NO, ERR says which, naming WHO) or ended without a whole reply
 * (*SIGNAL_NO 0, ERR says so). */
int dmo_isolated(void (*work)(void *arg, void *reply), void *arg, void *reply,
		 size_t reply_len, const char *who, int *signal_no, char *err, size_t err_len);

#endif
