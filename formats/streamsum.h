/*
 * streamsum.h: the check value of a tagk stream, written in its end marker
 * ("#tagk-end: N rows; check HEX") and recomputed by every reader, so that a
 * stream altered after it was written, or two streams spliced into one
 * (the head of one and the tail of another, whatever their row counts and
 * time columns), is refused. Not a cryptographic hash: it detects accidents
 * (a cut, a splice, an edit), not an adversary who recomputes it.
 *
 * Two functions, by the stream's version (tagk-formats(5)):
 *
 * ssum (streams of version 2, which tagk still reads): a 64-bit hash of the
 * column names and of every data row as it is written: for the CSV stream
 * the text of each cell, for the binary stream the 8 bytes of each value.
 * Four lanes, cell i of a row going to lane i mod 4; each lane is a round of
 * xxHash64 (Collet, BSD), whose constants these are. Per cell, so that a
 * CSV reader can compute it from the cells whatever its parsing path.
 *
 * bsum (streams of version 3): XXH3-64 with seed 0 (libxxhash) of every
 * byte between the binary stream's magic line and its trailer (names and
 * units lines included), or between the CSV stream's declaration and its
 * first note or end marker (line ends read as LF), hashed in blocks as
 * they are written or read. ssum's rounds are a chain of two multiplies
 * per value, 0.11 ns a byte here, where XXH3 over blocks takes 0.035 with
 * AVX2 (the dispatching entry points pick it at run time): a seventh of
 * tagk-regress's time from HDF5, and an eighth of writing CSV, was ssum's.
 */
#ifndef TAGK_STREAMSUM_H
#define TAGK_STREAMSUM_H

#include <stdint.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t's layout, for ..._reset */
#include <xxhash.h>
#if defined(__x86_64__)
#include <xxh_x86dispatch.h> /* XXH3_64bits_update: AVX2 when the CPU has it */
#endif

#define SSUM_P1 UINT64_C(0x9E3779B185EBCA87)
#define SSUM_P2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define SSUM_P3 UINT64_C(0x165667B19E3779F9)

typedef struct {
	uint64_t lane[4];
	uint64_t rows;
} ssum;

static inline uint64_t
ssum_round(uint64_t acc, uint64_t w)
{
	acc += w * SSUM_P2;
	acc = (acc << 31) | (acc >> 33);
	return acc * SSUM_P1;
}

static inline void
ssum_init(ssum *s)
{
	s->lane[0] = SSUM_P1 + SSUM_P2;
	s->lane[1] = SSUM_P2;
	s->lane[2] = 0;
	s->lane[3] = 0 - SSUM_P1;
	s->rows = 0;
}

/* The bytes of one cell (a name or a CSV cell's text) into lane i & 3,
 * eight at a time, their length first so that "1,23" and "12,3" differ. */
static inline void
ssum_text(ssum *s, int i, const char *p, size_t n)
{
	uint64_t a = ssum_round(s->lane[i & 3], (uint64_t)n);
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		a = ssum_round(a, w);
	}
	if (n) {
		uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* the same word as the memcpy below, built in a register: a
		 * short memcpy is stored byte by byte and read back whole, which
		 * stalls store forwarding and was a quarter of reading CSV */
		for (size_t k = 0; k < n; k++)
			w |= (uint64_t)(unsigned char)p[k] << (8 * k);
#else
		memcpy(&w, p, n);
#endif
		a = ssum_round(a, w);
	}
	s->lane[i & 3] = a;
}

/* ssum_text, the same value, for a cell in a buffer that may be read in
 * whole words: p[0 .. n rounded up to 8) must be readable. The last word
 * is loaded whole and the bytes past n masked off, with no loop. */
static inline void
ssum_text_padded(ssum *s, int i, const char *p, size_t n)
{
	uint64_t a = ssum_round(s->lane[i & 3], (uint64_t)n);
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		a = ssum_round(a, w);
	}
	if (n) {
		uint64_t w;
		memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w &= ~UINT64_C(0) << (64 - 8 * n);
#else
		w &= ~UINT64_C(0) >> (64 - 8 * n);
#endif
		a = ssum_round(a, w);
	}
	s->lane[i & 3] = a;
}

/* One binary record of n values, 8 little-endian bytes each. */
static inline void
ssum_record(ssum *s, const unsigned char *p, int n)
{
	uint64_t a0 = s->lane[0], a1 = s->lane[1], a2 = s->lane[2], a3 = s->lane[3];
	int i = 0;
	for (; i + 4 <= n; i += 4, p += 32) {
		uint64_t w[4];
		memcpy(w, p, 32);
		a0 = ssum_round(a0, w[0]);
		a1 = ssum_round(a1, w[1]);
		a2 = ssum_round(a2, w[2]);
		a3 = ssum_round(a3, w[3]);
	}
	for (int k = 0; i < n; i++, k++, p += 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		if (k == 0) a0 = ssum_round(a0, w);
		else if (k == 1) a1 = ssum_round(a1, w);
		else a2 = ssum_round(a2, w);
	}
	s->lane[0] = a0, s->lane[1] = a1, s->lane[2] = a2, s->lane[3] = a3;
	s->rows++;
}

/* The end of a row of CSV cells (ssum_record counts its own). */
static inline void
ssum_row(ssum *s)
{
	s->rows++;
	s->lane[0] = ssum_round(s->lane[0], s->rows);
}

/* The check value of everything added so far. */
static inline uint64_t
ssum_value(const ssum *s)
{
	uint64_t h = ((s->lane[0] << 1) | (s->lane[0] >> 63)) + ((s->lane[1] << 7) | (s->lane[1] >> 57)) +
	    ((s->lane[2] << 12) | (s->lane[2] >> 52)) + ((s->lane[3] << 18) | (s->lane[3] >> 46));
	h ^= s->rows * SSUM_P3;
	h ^= h >> 33;
	h *= SSUM_P2;
	h ^= h >> 29;
	h *= SSUM_P3;
	h ^= h >> 32;
	return h;
}

/* Version 3's check value: an XXH3 state (XXH3_createState: the state
 * must be 64-byte aligned, which malloc does not promise), fed every byte
 * of the hashed part of the stream, in any pieces: the value does not
 * depend on how the bytes were split. */
typedef XXH3_state_t bsum;

static inline void
bsum_init(bsum *b)
{
	(void)XXH3_64bits_reset(b);
}

static inline void
bsum_bytes(bsum *b, const void *p, size_t n)
{
	if (n)
		(void)XXH3_64bits_update(b, p, n);
}

static inline uint64_t
bsum_value(const bsum *b)
{
	return (uint64_t)XXH3_64bits_digest(b);
}

#endif
