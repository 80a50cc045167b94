// SPDX-License-Identifier: Apache-2.0
// Verilator tests of prim_rr_arbiter: legal grants, exact round-robin order
// against a reference model, and no starvation, for several requester counts.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "Vprim_rr_arbiter_n2.h"
#include "Vprim_rr_arbiter_n4.h"
#include "Vprim_rr_arbiter_n5.h"
#include "testbench/rtl/common/clocked_model.h"

namespace lq::rtl {
namespace {

// The parameter variants built by CMakeLists.txt.
struct Requesters2 {
  using Model = Vprim_rr_arbiter_n2;
  static constexpr int kRequesters = 2;
};
struct Requesters4 {
  using Model = Vprim_rr_arbiter_n4;
  static constexpr int kRequesters = 4;
};
struct Requesters5 {
  using Model = Vprim_rr_arbiter_n5;
  static constexpr int kRequesters = 5;
};

constexpr int kCycles = 20000;
constexpr uint32_t kSeed = 20240607;
constexpr int kNoGrant = -1;

// Reference: the first requester at or after `next_`, which moves past each
// used grant.
class RoundRobinModel {
 public:
  explicit RoundRobinModel(int requesters) : requesters_(requesters) {}

  int Grant(uint32_t requests) const {
    for (int offset = 0; offset < requesters_; ++offset) {
      const int index = (next_ + offset) % requesters_;
      if (requests & (1u << index)) {
        return index;
      }
    }
    return kNoGrant;
  }

  void Use(int granted) { next_ = (granted + 1) % requesters_; }

 private:
  int requesters_;
  int next_ = 0;
};

uint32_t OneHot(int index) { return index == kNoGrant ? 0 : 1u << index; }

template <typename Variant>
class ArbiterTest : public ::testing::Test {
 protected:
  ArbiterTest() {
    sim_.dut().req_i = 0;
    sim_.dut().advance_i = 0;
    sim_.Reset();
  }
  ClockedModel<typename Variant::Model> sim_;
};

using Variants = ::testing::Types<Requesters2, Requesters4, Requesters5>;
TYPED_TEST_SUITE(ArbiterTest, Variants);

TYPED_TEST(ArbiterTest, GrantsExactlyAsRoundRobinUnderRandomRequests) {
  auto& dut = this->sim_.dut();
  std::mt19937 rng(kSeed);
  std::uniform_int_distribution<uint32_t> requests(
      0, (1u << TypeParam::kRequesters) - 1);
  std::bernoulli_distribution grant_used(0.6);
  RoundRobinModel model(TypeParam::kRequesters);
  for (int cycle = 0; cycle < kCycles; ++cycle) {
    dut.req_i = requests(rng);
    dut.advance_i = grant_used(rng);
    this->sim_.Settle();
    const int expected = model.Grant(dut.req_i);
    ASSERT_EQ(dut.gnt_o, OneHot(expected))
        << "grant differs from round-robin for requests 0x" << std::hex
        << +dut.req_i << std::dec << ", cycle " << cycle;
    if (dut.advance_i && expected != kNoGrant) {
      model.Use(expected);
    }
    this->sim_.Tick();
  }
  EXPECT_EQ(this->sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TYPED_TEST(ArbiterTest, NoRequesterWaitsMoreThanOneRound) {
  // Requesters behave like stream sources: once raised, a request stays up
  // until its grant is used. Each must then be served before any other
  // requester is served twice, i.e. within N - 1 grants to others.
  constexpr int kRequesters = TypeParam::kRequesters;
  auto& dut = this->sim_.dut();
  std::mt19937 rng(kSeed);
  std::bernoulli_distribution raise(0.3);
  std::bernoulli_distribution grant_used(0.7);
  std::vector<int> others_served(kRequesters, 0);
  std::vector<int> served(kRequesters, 0);
  uint32_t pending = 0;
  for (int cycle = 0; cycle < kCycles; ++cycle) {
    for (int r = 0; r < kRequesters; ++r) {
      if (raise(rng)) {
        pending |= 1u << r;
      }
    }
    dut.req_i = pending;
    dut.advance_i = grant_used(rng);
    this->sim_.Settle();
    if (dut.advance_i && dut.gnt_o != 0) {
      for (int r = 0; r < kRequesters; ++r) {
        if (dut.gnt_o == 1u << r) {
          pending &= ~(1u << r);
          others_served[r] = 0;
          ++served[r];
        } else if (pending & (1u << r)) {
          ASSERT_LT(++others_served[r], kRequesters)
              << "requester " << r << " starved past one round, cycle "
              << cycle;
        }
      }
    }
    this->sim_.Tick();
  }
  for (int r = 0; r < kRequesters; ++r) {
    EXPECT_GT(served[r], kCycles / (4 * kRequesters))
        << "requester " << r << " got too small a share";
  }
  EXPECT_EQ(this->sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TYPED_TEST(ArbiterTest, RotatesThroughAllWhenAllRequest) {
  constexpr int kRequesters = TypeParam::kRequesters;
  auto& dut = this->sim_.dut();
  dut.req_i = (1u << kRequesters) - 1;
  dut.advance_i = 1;
  for (int round = 0; round < 3; ++round) {
    for (int r = 0; r < kRequesters; ++r) {
      this->sim_.Settle();
      ASSERT_EQ(dut.gnt_o, 1u << r)
          << "with everyone requesting, grants go 0, 1, ..., N-1 in turn";
      this->sim_.Tick();
    }
  }
  EXPECT_EQ(this->sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

TYPED_TEST(ArbiterTest, KeepsGrantUntilUsed) {
  constexpr int kRequesters = TypeParam::kRequesters;
  auto& dut = this->sim_.dut();
  dut.req_i = (1u << kRequesters) - 1;
  dut.advance_i = 1;
  this->sim_.Tick();  // Requester 0 served: requester 1 is next.
  dut.advance_i = 0;
  for (int cycle = 0; cycle < 5; ++cycle) {
    this->sim_.Settle();
    ASSERT_EQ(dut.gnt_o, 1u << 1)
        << "an unused grant must not move, cycle " << cycle;
    this->sim_.Tick();
  }
  EXPECT_EQ(this->sim_.assertion_failures(), 0) << "an RTL assertion fired";
}

}  // namespace
}  // namespace lq::rtl
