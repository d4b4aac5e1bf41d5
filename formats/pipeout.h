/*
 * pipeout.h: hand a binary stream's records to a pipe by reference
 * (vmsplice(2)) instead of copying them into it with write(2).
 *
 * A write copies every byte into the pipe's pages under the pipe's lock,
 * and the reader copies it out again under the same lock: a 1 GB stream
 * between tagk-regress and tagk-estimate spent more time in those copies
 * and in spinning on that lock than in either command's own work. vmsplice
 * puts references to the writer's pages into the pipe; the reader's read
 * copies from them once.
 *
 * The contract that keeps this correct: a page handed over must not change
 * until the reader has copied it. Records go into a ring of slots, each
 * sent whole; a slot is refilled only after the slots sent after it hold at
 * least the pipe's capacity, and a pipe never holds more than its capacity,
 * so by then the reader has read the refilled slot's old contents. That
 * holds for a reader that copies with read(2), as every tagk command does;
 * a reader that splices the pipe's pages elsewhere (tee(2), splice(2))
 * could keep references past the capacity. So use this only when every
 * reader of the pipe is known to be a tagk command (streampeer.h). The
 * capacity is read again before every send, and a slot goes out with
 * write(2) whenever it has grown past what the ring covers.
 */
#ifndef TAGK_PIPEOUT_H
#define TAGK_PIPEOUT_H

#include <stddef.h>

typedef struct pipeout pipeout;

/* NULL (nothing allocated) when fd is not a pipe, its capacity is unknown,
 * or memory is short: the caller then goes on with write(2). */
pipeout *pipeout_open(int fd);
/* Room for n bytes (n <= pipeout_slot_size()) at the end of the current
 * slot, sending the slot first when it lacks it; NULL with errno set when
 * sending failed. The bytes count once pipeout_commit() is called. */
unsigned char *pipeout_room(pipeout *p, size_t n);
void pipeout_commit(pipeout *p, size_t n);
/* seen(ctx, bytes, n) is called with every run of bytes just before it is
 * sent (the stream's check value covers them). */
void pipeout_watch(pipeout *p, void (*seen)(void *ctx, const unsigned char *b, size_t n), void *ctx);
/* Send what the current slot holds; 0, or -1 with errno set. */
int pipeout_send(pipeout *p);
size_t pipeout_slot_size(void);
/* write(2) all n bytes of buf to fd, again after a signal: 0, or -1 with
 * errno set. For what goes to a pipe by copy (also the HDF5 reader's
 * child, hdf5_in.c). */
int pipeout_write_all(int fd, const void *buf, size_t n);
/* Unmaps the ring: pages still referenced by the pipe stay with it, so the
 * reader still reads what was sent. */
void pipeout_close(pipeout *p);

#endif
