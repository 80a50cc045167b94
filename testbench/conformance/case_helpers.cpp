// Shared waits and descriptions of the conformance cases.
#include "testbench/conformance/case_helpers.h"

#include <cstdio>

#include "generated/cpp/lc_regs.h"
#include "models/flit/sequence.h"

namespace lq::conformance {

namespace regs = lq::regs::lc;
using sc_core::SC_NS;
using sc_core::sc_time;

bool Verdict::Expect(bool ok, const std::string& evidence) {
  if (!ok) {
    if (failures_ == 0) {
      evidence_ = "at " + Micros(sc_core::sc_time_stamp()) + ": " + evidence;
    }
    ++failures_;
  }
  return ok;
}

std::string Micros(const sc_time& time) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f us", time.to_seconds() * 1e6);
  return text;
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

std::optional<size_t> WaitForFlit(
    CaseContext& context, FlitDirection direction, size_t from,
    const std::function<bool(const PortFlit&)>& match, const sc_time& until) {
  const PortTap& tap = context.bench.tap();
  size_t next = from;
  while (true) {
    const auto& log = tap.log();
    for (; next < log.size(); ++next) {
      if (log[next].at > until) {
        return std::nullopt;
      }
      if (log[next].direction == direction && match(log[next])) {
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

sc_time FlitTime(const ConformanceBench& bench) {
  const phy::LinkProfile& profile = bench.profile();
  return sc_time(
      static_cast<double>(phy::FlitTimePs(profile, profile.max_lanes)),
      sc_core::SC_PS);
}

}  // namespace lq::conformance
