// SPDX-License-Identifier: Apache-2.0
// Shared waits and descriptions of the conformance cases.
#include "systemc/conformance/case_helpers.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <stdexcept>

#include "generated/cpp/lc_regs.h"
#include "models/flit/sequence.h"
#include "systemc/common/time_text.h"

namespace lq::conformance {

namespace regs = lq::regs::lc;
using sc_core::SC_NS;
using sc_core::sc_time;

bool Verdict::Expect(bool ok, const std::string& evidence,
                     std::initializer_list<const char*> clauses) {
  if (ok) {
    return true;
  }
  const std::string stamped =
      "at " + Micros(sc_core::sc_time_stamp()) + ": " + evidence;
  if (first_.empty()) {
    first_ = stamped;
  }
  if (clauses.size() == 0) {
    failures_.emplace("", stamped);
  }
  for (const char* clause : clauses) {
    failures_.emplace(clause, stamped);
  }
  return false;
}

std::string HexBytes(ByteView bytes) {
  std::string text;
  char byte[4];
  for (uint8_t value : bytes) {
    std::snprintf(byte, sizeof(byte), text.empty() ? "%02x" : " %02x", value);
    text += byte;
  }
  return text;
}

regs::Ltssm DutLtssm(CaseContext& context) {
  return static_cast<regs::Ltssm>(regs::kStatusLtssm.Read(
      context.bench.dut_csr().Read(regs::kStatusOffset)));
}

uint32_t ResetValue(std::string_view register_name) {
  for (const lq::regs::Register& reg : regs::kRegisters) {
    if (reg.name == register_name) {
      return reg.reset;
    }
  }
  throw std::invalid_argument("no register " + std::string(register_name));
}

bool WaitLinkUp(CaseContext& context, const sc_time& within) {
  const sc_time until = sc_core::sc_time_stamp() + within;
  while (sc_core::sc_time_stamp() < until) {
    const uint32_t status = context.bench.dut_csr().Read(regs::kStatusOffset);
    if (status != 0xFFFFFFFFu && regs::kStatusLinkUp.Read(status) != 0) {
      return true;
    }
    sc_core::wait(100, SC_NS);
  }
  context.verdict.Fail("the link did not come up within " + Micros(within));
  return false;
}

bool AwaitTraffic(CaseContext& context) {
  ConformanceBench& bench = context.bench;
  bench.dut_net().ExpectSlots(bench.traffic().peer_slots);
  bench.peer_net().ExpectSlots(bench.traffic().dut_slots);
  if (!WaitLinkUp(context, kLinkUpWithin)) {
    return false;
  }
  bench.dut_net().WaitForExpected();
  bench.peer_net().WaitForExpected();
  return true;
}

bool WriteCtrl(RegisterMaster& csr, uint32_t set, uint32_t clear) {
  return csr.Write(regs::kCtrlOffset, (ResetValue("CTRL") | set) & ~clear);
}

void WriteCreditInit(RegisterMaster& csr, uint32_t credits) {
  for (unsigned vc = 0; vc < flit::kLinkVcs; ++vc) {
    csr.Write(regs::CreditInitOffset(vc), credits);
  }
}

void WaitForNewPayloads(const PortTap& tap, size_t count) {
  while (NewPayloadsFromDut(tap).size() < count) {
    sc_core::wait(tap.recorded());
  }
}

sc_core::sc_time WaitForLinkDown(RegisterMaster& csr, sc_core::sc_time since,
                                 const sc_core::sc_time& within,
                                 const sc_core::sc_time& poll) {
  while (sc_core::sc_time_stamp() < since + within &&
         csr.Read(regs::kLinkDownsOffset) == 0) {
    sc_core::wait(poll);
  }
  return sc_core::sc_time_stamp() - since;
}

void WaitUntil(const sc_time& at) {
  if (at > sc_core::sc_time_stamp()) {
    sc_core::wait(at - sc_core::sc_time_stamp());
  }
}

std::optional<size_t> WaitForFlit(
    CaseContext& context, FlitDirection direction, size_t from,
    const std::function<bool(const PortFlit&)>& match, const sc_time& until) {
  const PortTap& tap = context.bench.tap();
  size_t next = from;
  while (true) {
    const auto& log = tap.log();
    // The log is in recorded order, not time order: a record past
    // `until` does not mean that no later one is before it.
    for (; next < log.size(); ++next) {
      if (log[next].at <= until && log[next].direction == direction &&
          match(log[next])) {
        return next;
      }
    }
    const sc_time now = sc_core::sc_time_stamp();
    if (now >= until) {
      return std::nullopt;
    }
    sc_core::wait(until - now, tap.recorded());
  }
}

std::string Describe(const PortFlit& flit) {
  std::string text =
      flit.direction == FlitDirection::kFromDut ? "from DUT: " : "to DUT: ";
  if (!flit.header) {
    return text + "bad flit at " + Micros(flit.at);
  }
  const flit::DlpHeader& h = *flit.header;
  text += flit::FlitTypeName(h.type);
  if (h.type == flit::FlitType::kPayload) {
    text += " vc " + std::to_string(h.payload_vc);
  }
  text += " seq " + std::to_string(h.flit_seq);
  if (h.replay != flit::ReplayCommand::kNone) {
    text += std::string(" ") + flit::ReplayCommandName(h.replay) + " " +
            std::to_string(h.ack_seq);
  }
  text += " credit vc " + std::to_string(h.credit_vc) + " = " +
          std::to_string(h.credit_count) + " at " + Micros(flit.at);
  return text;
}

bool ExpectDeliveredOnce(CaseContext& context,
                         const testing::SlotEndpoint& endpoint, uint64_t slots,
                         const std::string& who,
                         std::initializer_list<const char*> clauses) {
  const testing::SlotReport& report = endpoint.report();
  return context.verdict.Expect(
      report.delivered == slots && report.lost == 0 && report.duplicated == 0 &&
          report.corrupted == 0,
      who + " received " + Str(report.delivered) + " of " + Str(slots) +
          " slots in order and intact; lost " + Str(report.lost) +
          ", duplicated " + Str(report.duplicated) + ", corrupted " +
          Str(report.corrupted),
      clauses);
}

std::vector<size_t> NewPayloadsFromDut(const PortTap& tap) {
  std::vector<size_t> fresh;
  std::optional<uint16_t> newest;
  const auto& log = tap.log();
  for (size_t i = 0; i < log.size(); ++i) {
    const PortFlit& flit = log[i];
    if (flit.direction != FlitDirection::kFromDut ||
        !flit.Is(flit::FlitType::kPayload)) {
      continue;
    }
    if (!newest || flit::SeqIsAfter(flit.header->flit_seq, *newest)) {
      newest = flit.header->flit_seq;
      fresh.push_back(i);
    }
  }
  return fresh;
}

std::vector<size_t> ByTime(const PortTap& tap) {
  const auto& log = tap.log();
  std::vector<size_t> order(log.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&log](size_t a, size_t b) {
    return log[a].at < log[b].at;
  });
  return order;
}

PortTap::Edit StripReplayCommands(const PortTap& tap,
                                  std::function<bool()> active) {
  return [&tap, active](PortFlit& flit) {
    if (flit.header && flit.header->replay != flit::ReplayCommand::kNone &&
        flit.header->type != flit::FlitType::kIdle && (!active || active())) {
      flit::DlpHeader header = *flit.header;
      header.replay = flit::ReplayCommand::kNone;
      header.ack_seq = 0;
      tap.Rewrite(flit, header);
    }
    return PortTap::EditResult::kPass;
  };
}

PortTap::Edit ZeroCreditCounts(const PortTap& tap) {
  return [&tap](PortFlit& flit) {
    if (flit.header && flit.header->type != flit::FlitType::kTraining &&
        flit.header->credit_count != 0) {
      flit::DlpHeader header = *flit.header;
      header.credit_count = 0;
      tap.Rewrite(flit, header);
    }
    return PortTap::EditResult::kPass;
  };
}

sc_time FlitTime(const ConformanceBench& bench) {
  const phy::LinkProfile& profile = bench.profile();
  return sc_time(
      static_cast<double>(phy::FlitTimePs(profile, profile.max_lanes)),
      sc_core::SC_PS);
}

}  // namespace lq::conformance
