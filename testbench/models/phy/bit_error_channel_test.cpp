// SPDX-License-Identifier: Apache-2.0
// Tests of the seeded bit-error channel: determinism, error statistics,
// burst shape and lane failure (PHY-5.x).
#include "models/phy/bit_error_channel.h"

#include <gtest/gtest.h>

#include <bitset>
#include <cmath>
#include <vector>

namespace lq::phy {
namespace {

BitErrorChannel MakeChannel(const BitErrorConfig& config, uint64_t seed) {
  return BitErrorChannel::Create(config, seed).value();
}

uint64_t DifferingBits(const std::vector<uint8_t>& a,
                       const std::vector<uint8_t>& b) {
  uint64_t count = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    count += std::bitset<8>(a[i] ^ b[i]).count();
  }
  return count;
}

TEST(BitErrorChannel, PHY_5_2_SameSeedGivesSameErrors) {
  const BitErrorConfig config{1e-3, 1e-5, 12};
  BitErrorChannel first = MakeChannel(config, 77);
  BitErrorChannel second = MakeChannel(config, 77);
  BitErrorChannel other = MakeChannel(config, 78);
  std::vector<uint8_t> a(100000, 0x55), b = a, c = a;
  first.Apply(a.data(), a.size());
  second.Apply(b.data(), b.size());
  other.Apply(c.data(), c.size());
  EXPECT_EQ(a, b) << "a run must be reproducible from its seed";
  EXPECT_NE(a, c) << "a different seed must give different errors";
}

TEST(BitErrorChannel, PHY_5_2_ErrorProcessContinuesAcrossBuffers) {
  const BitErrorConfig config{2e-3, 1e-4, 20};
  BitErrorChannel whole = MakeChannel(config, 5);
  BitErrorChannel pieces = MakeChannel(config, 5);
  std::vector<uint8_t> a(50000, 0), b(50000, 0);
  whole.Apply(a.data(), a.size());
  // Odd piece sizes make errors and bursts straddle buffer boundaries.
  for (size_t offset = 0; offset < b.size();) {
    const size_t size = std::min<size_t>(37, b.size() - offset);
    pieces.Apply(b.data() + offset, size);
    offset += size;
  }
  EXPECT_EQ(a, b) << "flit boundaries must not restart the error process";
}

TEST(BitErrorChannel, PHY_5_2_SkippingCleanBuffersKeepsTheStream) {
  // A PHY skips FEC for flits no error touches; skipping must leave the
  // stream exactly where applying would have.
  const BitErrorConfig config{3e-4, 2e-5, 16};
  BitErrorChannel applied = MakeChannel(config, 9);
  BitErrorChannel skipping = MakeChannel(config, 9);
  constexpr size_t kFlitBytes = 256;
  size_t skipped = 0;
  for (int flit = 0; flit < 2000; ++flit) {
    std::vector<uint8_t> a(kFlitBytes, 0), b(kFlitBytes, 0);
    const bool touched = skipping.Touches(kFlitBytes);
    applied.Apply(a.data(), a.size());
    if (touched) {
      skipping.Apply(b.data(), b.size());
    } else {
      skipping.Skip(kFlitBytes);
      ++skipped;
    }
    ASSERT_EQ(a, b) << "flit " << flit << ": skipping moved the stream";
    if (!touched) {
      ASSERT_EQ(a, std::vector<uint8_t>(kFlitBytes, 0))
          << "flit " << flit << ": Touches() said clean but bits flipped";
    }
  }
  EXPECT_GT(skipped, 1000u) << "most flits are clean at this BER";
  EXPECT_LT(skipped, 2000u) << "some flits must be hit for the test to bite";
}

TEST(BitErrorChannel, PHY_5_1_ErrorCountMatchesBerTimesBits) {
  constexpr double kBer = 1e-4;
  constexpr size_t kBytes = 12500000;  // 1e8 bits: 1e4 errors expected.
  BitErrorChannel channel = MakeChannel({kBer, 0, 0}, 2024);
  std::vector<uint8_t> data(kBytes, 0);
  const ErrorTally tally = channel.Apply(data.data(), data.size());
  const double expected = kBer * kBytes * 8;
  // Five standard deviations of a binomial count; the seed is fixed, so this
  // checks the distribution, not luck.
  EXPECT_NEAR(static_cast<double>(tally.bits_flipped), expected,
              5 * std::sqrt(expected))
      << "independent errors must arrive at the configured BER";
  EXPECT_EQ(DifferingBits(data, std::vector<uint8_t>(kBytes, 0)),
            tally.bits_flipped)
      << "the tally must count what was flipped";
  EXPECT_EQ(tally.bursts, 0u) << "no bursts were configured";
}

TEST(BitErrorChannel, PHY_5_1_ZeroBerLeavesDataAlone) {
  BitErrorChannel channel = MakeChannel({}, 1);
  std::vector<uint8_t> data(4096, 0xA5);
  const ErrorTally tally = channel.Apply(data.data(), data.size());
  EXPECT_EQ(tally.bits_flipped, 0u);
  EXPECT_EQ(data, std::vector<uint8_t>(4096, 0xA5)) << "BER 0 is error-free";
}

TEST(BitErrorChannel, PHY_5_3_BurstsStartAndEndWithAnErrorAndStayInLength) {
  constexpr unsigned kBurstBits = 16;
  constexpr double kRate = 1e-5;
  BitErrorChannel channel = MakeChannel({0, kRate, kBurstBits}, 99);
  std::vector<uint8_t> data(1250000, 0);  // 1e7 bits: ~100 bursts.
  const ErrorTally tally = channel.Apply(data.data(), data.size());
  EXPECT_NEAR(static_cast<double>(tally.bursts), kRate * 1e7,
              5 * std::sqrt(kRate * 1e7))
      << "bursts must start at the configured rate";
  // Walk the flipped bits: each cluster (errors closer than a burst length)
  // must span at most kBurstBits, since bursts never overlap at this rate.
  std::vector<uint64_t> flipped;
  for (uint64_t bit = 0; bit < data.size() * 8; ++bit) {
    if (data[bit / 8] & (0x80 >> (bit % 8))) {
      flipped.push_back(bit);
    }
  }
  ASSERT_FALSE(flipped.empty());
  size_t clusters = 0;
  for (size_t i = 0; i < flipped.size();) {
    size_t j = i;
    while (j + 1 < flipped.size() && flipped[j + 1] - flipped[i] < kBurstBits) {
      ++j;
    }
    EXPECT_EQ(flipped[j] - flipped[i] + 1, kBurstBits)
        << "a burst flips its first and last bit, so it spans exactly its "
           "length";
    ++clusters;
    i = j + 1;
  }
  EXPECT_EQ(clusters, tally.bursts) << "one cluster per burst";
}

TEST(BitErrorChannel, PHY_5_4_FailedLaneCorruptsOnlyItsOwnBits) {
  const LinkProfile pcie6 = FindLinkProfile("pcie6").value();
  BitErrorChannel channel = MakeChannel({}, 3);
  std::vector<uint8_t> flit(pcie6.flit_wire_bytes, 0);
  const ErrorTally tally =
      channel.CorruptLane(pcie6, 16, 5, flit.data(), flit.size());
  EXPECT_GT(tally.bits_flipped, 40u) << "a dead lane delivers noise";
  uint64_t flipped = 0;
  for (const uint8_t byte : flit) {
    flipped += static_cast<uint64_t>(__builtin_popcount(byte));
  }
  EXPECT_EQ(flipped, tally.bits_flipped) << "the tally counts each flip";
  for (size_t byte = 0; byte < flit.size(); ++byte) {
    if (byte % 16 != 5) {
      EXPECT_EQ(flit[byte], 0) << "byte " << byte << " is not on lane 5";
    }
  }
}

TEST(BitErrorChannel, PHY_5_4_FailedLaneFollowsStripesWiderThanAByte) {
  const LinkProfile ib = FindLinkProfile("ib").value();
  ASSERT_NE(ib.stripe_bits % 8, 0u) << "this case needs stripes off bytes";
  BitErrorChannel channel = MakeChannel({}, 3);
  const unsigned width = 4, lane = 2;
  std::vector<uint8_t> flit(ib.flit_wire_bytes, 0);
  const ErrorTally tally =
      channel.CorruptLane(ib, width, lane, flit.data(), flit.size());
  uint64_t flipped = 0;
  for (uint64_t bit = 0; bit < flit.size() * 8u; ++bit) {
    if ((flit[bit / 8] << (bit % 8)) & 0x80) {  // bit 7 of byte 0 first
      EXPECT_EQ(LaneOfWireBit(ib, width, bit), lane) << "bit " << bit;
      ++flipped;
    }
  }
  EXPECT_EQ(flipped, tally.bits_flipped);
  const uint64_t lane_bits = flit.size() * 8u / width;
  EXPECT_GT(tally.bits_flipped, lane_bits / 3) << "about half are noise";
  EXPECT_LT(tally.bits_flipped, lane_bits * 2 / 3);
}

TEST(BitErrorChannel, PHY_5_1_ABerChangeTakesEffectFromTheNextBit) {
  BitErrorChannel channel = MakeChannel({}, 5);
  std::vector<uint8_t> clean(1 << 16, 0);
  EXPECT_EQ(channel.Apply(clean.data(), clean.size()).bits_flipped, 0u);
  ASSERT_TRUE(channel.SetBer(1e-3).ok());
  std::vector<uint8_t> noisy(1 << 16, 0);
  const uint64_t flipped =
      channel.Apply(noisy.data(), noisy.size()).bits_flipped;
  const double expected = 1e-3 * noisy.size() * 8;  // about 524
  EXPECT_GT(flipped, expected * 0.8);
  EXPECT_LT(flipped, expected * 1.2);
  ASSERT_TRUE(channel.SetBer(0).ok());
  EXPECT_EQ(channel.Apply(clean.data(), clean.size()).bits_flipped, 0u);
  EXPECT_FALSE(channel.SetBer(1.0).ok());
  EXPECT_DOUBLE_EQ(channel.config().ber, 0) << "a refused rate changes nothing";
}

TEST(BitErrorChannel, RejectsInvalidConfiguration_fail) {
  EXPECT_FALSE(BitErrorChannel::Create({1.5, 0, 0}, 1).ok()) << "BER > 1";
  EXPECT_FALSE(BitErrorChannel::Create({-1e-6, 0, 0}, 1).ok()) << "BER < 0";
  EXPECT_FALSE(BitErrorChannel::Create({0, 1e-6, 0}, 1).ok())
      << "a burst needs a length";
  EXPECT_FALSE(BitErrorChannel::Create({std::nan(""), 0, 0}, 1).ok())
      << "NaN is not a probability";
}

}  // namespace
}  // namespace lq::phy
