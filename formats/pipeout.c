/* pipeout.c: records handed to a pipe by reference; see pipeout.h. */
#define _GNU_SOURCE /* vmsplice, F_GETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "pipeout.h"

/* A slot of 256 KiB: 64 pages, a quarter of the 1 MiB pipe the sink asks
 * for, so that the reader can drain one slot while the next fills. */
enum { SLOT = 1 << 18 };

struct pipeout {
	int fd;
	unsigned char *ring;
	size_t nslots, cur, used, page;
	int copying; /* slots go out with write(2): a partial slot was sent, or
	              * the pipe grew past what the ring covers */
	void (*seen)(void *ctx, const unsigned char *b, size_t n);
	void *ctx;
};

size_t
pipeout_slot_size(void)
{
	return SLOT;
}

static unsigned char *
map_ring(size_t nslots)
{
	void *m = mmap(NULL, nslots * SLOT, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return m == MAP_FAILED ? NULL : m;
}

pipeout *
pipeout_open(int fd)
{
#if defined(F_GETPIPE_SZ) && defined(SPLICE_F_GIFT)
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
		return NULL;
	int cap = fcntl(fd, F_GETPIPE_SZ);
	if (cap <= 0)
		return NULL;
	pipeout *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	/* nslots - 1 slots sent after any slot cover the capacity */
	p->nslots = ((size_t)cap + SLOT - 1) / SLOT + 2;
	long pg = sysconf(_SC_PAGESIZE);
	p->ring = pg > 0 && SLOT % pg == 0 ? map_ring(p->nslots) : NULL;
	if (!p->ring) {
		free(p);
		return NULL;
	}
	p->page = (size_t)pg;
	p->fd = fd;
	return p;
#else
	(void)fd;
	return NULL;
#endif
}

int
pipeout_write_all(int fd, const void *buf, size_t n)
{
	const unsigned char *b = buf;
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

/* From now on, copy: a fresh ring, since the old one's pages may still be
 * in the pipe (they stay there after munmap). */
static int
start_copying(pipeout *p)
{
	unsigned char *fresh = map_ring(p->nslots);
	if (!fresh)
		return -1;
	munmap(p->ring, p->nslots * SLOT);
	p->ring = fresh;
	p->copying = 1;
	return 0;
}

int
pipeout_send(pipeout *p)
{
	unsigned char *b = p->ring + p->cur * SLOT;
	size_t n = p->used;
	if (n == 0)
		return 0;
	if (p->seen)
		p->seen(p->ctx, b, n);
	if (!p->copying) {
		int cap = fcntl(p->fd, F_GETPIPE_SZ);
		if (cap <= 0 || (size_t)cap > (p->nslots - 1) * SLOT || n + p->page <= SLOT) {
			/* copy this slot: the ring's argument needs a capacity it
			 * covers and slots that reach into their last page (every page
			 * of a slot is then a buffer of the pipe) */
			if (pipeout_write_all(p->fd, b, n) != 0)
				return -1;
			p->used = 0;
			return start_copying(p);
		}
	}
	if (p->copying) {
		if (pipeout_write_all(p->fd, b, n) != 0)
			return -1;
	} else {
		struct iovec iv = { b, n };
		while (iv.iov_len) {
			ssize_t w = vmsplice(p->fd, &iv, 1, 0);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return -1;
			iv.iov_base = (unsigned char *)iv.iov_base + w;
			iv.iov_len -= (size_t)w;
		}
	}
	p->used = 0;
	p->cur = (p->cur + 1) % p->nslots;
	return 0;
}

void
pipeout_watch(pipeout *p, void (*seen)(void *ctx, const unsigned char *b, size_t n), void *ctx)
{
	p->seen = seen;
	p->ctx = ctx;
}

unsigned char *
pipeout_room(pipeout *p, size_t n)
{
	if (p->used + n > SLOT && pipeout_send(p) != 0)
		return NULL;
	return p->ring + p->cur * SLOT + p->used;
}

void
pipeout_commit(pipeout *p, size_t n)
{
	p->used += n;
}

void
pipeout_close(pipeout *p)
{
	if (!p)
		return;
	munmap(p->ring, p->nslots * SLOT);
	free(p);
}
