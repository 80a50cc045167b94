// SPDX-License-Identifier: Apache-2.0
// Geometric-gap generation of bit errors and bursts over a byte stream.
#include "models/phy/bit_error_channel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <string>

namespace lq::phy {

namespace {

constexpr unsigned kBitsPerByte = 8;
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
// 53 random bits make a double in (0, 1] with every value representable.
constexpr unsigned kMantissaShift = 11;
constexpr double kTwoToMinus53 = 1.0 / 9007199254740992.0;

// Stream numbers mixed into the seed: one generator per random process.
constexpr uint32_t kErrorStream = 1;
constexpr uint32_t kBurstStream = 2;
constexpr uint32_t kNoiseStream = 3;

// std::seed_seq's mixing is fixed by the standard, so streams are portable.
std::mt19937_64 SeedStream(uint64_t seed, uint32_t stream) {
  std::seed_seq sequence{static_cast<uint32_t>(seed),
                         static_cast<uint32_t>(seed >> 32), stream};
  return std::mt19937_64(sequence);
}

// Bits are numbered in transmission order: bit 7 of byte 0 first.
void FlipBit(uint8_t* data, uint64_t bit) {
  data[bit / kBitsPerByte] ^=
      static_cast<uint8_t>(0x80u >> (bit % kBitsPerByte));
}

}  // namespace

Result<BitErrorChannel> BitErrorChannel::Create(const BitErrorConfig& config,
                                                uint64_t seed) {
  if (!(config.ber >= 0.0 && config.ber < 1.0)) {
    return Fail("BER must be in [0, 1), got " + std::to_string(config.ber));
  }
  if (!(config.burst_rate >= 0.0 && config.burst_rate < 1.0)) {
    return Fail("burst rate must be in [0, 1), got " +
                std::to_string(config.burst_rate));
  }
  if (config.burst_rate > 0.0 && config.burst_bits == 0) {
    return Fail("bursts need a length of at least 1 bit");
  }
  return BitErrorChannel(config, seed);
}

BitErrorChannel::BitErrorChannel(const BitErrorConfig& config, uint64_t seed)
    : config_(config),
      error_rng_(SeedStream(seed, kErrorStream)),
      burst_rng_(SeedStream(seed, kBurstStream)),
      noise_rng_(SeedStream(seed, kNoiseStream)) {
  bits_to_next_error_ = NextGap(config_.ber, error_rng_);
  bits_to_next_burst_ = NextGap(config_.burst_rate, burst_rng_);
}

Result<double> BitErrorChannel::SetBer(double ber) {
  if (!(ber >= 0.0 && ber < 1.0)) {
    return Fail("BER must be in [0, 1), got " + std::to_string(ber));
  }
  config_.ber = ber;
  bits_to_next_error_ = NextGap(ber, error_rng_);
  return ber;
}

uint64_t BitErrorChannel::NextGap(double probability, std::mt19937_64& rng) {
  if (probability <= 0.0) {
    return kNever;
  }
  // Inverse transform of the geometric distribution, written out rather than
  // taken from <random> so that every standard library draws the same gaps.
  const double uniform =
      static_cast<double>((rng() >> kMantissaShift) + 1) * kTwoToMinus53;
  const double gap = std::floor(std::log(uniform) / std::log1p(-probability));
  if (gap >= static_cast<double>(kNever / 2)) {
    return kNever;
  }
  return static_cast<uint64_t>(gap);
}

ErrorTally BitErrorChannel::Apply(uint8_t* data, size_t size) {
  ErrorTally tally;
  const uint64_t total_bits = uint64_t{size} * kBitsPerByte;
  ApplyIndependent(data, total_bits, tally);
  ApplyBursts(data, total_bits, tally);
  return tally;
}

bool BitErrorChannel::Touches(size_t size) const {
  const uint64_t total_bits = uint64_t{size} * kBitsPerByte;
  return burst_bits_left_ > 0 || bits_to_next_error_ < total_bits ||
         bits_to_next_burst_ < total_bits;
}

void BitErrorChannel::Skip(size_t size) {
  assert(!Touches(size));
  const uint64_t total_bits = uint64_t{size} * kBitsPerByte;
  if (bits_to_next_error_ != kNever) {
    bits_to_next_error_ -= total_bits;
  }
  if (bits_to_next_burst_ != kNever) {
    bits_to_next_burst_ -= total_bits;
  }
}

void BitErrorChannel::ApplyIndependent(uint8_t* data, uint64_t total_bits,
                                       ErrorTally& tally) {
  uint64_t bit = 0;
  while (bits_to_next_error_ < total_bits - bit) {
    bit += bits_to_next_error_;
    FlipBit(data, bit);
    ++tally.bits_flipped;
    ++bit;
    bits_to_next_error_ = NextGap(config_.ber, error_rng_);
  }
  if (bits_to_next_error_ != kNever) {
    bits_to_next_error_ -= total_bits - bit;
  }
}

void BitErrorChannel::ApplyBursts(uint8_t* data, uint64_t total_bits,
                                  ErrorTally& tally) {
  uint64_t bit = 0;
  while (bit < total_bits) {
    if (burst_bits_left_ > 0) {
      // Inside a burst the first and last bits are wrong by definition and
      // the ones between are noise.
      const bool first = burst_bits_left_ == config_.burst_bits;
      const bool last = burst_bits_left_ == 1;
      if (first || last || (burst_rng_() & 1) != 0) {
        FlipBit(data, bit);
        ++tally.bits_flipped;
      }
      --burst_bits_left_;
      ++bit;
      continue;
    }
    if (bits_to_next_burst_ >= total_bits - bit) {
      if (bits_to_next_burst_ != kNever) {
        bits_to_next_burst_ -= total_bits - bit;
      }
      return;
    }
    bit += bits_to_next_burst_;
    burst_bits_left_ = config_.burst_bits;
    ++tally.bursts;
    bits_to_next_burst_ = NextGap(config_.burst_rate, burst_rng_);
  }
}

ErrorTally BitErrorChannel::CorruptLane(const LinkProfile& profile,
                                        unsigned width, unsigned lane,
                                        uint8_t* data, size_t size) {
  ErrorTally tally;
  const uint64_t total_bits = uint64_t{size} * kBitsPerByte;
  const uint64_t stripe = profile.stripe_bits;
  // The lane's stripes (LaneOfWireBit), each bit flipped by one bit of the
  // noise stream, drawn 64 at a time: a draw's set bits are counted when it
  // is drawn, and those of the last draw left unused taken off at the end.
  uint64_t noise = 0;
  unsigned noise_left = 0;
  const auto draw = [&](unsigned bits) {
    if (noise_left == 0) {
      noise = noise_rng_();
      noise_left = 64;
      tally.bits_flipped += static_cast<uint64_t>(__builtin_popcountll(noise));
    }
    const uint64_t drawn = noise & ((uint64_t{1} << bits) - 1);
    noise >>= bits;
    noise_left -= bits;
    return drawn;
  };
  const bool whole_bytes = stripe % kBitsPerByte == 0;
  for (uint64_t first = lane * stripe; first < total_bits;
       first += width * stripe) {
    const uint64_t end = std::min(first + stripe, total_bits);
    if (whole_bytes) {
      for (uint64_t byte = first / kBitsPerByte; byte < end / kBitsPerByte;
           ++byte) {
        data[byte] ^= static_cast<uint8_t>(draw(kBitsPerByte));
      }
      continue;
    }
    for (uint64_t bit = first; bit < end; ++bit) {
      if (draw(1) != 0) {
        FlipBit(data, bit);
      }
    }
  }
  tally.bits_flipped -= static_cast<uint64_t>(__builtin_popcountll(noise));
  return tally;
}

}  // namespace lq::phy
