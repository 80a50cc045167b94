// SPDX-License-Identifier: Apache-2.0
// Tests of PTEs, translation and the page table (docs/spec/log.md LOG-5.2
// to LOG-5.4).
#include "models/logical/page_table.h"

#include <gtest/gtest.h>

namespace lq::logical {
namespace {

AddressSpace Space() {
  AddressSpace space;
  space.endpoints = 16;
  return space;  // 64 KiB pages, 16 GiB direct regions
}

Pte Mapped(uint16_t home, uint32_t frame) {
  Pte pte;
  pte.valid = pte.read = pte.write = pte.atomic = true;
  pte.home = home;
  pte.frame = frame;
  return pte;
}

TEST(PageTable, LOG_5_3_PteBitsSitWhereTheTableSays) {
  Pte pte = Mapped(0x1234, 0x89ABCDEF);
  pte.write = false;
  EXPECT_EQ(pte.Encode(), 0x89ABCDEF1234000Bu)
      << "VALID, R, A at bits 0, 1, 3; HOME 31:16; FRAME 63:32";
  EXPECT_EQ(Pte::Decode(pte.Encode()).value(), pte);
  Pte migrating;
  migrating.migrating = true;
  EXPECT_EQ(migrating.Encode(), 0x10u);
}

TEST(PageTable, LOG_5_3_ReservedBitsAreRefused_fail) {
  for (unsigned bit = 5; bit < 16; ++bit) {
    EXPECT_FALSE(Pte::Decode(uint64_t{1} << bit).ok()) << "bit " << bit;
  }
}

TEST(PageTable, LOG_5_3_EntriesOutsideTheCardAreRefused_fail) {
  const AddressSpace space = Space();
  EXPECT_FALSE(PteProblem(space, Mapped(15, 0)).has_value());
  EXPECT_TRUE(PteProblem(space, Mapped(16, 0)).has_value()) << "no node 16";
  const auto frames =
      static_cast<uint32_t>(space.direct_bytes / space.page_bytes);
  EXPECT_FALSE(PteProblem(space, Mapped(3, frames - 1)).has_value());
  EXPECT_TRUE(PteProblem(space, Mapped(3, frames)).has_value())
      << "the frame after the last lies outside the direct region";
}

TEST(PageTable, LOG_5_4_TranslationAndEveryFaultCause) {
  const AddressSpace space = Space();
  const uint64_t ga = GlobalAddress(2, space.direct_bytes + 0x10123);
  const Pte pte = Mapped(7, 40);
  const TranslateResult hit = Translate(space, &pte, AccessKind::kLoad, ga);
  ASSERT_TRUE(hit.translation.has_value());
  EXPECT_EQ(hit.translation->home, 7);
  EXPECT_EQ(hit.translation->home_offset, 40u * 0x10000 + 0x0123)
      << "FRAME x page size + the offset in the page";

  EXPECT_EQ(Translate(space, nullptr, AccessKind::kLoad, ga).cause,
            FaultCause::kNotMapped);
  Pte invalid = pte;
  invalid.valid = false;
  EXPECT_EQ(Translate(space, &invalid, AccessKind::kStore, ga).cause,
            FaultCause::kNotMapped);
  Pte read_only = pte;
  read_only.write = read_only.atomic = false;
  EXPECT_TRUE(Translate(space, &read_only, AccessKind::kLoad, ga).translation);
  EXPECT_EQ(Translate(space, &read_only, AccessKind::kStore, ga).cause,
            FaultCause::kNoWrite);
  EXPECT_EQ(Translate(space, &read_only, AccessKind::kAtomic, ga).cause,
            FaultCause::kNoAtomic);
  Pte write_only = pte;
  write_only.read = false;
  EXPECT_EQ(Translate(space, &write_only, AccessKind::kLoad, ga).cause,
            FaultCause::kNoRead);
  Pte migrating = pte;
  migrating.migrating = true;
  EXPECT_TRUE(Translate(space, &migrating, AccessKind::kLoad, ga).translation)
      << "loads go on during a migration";
  EXPECT_EQ(Translate(space, &migrating, AccessKind::kStore, ga).cause,
            FaultCause::kMigrating);
  EXPECT_EQ(Translate(space, &migrating, AccessKind::kAtomic, ga).cause,
            FaultCause::kMigrating);
}

TEST(PageTable, LOG_5_2_FullTableEvictsTheLeastRecentlyUsed) {
  PageTable table(3);
  table.Install(10, Mapped(1, 1));
  table.Install(11, Mapped(1, 2));
  table.Install(12, Mapped(1, 3));
  ASSERT_NE(table.Find(10), nullptr);  // 11 is now the least recent
  table.Install(13, Mapped(1, 4));
  EXPECT_EQ(table.size(), 3u);
  EXPECT_EQ(table.evictions(), 1u);
  EXPECT_EQ(table.Find(11), nullptr) << "evicted: an access refaults";
  EXPECT_NE(table.Find(10), nullptr);
  EXPECT_NE(table.Find(12), nullptr);
  table.Install(12, Mapped(2, 9));
  EXPECT_EQ(table.Find(12)->home, 2) << "reinstalling replaces";
  EXPECT_EQ(table.size(), 3u);
  EXPECT_TRUE(table.Remove(12));
  EXPECT_FALSE(table.Remove(12));
  EXPECT_EQ(table.Find(12), nullptr);
}

TEST(PageTable, LOG_6_8_RemoveRangeTakesExactlyThePagesInIt) {
  // A short range walks its pages; a long one walks the table instead.
  for (const uint64_t count : {uint64_t{4}, uint64_t{1} << 40}) {
    PageTable table(16);
    for (uint64_t page = 0; page < 10; ++page) {
      table.Install(100 + page, Mapped(1, 0));
    }
    const uint64_t first = count == 4 ? 103 : 105;
    const size_t expected = count == 4 ? 4 : 5;
    EXPECT_EQ(table.RemoveRange(first, count), expected);
    EXPECT_EQ(table.size(), 10 - expected);
    EXPECT_NE(table.Find(first - 1), nullptr) << "the page before stays";
    EXPECT_EQ(table.Find(first), nullptr);
    if (count == 4) {
      EXPECT_NE(table.Find(107), nullptr) << "the page after stays";
    }
  }
  PageTable near_the_top(4);
  near_the_top.Install(~uint64_t{0}, Mapped(1, 0));
  near_the_top.Install(0, Mapped(1, 0));
  EXPECT_EQ(near_the_top.RemoveRange(~uint64_t{0}, uint64_t{1} << 20), 1u)
      << "a range running past the last page number does not wrap";
  EXPECT_EQ(near_the_top.size(), 1u);
}

}  // namespace
}  // namespace lq::logical
