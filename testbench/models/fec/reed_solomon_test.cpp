// SPDX-License-Identifier: Apache-2.0
// Tests of the Reed-Solomon codec: generator, encoding, and decoding of
// every correctable error pattern the flit profiles rely on.
#include "models/fec/reed_solomon.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

namespace lq::fec {
namespace {

ReedSolomon Pcie6Code(size_t n) {
  return ReedSolomon::Create(
             GaloisField::Create(kGf256Bits, kGf256Poly).value(), n, n - 2)
      .value();
}

ReedSolomon Kp4Code() {
  return ReedSolomon::Create(
             GaloisField::Create(kGf1024Bits, kGf1024Poly).value(), 544, 514)
      .value();
}

// c(x) at x, with symbol 0 the highest-degree coefficient; computed directly
// so the check does not reuse the decoder's syndrome path.
Symbol Evaluate(const GaloisField& gf, const std::vector<Symbol>& word,
                Symbol x) {
  Symbol value = 0;
  for (Symbol coefficient : word) {
    value = gf.Mul(value, x) ^ coefficient;
  }
  return value;
}

std::vector<Symbol> RandomCodeword(const ReedSolomon& rs,
                                   std::mt19937_64& rng) {
  std::vector<Symbol> word(rs.n());
  for (size_t i = 0; i < rs.k(); ++i) {
    word[i] = static_cast<Symbol>(rng() & rs.field().order());
  }
  rs.Encode(word.data(), word.data() + rs.k());
  return word;
}

// Adds `count` non-zero errors at distinct random positions.
std::set<size_t> InjectErrors(const ReedSolomon& rs, std::vector<Symbol>& word,
                              size_t count, std::mt19937_64& rng) {
  std::set<size_t> positions;
  while (positions.size() < count) {
    positions.insert(rng() % rs.n());
  }
  for (size_t position : positions) {
    word[position] ^= static_cast<Symbol>(1 + rng() % rs.field().order());
  }
  return positions;
}

TEST(ReedSolomon, PHY_3_2_Pcie6CodewordsHaveRootsOneAndAlpha) {
  std::mt19937_64 rng(1);
  for (size_t n : {85, 86}) {
    const ReedSolomon rs = Pcie6Code(n);
    EXPECT_EQ(rs.generator().size(), 3u) << "two check symbols per codeword";
    for (int trial = 0; trial < 100; ++trial) {
      const std::vector<Symbol> word = RandomCodeword(rs, rng);
      EXPECT_EQ(Evaluate(rs.field(), word, 1), 0) << "alpha^0 must be a root";
      EXPECT_EQ(Evaluate(rs.field(), word, 2), 0) << "alpha^1 must be a root";
    }
  }
}

TEST(ReedSolomon, PHY_3_4_Kp4CodewordsHaveRootsAlpha0To29) {
  const ReedSolomon rs = Kp4Code();
  EXPECT_EQ(rs.correctable(), 15u) << "RS(544,514) corrects 15 symbols";
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<Symbol> word = RandomCodeword(rs, rng);
    for (int j = 0; j < 30; ++j) {
      ASSERT_EQ(Evaluate(rs.field(), word, rs.field().Exp(j)), 0)
          << "every codeword must vanish at alpha^" << j;
    }
  }
}

TEST(ReedSolomon, PHY_3_6_CleanCodewordDecodesClean) {
  std::mt19937_64 rng(3);
  for (const ReedSolomon& rs : {Pcie6Code(86), Pcie6Code(85), Kp4Code()}) {
    for (int trial = 0; trial < 50; ++trial) {
      std::vector<Symbol> word = RandomCodeword(rs, rng);
      const std::vector<Symbol> sent = word;
      const RsDecodeReport report = rs.Decode(word.data());
      EXPECT_EQ(report.status, RsStatus::kClean) << "no error, no correction";
      EXPECT_EQ(report.corrected(), 0u);
      EXPECT_EQ(word, sent) << "a clean decode must not touch the word";
    }
  }
}

TEST(ReedSolomon, PHY_3_3_EverySingleSymbolErrorInPcie6CodewordsIsCorrected) {
  std::mt19937_64 rng(4);
  for (size_t n : {85, 86}) {
    const ReedSolomon rs = Pcie6Code(n);
    const std::vector<Symbol> sent = RandomCodeword(rs, rng);
    for (size_t position = 0; position < n; ++position) {
      for (Symbol error : {0x01, 0x80, 0xFF, 0x5A}) {
        std::vector<Symbol> word = sent;
        word[position] ^= error;
        const RsDecodeReport report = rs.Decode(word.data());
        ASSERT_EQ(report.status, RsStatus::kCorrected)
            << "RS(" << n << ") must correct one error at " << position;
        ASSERT_EQ(report.corrected_positions, std::vector<size_t>{position})
            << "the report must name the corrected symbol";
        ASSERT_EQ(word, sent) << "correction must restore the sent word";
      }
    }
  }
}

TEST(ReedSolomon, PHY_3_4_EverySingleSymbolErrorInKp4IsCorrected) {
  std::mt19937_64 rng(5);
  const ReedSolomon rs = Kp4Code();
  const std::vector<Symbol> sent = RandomCodeword(rs, rng);
  for (size_t position = 0; position < rs.n(); ++position) {
    std::vector<Symbol> word = sent;
    word[position] ^= static_cast<Symbol>(1 + rng() % 1023);
    const RsDecodeReport report = rs.Decode(word.data());
    ASSERT_EQ(report.status, RsStatus::kCorrected) << "position " << position;
    ASSERT_EQ(word, sent) << "position " << position;
  }
}

TEST(ReedSolomon, PHY_3_4_UpToFifteenRandomErrorsInKp4AreCorrected) {
  std::mt19937_64 rng(6);
  const ReedSolomon rs = Kp4Code();
  for (size_t errors = 1; errors <= rs.correctable(); ++errors) {
    for (int trial = 0; trial < 40; ++trial) {
      const std::vector<Symbol> sent = RandomCodeword(rs, rng);
      std::vector<Symbol> word = sent;
      const std::set<size_t> positions = InjectErrors(rs, word, errors, rng);
      const RsDecodeReport report = rs.Decode(word.data());
      ASSERT_EQ(report.status, RsStatus::kCorrected)
          << errors << " errors are within t = 15";
      ASSERT_EQ(report.corrected_positions,
                std::vector<size_t>(positions.begin(), positions.end()))
          << "the report must list exactly the damaged positions";
      ASSERT_EQ(word, sent) << errors << " errors must be fully repaired";
    }
  }
}

TEST(ReedSolomon, PHY_3_6_Kp4BeyondFifteenErrorsIsDetectedAndUntouched) {
  std::mt19937_64 rng(7);
  const ReedSolomon rs = Kp4Code();
  int detected = 0;
  int trials = 0;
  for (size_t errors : {16, 17, 20, 30, 64}) {
    for (int trial = 0; trial < 100; ++trial, ++trials) {
      std::vector<Symbol> word = RandomCodeword(rs, rng);
      InjectErrors(rs, word, errors, rng);
      const std::vector<Symbol> received = word;
      const RsDecodeReport report = rs.Decode(word.data());
      if (report.status == RsStatus::kUncorrectable) {
        ++detected;
        ASSERT_EQ(word, received)
            << "an uncorrectable word must be left as received";
      }
    }
  }
  // A random word lies within 15 symbols of a wrong codeword with
  // probability about 1e-16, so any miss here is a decoder bug.
  EXPECT_EQ(detected, trials) << "every pattern beyond t must be detected";
}

TEST(ReedSolomon,
     PHY_3_7_Pcie6DoubleErrorsAreMostlyDetectedNeverSilentlyClean) {
  std::mt19937_64 rng(8);
  const ReedSolomon rs = Pcie6Code(86);
  int detected = 0;
  int miscorrected = 0;
  constexpr int kTrials = 20000;
  for (int trial = 0; trial < kTrials; ++trial) {
    const std::vector<Symbol> sent = RandomCodeword(rs, rng);
    std::vector<Symbol> word = sent;
    InjectErrors(rs, word, 2, rng);
    const RsDecodeReport report = rs.Decode(word.data());
    ASSERT_NE(report.status, RsStatus::kClean)
        << "distance 3 means two errors can never look like a codeword";
    if (report.status == RsStatus::kUncorrectable) {
      ++detected;
    } else {
      ++miscorrected;
      ASSERT_NE(word, sent) << "a t=1 code cannot repair two errors";
    }
  }
  // About (1 + 86*255)/65536 = 1/3 of double errors land within one symbol
  // of another codeword; that is why the flit CRC exists (PHY-3.7).
  EXPECT_GT(detected, kTrials / 2) << "most double errors must be detected";
  EXPECT_GT(miscorrected, kTrials / 5)
      << "miscorrection rate far below theory suggests a broken decoder";
  EXPECT_LT(miscorrected, kTrials / 2);
}

TEST(ReedSolomon, CorrectsUpToTWithOtherFirstRoot) {
  // The codec is generic: RS(255,223) with roots alpha^1..alpha^32.
  const ReedSolomon rs =
      ReedSolomon::Create(GaloisField::Create(kGf256Bits, kGf256Poly).value(),
                          255, 223, 1)
          .value();
  std::mt19937_64 rng(9);
  for (size_t errors = 0; errors <= 16; ++errors) {
    const std::vector<Symbol> sent = RandomCodeword(rs, rng);
    std::vector<Symbol> word = sent;
    InjectErrors(rs, word, errors, rng);
    const RsDecodeReport report = rs.Decode(word.data());
    ASSERT_EQ(report.corrected(), errors);
    ASSERT_EQ(word, sent) << errors << " errors, first root 1";
  }
}

TEST(ReedSolomon, RejectsImpossibleParameters_fail) {
  const GaloisField gf = GaloisField::Create(kGf256Bits, kGf256Poly).value();
  EXPECT_FALSE(ReedSolomon::Create(gf, 256, 250).ok()) << "n > 2^m - 1";
  EXPECT_FALSE(ReedSolomon::Create(gf, 10, 10).ok()) << "no parity";
  EXPECT_FALSE(ReedSolomon::Create(gf, 10, 0).ok()) << "no message";
  EXPECT_FALSE(ReedSolomon::Create(gf, 10, 7).ok()) << "odd parity count";
  EXPECT_FALSE(ReedSolomon::Create(gf, 255, 100).ok()) << "parity above 64";
}

}  // namespace
}  // namespace lq::fec
