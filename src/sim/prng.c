// SPDX-License-Identifier: GPL-2.0-only
#include "sim/prng.h"

static u64 splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void prng_init(struct prng *r, u64 seed, u64 stream)
{
	u64 x = seed ^ (stream * 0xd1342543de82ef95ULL);
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static inline u64 rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

u64 prng_next(struct prng *r)
{
	u64 *s = r->s;
	u64 result = rotl(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

u64 prng_below(struct prng *r, u64 n)
{
	/* Lemire's nearly-divisionless method */
	unsigned __int128 m = (unsigned __int128)prng_next(r) * n;
	u64 l = (u64)m;
	if (l < n) {
		u64 t = -n % n;
		while (l < t) {
			m = (unsigned __int128)prng_next(r) * n;
			l = (u64)m;
		}
	}
	return (u64)(m >> 64);
}
