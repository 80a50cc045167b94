// SPDX-License-Identifier: Apache-2.0
// A seeded model of wire bit errors: independent errors at a BER, error
// bursts, and failed lanes, applied in place to wire bytes (PHY-5.x).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>

#include "models/common/result.h"
#include "models/phy/link_profile.h"

namespace lq::phy {

struct BitErrorConfig {
  double ber = 0.0;         // Probability that any one wire bit is flipped.
  double burst_rate = 0.0;  // Probability that a burst starts at a wire bit.
  unsigned burst_bits = 0;  // Burst length: first and last bit always flip.
};

// What one call did to its buffer.
struct ErrorTally {
  uint64_t bits_flipped = 0;  // Bit toggles (a bit hit twice counts twice).
  uint64_t bursts = 0;        // Bursts that started in this buffer.
};

// Treats successive Apply() buffers as one continuous bit stream, so the
// error process does not restart at flit boundaries. Gaps between errors are
// drawn from a geometric distribution, so the cost is O(errors), not O(bits).
// All randomness comes from the instance's own seeded generators, one per
// process (independent errors, bursts, lane noise) so that how the stream is
// cut into buffers never changes which bits are hit: the same seed and the
// same bytes give the same errors.
class BitErrorChannel {
 public:
  // Fails unless 0 <= ber < 1, 0 <= burst_rate < 1, and burst_bits >= 1
  // whenever burst_rate > 0.
  static Result<BitErrorChannel> Create(const BitErrorConfig& config,
                                        uint64_t seed);

  const BitErrorConfig& config() const { return config_; }
  // From the next bit on, independent errors come at `ber` (the gap to
  // the next one is drawn afresh: the process is memoryless). Fails,
  // changing nothing, outside [0, 1).
  Result<double> SetBer(double ber);

  // Applies the next size * 8 bits of the error process to `data`.
  ErrorTally Apply(uint8_t* data, size_t size);

  // True when the next size * 8 bits of the stream would have a bit flipped:
  // lets a caller skip encoding FEC for a flit no error touches.
  bool Touches(size_t size) const;
  // Advances the stream past size * 8 bits that Touches() said are clean;
  // the same as Apply() on them, without needing the bytes.
  void Skip(size_t size);

  // Replaces every bit that logical lane `lane` carries in the flit at
  // `data` with noise, as a failed lane delivers. `data` starts at a flit
  // boundary. Does not advance the BER process.
  ErrorTally CorruptLane(const LinkProfile& profile, unsigned width,
                         unsigned lane, uint8_t* data, size_t size);

 private:
  BitErrorChannel(const BitErrorConfig& config, uint64_t seed);

  // Clean bits before the next event of a Bernoulli process of `probability`.
  static uint64_t NextGap(double probability, std::mt19937_64& rng);
  void ApplyIndependent(uint8_t* data, uint64_t total_bits, ErrorTally& tally);
  void ApplyBursts(uint8_t* data, uint64_t total_bits, ErrorTally& tally);

  BitErrorConfig config_;
  std::mt19937_64 error_rng_;
  std::mt19937_64 burst_rng_;
  std::mt19937_64 noise_rng_;
  uint64_t bits_to_next_error_;
  uint64_t bits_to_next_burst_;
  unsigned burst_bits_left_ = 0;  // Of a burst that crosses a buffer end.
};

}  // namespace lq::phy
