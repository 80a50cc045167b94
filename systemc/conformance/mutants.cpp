// SPDX-License-Identifier: Apache-2.0
// The suite's mutants.
#include "systemc/conformance/mutants.h"

#include <functional>
#include <memory>
#include <stdexcept>

#include "models/flit/sequence.h"
#include "systemc/conformance/frame_mutants.h"
#include "systemc/conformance/router_mutants.h"

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

// Rewrites the DLP of the flits the DUT sends that `applies` picks.
PortTap::Edit RewriteSent(const PortTap& tap,
                          std::function<bool(flit::DlpHeader&)> change) {
  return [&tap, change](PortFlit& flit) {
    if (flit.header) {
      flit::DlpHeader header = *flit.header;
      if (change(header)) {
        tap.Rewrite(flit, header);
      }
    }
    return PortTap::EditResult::kPass;
  };
}

// A DUT whose NOPs carry the number before the newest flit sent (against
// DLL-2.4).
bool StaleWatermark(flit::DlpHeader& header) {
  if (header.type != FlitType::kNop) {
    return false;
  }
  header.flit_seq = flit::SeqAdd(header.flit_seq, -1);
  return true;
}

// A DUT that skips number 100 (against DLL-2.1).
bool SkipsANumber(flit::DlpHeader& header) {
  if (header.type != FlitType::kPayload || header.flit_seq < 100) {
    return false;
  }
  header.flit_seq = flit::SeqAdd(header.flit_seq, 1);
  return true;
}

// A DUT that sends ACKs only in one flit of 8 (against DLL-3.9).
PortTap::Edit LazyAcks(const PortTap& tap) {
  auto acks = std::make_shared<uint64_t>(0);
  return RewriteSent(tap, [acks](flit::DlpHeader& header) {
    if (header.type == FlitType::kIdle ||
        header.replay != ReplayCommand::kAck || ++*acks % 8 == 0) {
      return false;
    }
    header.replay = ReplayCommand::kNone;
    header.ack_seq = 0;
    return true;
  });
}

// A DUT that always reports VC 0's credit count (against DLL-5.5).
PortTap::Edit OneCreditVc(const PortTap& tap) {
  auto vc0 = std::make_shared<uint16_t>(0);
  return RewriteSent(tap, [vc0](flit::DlpHeader& header) {
    if (header.type == FlitType::kTraining) {
      return false;
    }
    if (header.credit_vc == 0) {
      *vc0 = header.credit_count;
    }
    header.credit_vc = 0;
    header.credit_count = *vc0;
    return true;
  });
}

}  // namespace

std::vector<MutantInfo> Mutants() {
  std::vector<MutantInfo> mutants{
      {"ignores-nak", "dll", "takes every NAK it receives for an ACK"},
      {"overdraws-credit", "dll",
       "counts 8 more credits per VC than its partner returned"},
      {"stale-watermark", "dll",
       "sends NOPs whose watermark is one behind the newest flit"},
      {"skips-a-number", "dll", "numbers its flits 0..99, then 101, 102, ..."},
      {"lazy-acks", "dll", "sends only one ACK in 8 that are due"},
      {"one-credit-vc", "dll", "reports only VC 0's credit count"}};
  for (auto layer : {FrameMutants, RouterMutants}) {
    for (MutantInfo& mutant : layer()) {
      mutants.push_back(std::move(mutant));
    }
  }
  return mutants;
}

std::unique_ptr<PortTap> MakeMutant(const std::string& name,
                                    const phy::LinkProfile& profile) {
  if (MakeFrameMutant(name) || MakeRouterMutant(name)) {
    return nullptr;
  }
  auto mutant = std::make_unique<PortTap>("mutant", profile, false);
  if (name == "ignores-nak") {
    mutant->set_to_dut_edit(IgnoreNaks(*mutant));
  } else if (name == "overdraws-credit") {
    mutant->set_to_dut_edit(OverdrawCredit(*mutant));
  } else if (name == "stale-watermark") {
    mutant->set_from_dut_edit(RewriteSent(*mutant, StaleWatermark));
  } else if (name == "skips-a-number") {
    mutant->set_from_dut_edit(RewriteSent(*mutant, SkipsANumber));
  } else if (name == "lazy-acks") {
    mutant->set_from_dut_edit(LazyAcks(*mutant));
  } else if (name == "one-credit-vc") {
    mutant->set_from_dut_edit(OneCreditVc(*mutant));
  } else {
    throw std::invalid_argument("no mutant named '" + name + "'");
  }
  return mutant;
}

}  // namespace lq::conformance
