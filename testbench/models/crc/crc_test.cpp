// SPDX-License-Identifier: Apache-2.0
// Unit tests of the CRC engine: published check values, an independent
// implementation (Boost.CRC, zlib) and the register-level API the ICRC uses.
#include "models/crc/crc.h"

#include <zlib.h>

#include <boost/crc.hpp>
#include <cctype>
#include <cstring>
#include <random>
#include <string>

#include "gtest/gtest.h"

namespace lq::crc {
namespace {

const std::string kCheckInput = "123456789";

ByteView AsBytes(const std::string& text) {
  return ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

Bytes RandomBytes(size_t size, uint64_t seed) {
  std::mt19937_64 generator(seed);
  Bytes bytes(size);
  for (auto& byte : bytes) {
    byte = static_cast<uint8_t>(generator());
  }
  return bytes;
}

// A test name from a catalogue name: letters and digits, the rest '_'.
std::string CatalogueName(const ::testing::TestParamInfo<CrcParams>& info) {
  std::string name = info.param.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      c = '_';
    }
  }
  return name;
}

class CatalogueTest : public ::testing::TestWithParam<CrcParams> {};

TEST_P(CatalogueTest, MatchesPublishedCheckValue) {
  const CrcEngine engine(GetParam());
  EXPECT_EQ(engine.Compute(AsBytes(kCheckInput)), GetParam().check)
      << GetParam().name << " disagrees with the published catalogue";
}

TEST_P(CatalogueTest, SplitUpdatesEqualOneShot) {
  // Slicing-by-8 must give the same register whatever the chunking is.
  const CrcEngine engine(GetParam());
  const Bytes data = RandomBytes(1000, 7);
  const uint64_t whole = engine.Compute(data);
  for (size_t split : {0, 1, 7, 8, 9, 63, 500, 999}) {
    uint64_t reg = engine.Begin();
    reg = engine.Update(reg, ByteView(data.data(), split));
    reg =
        engine.Update(reg, ByteView(data.data() + split, data.size() - split));
    EXPECT_EQ(engine.Finish(reg), whole)
        << GetParam().name << " split at " << split;
  }
}

class FoldTest : public ::testing::TestWithParam<CrcParams> {};

TEST_P(FoldTest, FoldedRunsEqualTheTables) {
  // The carry-less fold against the tables alone, from random registers, on
  // every length up to a few hundred bytes (each tail and block count).
  const CrcEngine fastest(GetParam());
  const CrcEngine tables(GetParam(), CrcMethod::kTablesOnly);
  ASSERT_FALSE(tables.folds_with_clmul());
  if (!fastest.folds_with_clmul()) {
    GTEST_SKIP() << GetParam().name << " is not folded on this processor";
  }
  const Bytes data = RandomBytes(700, 11);
  std::mt19937_64 registers(13);
  for (size_t size = 0; size <= data.size(); ++size) {
    const uint64_t reg = registers() >> (64 - GetParam().width);
    const ByteView run(data.data(), size);
    ASSERT_EQ(fastest.Update(reg, run), tables.Update(reg, run))
        << GetParam().name << " over " << size << " bytes";
  }
}

INSTANTIATE_TEST_SUITE_P(Crc, CatalogueTest,
                         ::testing::Values(kCrc32IsoHdlc, kCrc32C, kCrc32Bzip2,
                                           kCrc16Ib, kCrc16Dllp, kCrc64Xz),
                         CatalogueName);

// The reflected algorithms, which the engine folds.
INSTANTIATE_TEST_SUITE_P(Crc, FoldTest,
                         ::testing::Values(kCrc32IsoHdlc, kCrc32C, kCrc16Ib,
                                           kCrc64Xz),
                         CatalogueName);

// Boost.CRC is an independent implementation: agreement on random data of
// many lengths (including the tails slicing-by-8 handles byte-wise) rules out
// a table or folding bug that the nine-byte check value could miss.
TEST(CrcEngine, PHY_2_3_Crc64XzAgreesWithBoost) {
  for (size_t size : {0, 1, 5, 8, 13, 242, 642, 4096}) {
    const Bytes data = RandomBytes(size, size + 1);
    boost::crc_optimal<64, 0x42F0E1EBA9EA3693, 0xFFFFFFFFFFFFFFFF,
                       0xFFFFFFFFFFFFFFFF, true, true>
        reference;
    reference.process_bytes(data.data(), data.size());
    EXPECT_EQ(Crc64Xz().Compute(data), reference.checksum())
        << "flit CRC differs from Boost.CRC for " << size << " bytes";
  }
}

TEST(CrcEngine, Crc32AgreesWithBoostAndZlib) {
  for (size_t size : {0, 3, 8, 17, 1500, 9000}) {
    const Bytes data = RandomBytes(size, size + 11);
    boost::crc_32_type boost_crc;
    boost_crc.process_bytes(data.data(), data.size());
    const uint64_t zlib_crc =
        crc32(0L, data.data(), static_cast<uInt>(data.size()));
    EXPECT_EQ(Crc32().Compute(data), boost_crc.checksum()) << size;
    EXPECT_EQ(Crc32().Compute(data), zlib_crc) << size;
  }
}

TEST(CrcEngine, Crc16IbAgreesWithBoost) {
  for (size_t size : {0, 2, 9, 64, 257}) {
    const Bytes data = RandomBytes(size, size + 5);
    // 0x100B reflected, as the IB VCRC is defined (protocol-facts §3).
    boost::crc_optimal<16, 0x100B, 0xFFFF, 0xFFFF, true, true> reference;
    reference.process_bytes(data.data(), data.size());
    EXPECT_EQ(Crc16Ib().Compute(data), reference.checksum()) << size;
  }
}

TEST(CrcEngine, Crc32CAgreesWithBoost) {
  const Bytes data = RandomBytes(777, 3);
  boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true>
      reference;
  reference.process_bytes(data.data(), data.size());
  EXPECT_EQ(Crc32C().Compute(data), reference.checksum());
}

// The RoCEv2 ICRC starts from the register left by eight 0xFF bytes standing
// in for the absent LRH; Linux rxe hard-codes it as 0xDEBB20E3.
TEST(CrcEngine, TRN_3_1_IcrcSeedAfterEightOnes) {
  const Bytes ones(8, 0xFF);
  EXPECT_EQ(Crc32().Update(Crc32().Begin(), ones), 0xDEBB20E3u)
      << "ICRC pre-load disagrees with the rxe constant";
}

TEST(CrcEngine, PHY_2_3_DetectsEverySingleBitErrorInAFlit) {
  Bytes data = RandomBytes(242, 99);
  const uint64_t good = Crc64Xz().Compute(data);
  for (size_t bit = 0; bit < data.size() * 8; ++bit) {
    data[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    EXPECT_NE(Crc64Xz().Compute(data), good) << "missed flip of bit " << bit;
    data[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  }
}

}  // namespace
}  // namespace lq::crc
