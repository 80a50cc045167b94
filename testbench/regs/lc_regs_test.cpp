// SPDX-License-Identifier: Apache-2.0
// Checks of the generated C++ register descriptors of the link controller
// (lq::regs::lc).
#include "generated/cpp/lc_regs.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

namespace lq::regs::lc {
namespace {

constexpr std::uint32_t kRegisterBytes = 4;
constexpr unsigned kRegisterBits = 32;
constexpr std::size_t kMinVirtualChannels = 4;

// The register list of the link-controller issue: the RTL, the TL model and
// the firmware all rely on these names.
constexpr std::string_view kRequiredRegisters[] = {
    // control and status
    "ID", "CTRL", "STATUS", "ERR_INJECT", "REPLAY_TIMEOUT", "REPLAY_LIMIT",
    // interrupts
    "IRQ_STATUS", "IRQ_ENABLE",
    // counters
    "TX_FLITS_LO", "TX_FLITS_HI", "RX_FLITS_LO", "RX_FLITS_HI", "CRC_ERRORS",
    "FEC_CORRECTED", "NAKS_SENT", "NAKS_RECEIVED", "REPLAYS", "RETRAINS",
    "LINK_DOWNS"};

const Register* Find(std::string_view name) {
  for (const Register& reg : kRegisters) {
    if (reg.name == name) {
      return &reg;
    }
  }
  return nullptr;
}

const Field* FindField(const Register& reg, std::string_view name) {
  for (const Field& f : reg.fields) {
    if (f.name == name) {
      return &f;
    }
  }
  return nullptr;
}

// The table must be usable at compile time so a register bank can be built
// from it without start-up work.
static_assert(kRegisters.size() > 0, "register table is empty");
static_assert(kRegisters[0].DefinedBits() != 0,
              "descriptors must be constexpr");

TEST(LcRegs, OffsetsAreAlignedUniqueAndInsideTheWindow) {
  std::set<std::uint32_t> offsets;
  for (const Register& reg : kRegisters) {
    EXPECT_EQ(reg.offset % kRegisterBytes, 0u)
        << reg.name
        << ": a misaligned register cannot be reached by a word access";
    EXPECT_LE(reg.offset + kRegisterBytes, kBlockSize)
        << reg.name << ": register lies outside the block's window";
    EXPECT_TRUE(offsets.insert(reg.offset).second)
        << reg.name << ": two registers at one offset make decoding ambiguous";
  }
}

TEST(LcRegs, RegisterTableIsInAddressOrderWithUniqueNames) {
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < kRegisters.size(); ++i) {
    EXPECT_TRUE(names.insert(kRegisters[i].name).second)
        << kRegisters[i].name
        << ": names identify registers in traces and stats";
    if (i > 0) {
      EXPECT_LT(kRegisters[i - 1].offset, kRegisters[i].offset)
          << "the table is documented to be in address order";
    }
  }
}

TEST(LcRegs, FieldsLieWithinTheWordAndDoNotOverlap) {
  for (const Register& reg : kRegisters) {
    ASSERT_GT(reg.fields.size(), 0u) << reg.name << " has no field";
    std::uint32_t seen = 0;
    for (const Field& f : reg.fields) {
      EXPECT_GE(f.width, 1u) << reg.name << "." << f.name;
      EXPECT_LE(f.lsb + f.width, kRegisterBits)
          << reg.name << "." << f.name << " reaches past bit 31";
      EXPECT_EQ(seen & f.Mask(), 0u)
          << reg.name << "." << f.name << " overlaps another field";
      seen |= f.Mask();
    }
    EXPECT_EQ(seen, reg.DefinedBits()) << reg.name;
  }
}

TEST(LcRegs, ResetValuesFitTheirFieldsAndMakeTheRegisterReset) {
  for (const Register& reg : kRegisters) {
    std::uint32_t assembled = 0;
    for (const Field& f : reg.fields) {
      EXPECT_EQ((f.reset << f.lsb) & ~f.Mask(), 0u)
          << reg.name << "." << f.name << ": reset value wider than the field";
      assembled |= f.reset << f.lsb;
      if (f.access == Access::kWrite1Pulse) {
        EXPECT_EQ(f.reset, 0u) << reg.name << "." << f.name
                               << ": a pulse field reads 0, so it resets to 0";
      }
    }
    EXPECT_EQ(assembled, reg.reset)
        << reg.name << ": register reset disagrees with its fields' resets";
    EXPECT_EQ(reg.reset & ~reg.DefinedBits(), 0u)
        << reg.name << ": reserved bits must read 0";
  }
}

TEST(LcRegs, HasEveryRegisterTheLinkControllerNeeds) {
  for (std::string_view name : kRequiredRegisters) {
    EXPECT_NE(Find(name), nullptr) << "missing register " << name;
  }
  EXPECT_GE(kCreditInitCount, kMinVirtualChannels)
      << "credits are configured per VC for at least 4 VCs";
  EXPECT_GE(kCreditAvailCount, kMinVirtualChannels)
      << "credits are reported per VC for at least 4 VCs";
}

TEST(LcRegs, ArrayInstancesSitAtTheirComputedOffsets) {
  for (std::uint32_t vc = 0; vc < kCreditInitCount; ++vc) {
    const Register* init = Find("CREDIT_INIT_VC" + std::to_string(vc));
    ASSERT_NE(init, nullptr) << "VC " << vc;
    EXPECT_EQ(init->offset, CreditInitOffset(vc))
        << "firmware computes per-VC offsets; they must match the table";
  }
  for (std::uint32_t vc = 0; vc < kCreditAvailCount; ++vc) {
    const Register* avail = Find("CREDIT_AVAIL_VC" + std::to_string(vc));
    ASSERT_NE(avail, nullptr) << "VC " << vc;
    EXPECT_EQ(avail->offset, CreditAvailOffset(vc));
  }
}

TEST(LcRegs, EveryInterruptCauseHasAnEnableAtTheSameBit) {
  const Register* status = Find("IRQ_STATUS");
  const Register* enable = Find("IRQ_ENABLE");
  ASSERT_NE(status, nullptr);
  ASSERT_NE(enable, nullptr);
  EXPECT_EQ(status->fields.size(), enable->fields.size());
  for (const Field& cause : status->fields) {
    EXPECT_EQ(cause.access, Access::kWrite1Clear)
        << cause.name << ": interrupt causes are cleared by writing 1";
    const Field* gate = FindField(*enable, cause.name);
    ASSERT_NE(gate, nullptr) << cause.name << " cannot be enabled";
    EXPECT_EQ(gate->Mask(), cause.Mask())
        << cause.name << ": the line is STATUS AND ENABLE bit by bit";
  }
}

TEST(LcRegs, EnumFieldsCanHoldEveryNamedValue) {
  auto max_of = [](const Field& f) { return f.Mask() >> f.lsb; };
  EXPECT_LE(static_cast<std::uint32_t>(Ltssm::kDisabled), max_of(kStatusLtssm));
  EXPECT_LE(static_cast<std::uint32_t>(Width::kX16), max_of(kStatusWidth));
  EXPECT_LE(static_cast<std::uint32_t>(Width::kX16), max_of(kCtrlTargetWidth));
  EXPECT_LE(static_cast<std::uint32_t>(Speed::kGb200), max_of(kStatusSpeed));
  EXPECT_LE(static_cast<std::uint32_t>(Profile::kIb), max_of(kCtrlProfile));
}

}  // namespace
}  // namespace lq::regs::lc
