// The suite's mutants.
#include "testbench/conformance/mutants.h"

#include <stdexcept>

namespace lq::conformance {

namespace {

using flit::FlitType;
using flit::ReplayCommand;

// A DUT that takes every NAK it receives for an ACK: it purges what the
// NAK acknowledges and never resends (against DLL-4.3 and DLL-4.4).
PortTap::Edit IgnoreNaks(const PortTap& tap) {
  return [&tap](PortFlit& flit) {
    if (flit.header && (flit.header->replay == ReplayCommand::kStandardNak ||
                        flit.header->replay == ReplayCommand::kSelectiveNak)) {
      flit::DlpHeader header = *flit.header;
      header.replay = ReplayCommand::kAck;
      tap.Rewrite(flit, header);
    }
    return PortTap::EditResult::kPass;
  };
}

// A DUT that counts 8 more credits per VC than its partner returned, so it
// sends beyond the partner's buffer (against DLL-5.3).
PortTap::Edit OverdrawCredit(const PortTap& tap) {
  return [&tap](PortFlit& flit) {
    if (flit.header && flit.header->type != FlitType::kTraining) {
      flit::DlpHeader header = *flit.header;
      header.credit_count = static_cast<uint16_t>((header.credit_count + 8) %
                                                  flit::kCreditModulus);
      tap.Rewrite(flit, header);
    }
    return PortTap::EditResult::kPass;
  };
}

}  // namespace

std::vector<MutantInfo> Mutants() {
  return {{"ignores-nak", "takes every NAK it receives for an ACK"},
          {"overdraws-credit",
           "counts 8 more credits per VC than its partner returned"}};
}

std::unique_ptr<PortTap> MakeMutant(const std::string& name,
                                    const phy::LinkProfile& profile) {
  auto mutant = std::make_unique<PortTap>("mutant", profile, false);
  if (name == "ignores-nak") {
    mutant->set_to_dut_edit(IgnoreNaks(*mutant));
  } else if (name == "overdraws-credit") {
    mutant->set_to_dut_edit(OverdrawCredit(*mutant));
  } else {
    throw std::invalid_argument("no mutant named '" + name + "'");
  }
  return mutant;
}

}  // namespace lq::conformance
