// The random module's bit generator (embedded as cupp/random/philox.cuh; host code includes it
// too): Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel Random Numbers: As Easy as 1, 2, 3",
// SC11; Random123's philox.h, cuRAND's PHILOX4_32_10): a 128-bit counter and a 64-bit key, ten
// rounds of two 32x32->64 multiplies, the key bumped by the Weyl constants between rounds. Its
// outputs pass Random123's published known-answer vectors (tests/unit/random/test_philox.cpp on
// the host, tests/gpu/random/ on the device).
//
// cupp's counter layout: words 0-2 hold the 96-bit counter of an element group (the call's base
// counter, reserved on the host, plus the group's index), word 3 the group's own draw count j.
// Nothing depends on the thread, block or grid that computes a group.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define CUPP_RANDOM_HD __host__ __device__ __forceinline__
#define CUPP_RANDOM_UNROLL _Pragma("unroll")
#else
#define CUPP_RANDOM_HD inline
#define CUPP_RANDOM_UNROLL
#endif

namespace cupp_random {

typedef unsigned int u32;
typedef unsigned long long u64;

// The Philox4x32 constants (Random123 philox.h: PHILOX_M4x32_0/1, PHILOX_W32_0/1).
enum : u32 {
  philox_m0 = 0xD2511F53u,
  philox_m1 = 0xCD9E8D57u,
  philox_w0 = 0x9E3779B9u,  // the golden ratio
  philox_w1 = 0xBB67AE85u,  // sqrt(3) - 1
};

struct u32x4 {
  u32 v[4];
};

// One round: (hi, lo) = m0 * c0 and m1 * c2; c' = (hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0).
CUPP_RANDOM_HD void philox_round(u32 c[4], u32 k0, u32 k1) {
  const u64 p0 = (u64)philox_m0 * c[0];
  const u64 p1 = (u64)philox_m1 * c[2];
  const u32 hi0 = (u32)(p0 >> 32), lo0 = (u32)p0;
  const u32 hi1 = (u32)(p1 >> 32), lo1 = (u32)p1;
  const u32 n0 = hi1 ^ c[1] ^ k0;
  const u32 n2 = hi0 ^ c[3] ^ k1;
  c[0] = n0;
  c[1] = lo1;
  c[2] = n2;
  c[3] = lo0;
}

// Philox4x32-10 of counter (c0, c1, c2, c3) under key (k0, k1).
CUPP_RANDOM_HD u32x4 philox4x32_10(u32 c0, u32 c1, u32 c2, u32 c3, u32 k0, u32 k1) {
  u32 c[4] = {c0, c1, c2, c3};
  CUPP_RANDOM_UNROLL
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += philox_w0;
      k1 += philox_w1;
    }
    philox_round(c, k0, k1);
  }
  u32x4 out;
  out.v[0] = c[0];
  out.v[1] = c[1];
  out.v[2] = c[2];
  out.v[3] = c[3];
  return out;
}

// Philox4x32-10 with the ten round keys computed once (a thread that draws many counters).
struct round_keys {
  u32 k0[10], k1[10];
  CUPP_RANDOM_HD round_keys(u32 a, u32 b) {
    CUPP_RANDOM_UNROLL
    for (int r = 0; r < 10; ++r) {
      k0[r] = a + (u32)r * philox_w0;
      k1[r] = b + (u32)r * philox_w1;
    }
  }
};
CUPP_RANDOM_HD u32x4 philox4x32_10(u32 c0, u32 c1, u32 c2, u32 c3, const round_keys& k) {
  u32 c[4] = {c0, c1, c2, c3};
  CUPP_RANDOM_UNROLL
  for (int r = 0; r < 10; ++r) philox_round(c, k.k0[r], k.k1[r]);
  u32x4 out;
  out.v[0] = c[0];
  out.v[1] = c[1];
  out.v[2] = c[2];
  out.v[3] = c[3];
  return out;
}

// What a launch needs: the key and the call's 96-bit base counter (c0 the low word).
struct philox_call {
  u32 k0, k1;
  u32 c0, c1, c2;
};

// Philox4x32-10 of the counters (lo, c1, c2, 0) of a run of groups whose low word lo alone varies
// (words 1 and 2 fixed, draw j = 0: the first draw of every fixed-draw kernel), the same words as
// philox4x32_10 (tests/unit/random/test_philox.cpp checks it): round 1's product m1 * c2, hence
// its new words 0 and 1, and round 2's product m0 * (its word 0) are the same for the whole run, so
// a group costs 17 multiplies instead of 20; and round 1's m0 * lo is passed in (p0), so a loop
// over lo = lo_0, lo_0 + s, ... can step it by adding m0 * s instead of multiplying (exact while
// lo does not wrap: m0 * lo < 2^64).
struct counter_run {
  u32 k0[10], k1[10];
  u32 a0, a1;    // round 1's words 0 and 1: hi(m1 c2) ^ c1 ^ k0[0], lo(m1 c2)
  u32 b_hi, b_lo;  // round 2's m0 * a0
  CUPP_RANDOM_HD counter_run(u32 key0, u32 key1, u32 c1, u32 c2) {
    CUPP_RANDOM_UNROLL
    for (int r = 0; r < 10; ++r) {
      k0[r] = key0 + (u32)r * philox_w0;
      k1[r] = key1 + (u32)r * philox_w1;
    }
    const u64 p1 = (u64)philox_m1 * c2;
    a0 = (u32)(p1 >> 32) ^ c1 ^ k0[0];
    a1 = (u32)p1;
    const u64 b = (u64)philox_m0 * a0;
    b_hi = (u32)(b >> 32);
    b_lo = (u32)b;
  }
  // The words of counter (lo, c1, c2, 0), given p0 = m0 * lo.
  CUPP_RANDOM_HD u32x4 words(u64 p0) const {
    // after round 1: (a0, a1, hi(p0) ^ k1[0], lo(p0))
    const u32 n2 = (u32)(p0 >> 32) ^ k1[0];
    // round 2: m0 * a0 is b; m1 * n2 varies
    const u64 q = (u64)philox_m1 * n2;
    u32 c[4] = {(u32)(q >> 32) ^ a1 ^ k0[1], (u32)q, b_hi ^ (u32)p0 ^ k1[1], b_lo};
    CUPP_RANDOM_UNROLL
    for (int r = 2; r < 10; ++r) philox_round(c, k0[r], k1[r]);
    u32x4 out;
    out.v[0] = c[0];
    out.v[1] = c[1];
    out.v[2] = c[2];
    out.v[3] = c[3];
    return out;
  }
};

// The runs of a call's groups [0, groups) over which the low counter word does not wrap: the
// group counter of g is base + g (96 bits, base = (c2, c1, c0)); run r starts at the r-th g where
// the low word is 0 (run 0 at g = 0) and ends before the next. A call of fewer than 2^32 groups
// has one run or two.
struct run_span {
  u64 begin, end;  // groups [begin, end)
  u32 lo0;         // the low word at g = begin
  u32 c1, c2;      // words 1 and 2 throughout
};
CUPP_RANDOM_HD u64 run_count(const philox_call& call, u64 groups) {
  // runs = 1 + the number of g in (0, groups) with (c0 + g) % 2^32 == 0
  if (groups == 0) return 0;
  const u64 first_wrap = (1ull << 32) - call.c0;  // the first g > 0 where the low word is 0
  return groups <= first_wrap ? 1 : 2 + (groups - 1 - first_wrap) / (1ull << 32);
}
CUPP_RANDOM_HD run_span run_at(const philox_call& call, u64 groups, u64 r) {
  run_span s;
  const u64 first_wrap = (1ull << 32) - call.c0;
  s.begin = r == 0 ? 0 : first_wrap + (r - 1) * (1ull << 32);
  const u64 next = first_wrap + r * (1ull << 32);
  s.end = next < groups ? next : groups;
  const u64 base = (u64)call.c1 << 32 | call.c0;
  const u64 lo = base + s.begin;
  s.lo0 = (u32)lo;
  s.c1 = (u32)(lo >> 32);
  s.c2 = call.c2 + (lo < base ? 1u : 0u);  // the carry into the high word
  return s;
}

// The test hook's deliberately broken generator (random/src/program.cpp compiles the programs a
// second time with CUPP_RANDOM_BROKEN_WORDS): every word x becomes x & (x >> 1), so each bit is 1
// with probability 1/4 (the top bit never) and every distribution built from the words is wrong,
// whether a sampler reads a word's high bits (uniforms) or its low bits (masked intervals); the
// statistical tests must notice. Nothing else defines it.
CUPP_RANDOM_HD u32x4 weaken(u32x4 w) {
#ifdef CUPP_RANDOM_BROKEN_WORDS
  CUPP_RANDOM_UNROLL
  for (int k = 0; k < 4; ++k) w.v[k] &= w.v[k] >> 1;
#endif
  return w;
}

// The four words of group g's draw j: counter (base + g, j).
CUPP_RANDOM_HD u32x4 draw(const philox_call& call, u64 g, u32 j) {
  const u64 lo = ((u64)call.c1 << 32 | call.c0) + g;
  const u32 c2 = call.c2 + (lo < g ? 1u : 0u);  // the carry into the high word
  return weaken(philox4x32_10((u32)lo, (u32)(lo >> 32), c2, j, call.k0, call.k1));
}

CUPP_RANDOM_HD u32x4 draw(const philox_call& call, const round_keys& keys, u64 g, u32 j) {
  const u64 lo = ((u64)call.c1 << 32 | call.c0) + g;
  const u32 c2 = call.c2 + (lo < g ? 1u : 0u);
  return weaken(philox4x32_10((u32)lo, (u32)(lo >> 32), c2, j, keys));
}

// Word to [0, 1): NumPy's conversions (24 bits for float32, 53 for float64).
CUPP_RANDOM_HD float to_float01(u32 x) { return (float)(x >> 8) * (1.0f / 16777216.0f); }
CUPP_RANDOM_HD double to_double01(u32 hi, u32 lo) {
  return (double)((((u64)hi << 32) | lo) >> 11) * (1.0 / 9007199254740992.0);
}
// To (0, 1): the same grid shifted by half a step, never 0 nor 1 (for logs of u and of 1 - u).
CUPP_RANDOM_HD float to_float_open(u32 x) { return ((float)(x >> 8) + 0.5f) * (1.0f / 16777216.0f); }
CUPP_RANDOM_HD double to_double_open(u32 hi, u32 lo) {
  return ((double)((((u64)hi << 32) | lo) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}
// To (0, 1] with all 32 bits (the Box-Muller radius: -log(u) is finite and reaches 22.2).
CUPP_RANDOM_HD float to_float_radius(u32 x) { return ((float)x + 1.0f) * (1.0f / 4294967296.0f); }

// An element's own stream of words, for samplers that draw a data-dependent number of times
// (rejection): element i reads the words of counters (base + i, 0), (base + i, 1), ... in order.
struct element_stream {
  philox_call call;
  u64 group;
  u32 j;
  int used;
  u32x4 words;

  CUPP_RANDOM_HD element_stream(const philox_call& c, u64 g) : call(c), group(g), j(0), used(0) {
    words = draw(call, group, 0);
  }
  CUPP_RANDOM_HD u32 next32() {
    if (used == 4) {
      ++j;
      words = draw(call, group, j);
      used = 0;
    }
    return words.v[used++];
  }
  CUPP_RANDOM_HD u64 next64() {
    const u32 hi = next32();
    const u32 lo = next32();
    return ((u64)hi << 32) | lo;
  }
  CUPP_RANDOM_HD double uniform() { return (double)(next64() >> 11) * (1.0 / 9007199254740992.0); }
  CUPP_RANDOM_HD double uniform_open() { return ((double)(next64() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }
};

// choice(a, k, replace=False) without p: out[t] = pi(t) for t < k, where pi is a pseudo-random
// permutation of [0, a) drawn from the generator: a Feistel network on b = ceil(log2 a) bits (at
// least 2), split into halves of lb = b / 2 and rb = b - lb bits, whose 2 * feistel_rounds
// half-rounds alternately xor one half with a keyed hash of the other (each step invertible, so
// the network is a bijection of [0, 2^b)); values >= a are walked on through the network (cycle
// walking: a bijection of [0, a), at most two steps on average as 2^b < 2a for a >= 2). The 32-bit round
// keys are Philox words of the call's reserved counters, computed on the host; the hash is a
// multiply-xorshift finaliser of (half ^ key). Every output depends on t and the keys alone.
enum { feistel_rounds = 8 };
struct feistel {
  u64 a;
  u32 lbits, rbits;
  u32 keys[2 * feistel_rounds];
};

CUPP_RANDOM_HD u32 feistel_hash(u32 x, u32 key) {
  u32 h = (x ^ key) * 0x9E3779B1u;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

CUPP_RANDOM_HD u64 feistel_permute(const feistel& f, u64 x) {
  const u32 lmask = (u32)((1ull << f.lbits) - 1), rmask = (u32)((1ull << f.rbits) - 1);
  do {
    u32 l = (u32)(x >> f.rbits) & lmask, r = (u32)x & rmask;
    CUPP_RANDOM_UNROLL
    for (int k = 0; k < feistel_rounds; ++k) {
      l ^= feistel_hash(r, f.keys[2 * k]) & lmask;
      r ^= feistel_hash(l, f.keys[2 * k + 1]) & rmask;
    }
    x = ((u64)l << f.rbits) | r;
  } while (x >= f.a);
  return x;
}

}  // namespace cupp_random
