// SPDX-License-Identifier: Apache-2.0
// Random valid/ready traffic for RTL stream tests: a source that idles at
// random and a sink that stalls at random, with rates a test can change between
// phases.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>

#include "models/common/bytes.h"

namespace lq::rtl {

// Offers random beats. Once it offers one it holds it unchanged until taken, as
// the valid/ready rule requires of every lqemu stream source.
class RandomSource {
 public:
  RandomSource(size_t beat_bytes, double offer_rate, uint32_t seed)
      : rng_(seed), beat_(beat_bytes), offer_rate_(offer_rate) {
    Decide();
  }

  bool valid() const { return valid_; }
  const Bytes& beat() const { return beat_; }
  void set_offer_rate(double offer_rate) { offer_rate_ = offer_rate; }

  // Ends the cycle: `taken` is whether the beat was accepted at this edge.
  void NextCycle(bool taken) {
    if (!valid_ || taken) {
      Decide();
    }
  }

 private:
  void Decide() {
    valid_ = std::bernoulli_distribution(offer_rate_)(rng_);
    if (valid_) {
      for (auto& byte : beat_) {
        byte = static_cast<uint8_t>(rng_());
      }
    }
  }

  std::mt19937 rng_;
  Bytes beat_;
  double offer_rate_;
  bool valid_ = false;
};

// Says each cycle whether the consumer is ready.
class RandomSink {
 public:
  RandomSink(double ready_rate, uint32_t seed)
      : rng_(seed), ready_rate_(ready_rate) {}

  bool NextReady() { return std::bernoulli_distribution(ready_rate_)(rng_); }
  void set_ready_rate(double ready_rate) { ready_rate_ = ready_rate; }

 private:
  std::mt19937 rng_;
  double ready_rate_;
};

}  // namespace lq::rtl
