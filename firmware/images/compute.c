// SPDX-License-Identifier: Apache-2.0
/* compute: a deterministic compute-heavy workload (CRC32, matrix multiply,
 * quicksort, sieve, division mix, register mix) that prints a signature for
 * comparing the board's ISS with QEMU. */
#include <stdint.h>
#include <stdio.h>

#include "lq/csr.h"

/* Rounds of every kernel; compute_short builds with fewer (CMakeLists). */
#ifndef COMPUTE_ROUNDS
#define COMPUTE_ROUNDS 72
#endif

#define kBufferBytes 4096
#define kMatrixSize 16
#define kSortCount 1024
#define kSieveLimit 32768

/* Mixes every general register in assembly (compute_regmix.S) and stores
   x0-x31 into registers[] on the way out, before C code touches them. */
uint32_t compute_regmix(uint32_t iterations, uint32_t registers[32]);

static uint8_t buffer[kBufferBytes];
static int32_t matrix_a[kMatrixSize][kMatrixSize];
static int32_t matrix_b[kMatrixSize][kMatrixSize];
static int32_t matrix_c[kMatrixSize][kMatrixSize];
static uint32_t sort_data[kSortCount];
static uint8_t composite[kSieveLimit];
static uint32_t final_registers[32];

/* Numerical Recipes' LCG: every run sees the same "random" data. */
static uint32_t lcg_state;
static uint32_t lcg_next(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state;
}

static uint32_t crc32(const uint8_t* data, uint32_t length, uint32_t crc) {
  crc = ~crc;
  for (uint32_t i = 0; i < length; i++) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; bit++) {
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
  }
  return ~crc;
}

static uint32_t kernel_crc(uint32_t round) {
  for (uint32_t i = 0; i < kBufferBytes; i++) {
    buffer[i] = (uint8_t)(lcg_next() >> 24);
  }
  return crc32(buffer, kBufferBytes, round);
}

static uint32_t kernel_matrix(void) {
  for (int i = 0; i < kMatrixSize; i++) {
    for (int j = 0; j < kMatrixSize; j++) {
      matrix_a[i][j] = (int32_t)(lcg_next() >> 16) - 32768;
      matrix_b[i][j] = (int32_t)(lcg_next() >> 20) - 2048;
    }
  }
  uint32_t sum = 0;
  for (int i = 0; i < kMatrixSize; i++) {
    for (int j = 0; j < kMatrixSize; j++) {
      int32_t dot = 0;
      for (int k = 0; k < kMatrixSize; k++) {
        dot += matrix_a[i][k] * matrix_b[k][j];
      }
      matrix_c[i][j] = dot;
      sum = (sum << 1 | sum >> 31) ^ (uint32_t)dot;
    }
  }
  return sum;
}

static void quicksort(uint32_t* data, int low, int high) {
  while (low < high) {
    uint32_t pivot = data[low + (high - low) / 2];
    int i = low;
    int j = high;
    while (i <= j) {
      while (data[i] < pivot) {
        i++;
      }
      while (data[j] > pivot) {
        j--;
      }
      if (i <= j) {
        uint32_t swap = data[i];
        data[i++] = data[j];
        data[j--] = swap;
      }
    }
    /* Recurse into the smaller half, loop on the larger: bounded stack. */
    if (j - low < high - i) {
      quicksort(data, low, j);
      low = i;
    } else {
      quicksort(data, i, high);
      high = j;
    }
  }
}

static uint32_t kernel_sort(void) {
  for (int i = 0; i < kSortCount; i++) {
    sort_data[i] = lcg_next();
  }
  quicksort(sort_data, 0, kSortCount - 1);
  uint32_t check = 0;
  for (int i = 0; i < kSortCount; i++) {
    if (i > 0 && sort_data[i - 1] > sort_data[i]) {
      return 0xbad0000u | (uint32_t)i; /* not sorted: a wrong result */
    }
    check = check * 31u + sort_data[i];
  }
  return check;
}

static uint32_t kernel_sieve(void) {
  for (int i = 0; i < kSieveLimit; i++) {
    composite[i] = 0;
  }
  uint32_t primes = 0;
  for (int i = 2; i < kSieveLimit; i++) {
    if (!composite[i]) {
      primes++;
      for (int j = i * 2; j < kSieveLimit; j += i) {
        composite[j] = 1;
      }
    }
  }
  return primes;
}

/* Signed and unsigned division and remainder, including the edge cases
   (division by zero, INT_MIN / -1) that RISC-V defines without a trap. */
static uint32_t kernel_division(void) {
  uint32_t mix = 0;
  for (int i = 0; i < 2000; i++) {
    uint32_t a = lcg_next();
    uint32_t b = lcg_next() >> (i & 31);
    int32_t sa = (int32_t)a;
    int32_t sb = (int32_t)b - 1000;
    if ((i & 63) == 0) {
      sa = INT32_MIN;
      sb = -1;
    }
    uint32_t q;
    uint32_t r;
    int32_t sq;
    int32_t sr;
    /* The asm keeps C's undefined cases (x / 0, INT_MIN / -1) out of C. */
    __asm__("divu %0, %1, %2" : "=r"(q) : "r"(a), "r"(b));
    __asm__("remu %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    __asm__("div %0, %1, %2" : "=r"(sq) : "r"(sa), "r"(sb));
    __asm__("rem %0, %1, %2" : "=r"(sr) : "r"(sa), "r"(sb));
    mix = (mix ^ q) * 16777619u + r + (uint32_t)sq * 3u + (uint32_t)sr;
  }
  return mix;
}

int main(void) {
  uint32_t crc = 0;
  uint32_t matrix = 0;
  uint32_t sort = 0;
  uint32_t primes = 0;
  uint32_t division = 0;
  uint32_t regmix = 0;

  uint64_t cycles_before = lq_read_mcycle();
  uint64_t instructions_before = lq_read_minstret();
  lcg_state = 1;
  for (uint32_t round = 0; round < COMPUTE_ROUNDS; round++) {
    crc ^= kernel_crc(round);
    matrix += kernel_matrix();
    sort ^= kernel_sort();
    primes += kernel_sieve();
    division += kernel_division();
    regmix ^= compute_regmix(2000 + round, final_registers);
  }
  uint64_t cycles = lq_read_mcycle() - cycles_before;
  uint64_t instructions = lq_read_minstret() - instructions_before;

  /* Signature: equal on every correct RV32IMAC implementation. */
  printf("compute: %u rounds\n", COMPUTE_ROUNDS);
  printf("sig crc32    0x%08lx\n", (unsigned long)crc);
  printf("sig matrix   0x%08lx\n", (unsigned long)matrix);
  printf("sig sort     0x%08lx\n", (unsigned long)sort);
  printf("sig primes   %lu\n", (unsigned long)primes);
  printf("sig division 0x%08lx\n", (unsigned long)division);
  printf("sig regmix   0x%08lx\n", (unsigned long)regmix);
  for (int i = 0; i < 32; i++) {
    printf("sig x%-2d      0x%08lx\n", i, (unsigned long)final_registers[i]);
  }
  uint32_t memory = 0;
  memory = crc32(buffer, sizeof buffer, memory);
  memory = crc32((const uint8_t*)matrix_c, sizeof matrix_c, memory);
  memory = crc32((const uint8_t*)sort_data, sizeof sort_data, memory);
  memory = crc32(composite, sizeof composite, memory);
  printf("sig memory   0x%08lx\n", (unsigned long)memory);
  /* Lines starting with '#' differ between emulators and are not compared
     (scripts/iss-diff): QEMU's counters run on host time unless -icount. */
  printf("# mcycle %llu minstret %llu\n", (unsigned long long)cycles,
         (unsigned long long)instructions);
  return 0;
}
