// SPDX-License-Identifier: Apache-2.0
// RouterFlowControl: PFC messages between neighbours and ECN marks.
#include "systemc/transport/router_flow_control.h"

#include <algorithm>
#include <string>
#include <utility>

#include "models/common/earliest.h"
#include "models/network/route_header.h"
#include "models/roce/addressing.h"
#include "models/roce/frame_edits.h"
#include "systemc/common/cycle_clock.h"

namespace lq::transport {

namespace {

// Ethernet and IPv4 headers: all that ECN marking reads or edits.
constexpr size_t kMarkedHeaderBytes =
    roce::EthernetHeader::kSize + roce::Ipv4Header::kSize;

}  // namespace

RouterFlowControl::RouterFlowControl(const sc_core::sc_module_name& name,
                                     net::Router& router,
                                     const FlowControlConfig& config)
    : sc_module(name),
      router_(router),
      config_(config),
      vc_classes_(router.vc_classes()),
      random_(config.seed),
      ecn_marked_at_(router.port_count(), 0) {
  const roce::MacAddress mac = roce::NodeMac(router.node());
  for (unsigned p = 0; p < router.port_count(); ++p) {
    for (unsigned c = 0; c < vc_classes_; ++c) {
      ingress_.emplace_back(config.pfc_params, mac, static_cast<uint8_t>(c));
      pause_.emplace_back(config.line_rate_bps);
    }
  }
  net::RouterHooks hooks;
  hooks.on_ingress_arrival = [this](unsigned in_port, uint8_t tc, uint64_t held,
                                    Bytes& packet) {
    Mark(in_port, tc, held, packet);
  };
  hooks.inspect_bytes = kMarkedHeaderBytes;
  hooks.on_control = [this](unsigned port, Bytes message,
                            const sc_core::sc_time& delay) {
    Arrive(port, std::move(message), CycleClock::PsAt(delay));
  };
  if (config.pfc) {
    hooks.on_ingress_change = [this](unsigned port, uint8_t tc,
                                     unsigned vc_class, uint64_t bytes) {
      OnIngress(port, tc, vc_class, bytes);
    };
  }
  router.SetHooks(std::move(hooks));
  SC_HAS_PROCESS(RouterFlowControl);
  SC_METHOD(Tick);
  sensitive << tick_;
  dont_initialize();
}

void RouterFlowControl::AttachInterface(net::NetworkInterface& interface) {
  interface_ = &interface;
}

// TRN-9.2: marked with probability p(q) as it joins the queue at its
// input.
void RouterFlowControl::Mark(unsigned in_port, uint8_t tc, uint64_t queued,
                             Bytes& packet) {
  const double p = MarkProbability(config_.ecn[tc], queued);
  if (p <= 0 || packet.size() < net::kRouteHeaderBytes + kMarkedHeaderBytes ||
      (p < 1 && draw_(random_) >= p)) {
    return;
  }
  const auto frame_at = packet.begin() + net::kRouteHeaderBytes;
  Bytes headers(frame_at, frame_at + kMarkedHeaderBytes);
  const auto before = roce::MarkCongestionExperienced(headers);
  if (before && (*before == roce::Ecn::kEct0 || *before == roce::Ecn::kEct1)) {
    std::copy(headers.begin(), headers.end(), frame_at);
    ++counters_.ecn_marked;
    ++ecn_marked_at_[in_port];
  }
}

void RouterFlowControl::OnIngress(unsigned port, uint8_t tc, unsigned vc_class,
                                  uint64_t bytes) {
  if ((config_.pfc_params.priorities & (1u << tc)) != 0) {
    counters_.peak_held_bytes = std::max(counters_.peak_held_bytes, bytes);
  }
  if (auto frame = ingress_[At(port, vc_class)].OnCount(tc, bytes,
                                                        CycleClock::NowPs())) {
    Send(port, *frame);
    Schedule();  // an XOFF's refresh
  }
}

void RouterFlowControl::Send(unsigned port, const roce::PfcFrame& frame) {
  ++counters_.pfc_frames;
  ++(frame.pause_quanta[__builtin_ctz(frame.class_enable)] == 0
         ? counters_.xon_frames
         : counters_.xoff_frames);
  Bytes bytes = roce::EncodePfcFrame(frame);
  if (port == router_.local_port() && router_.port_count() > port) {
    // To the interface, via pause_.
    Arrive(port, std::move(bytes), CycleClock::PsAt(config_.message_delay));
  } else {
    router_.SendControl(port, std::move(bytes), config_.message_delay);
  }
}

void RouterFlowControl::Arrive(unsigned port, Bytes frame, uint64_t due_ps) {
  const auto at = std::upper_bound(
      in_flight_.begin(), in_flight_.end(), due_ps,
      [](uint64_t due, const InFlight& f) { return due < f.due_ps; });
  in_flight_.insert(at, InFlight{due_ps, port, std::move(frame)});
  Schedule();
}

void RouterFlowControl::Apply(unsigned port, unsigned vc_class, uint8_t changed,
                              uint64_t now_ps) {
  for (uint8_t tc = 0; tc < net::Router::kTrafficClasses; ++tc) {
    if ((changed & (1u << tc)) == 0) {
      continue;
    }
    const bool paused = pause_[At(port, vc_class)].paused(tc);
    bool other_classes = false;  // paused for `tc`: the output already was
    for (unsigned c = 0; c < vc_classes_; ++c) {
      other_classes |= c != vc_class && pause_[At(port, c)].paused(tc);
    }
    if (pause_observer_ && !other_classes) {
      pause_observer_(port, tc, paused, now_ps);
    }
    if (port == router_.local_port() && interface_ != nullptr) {
      interface_->SetPaused(tc, paused || other_classes);
    } else if (port < router_.local_port()) {
      router_.SetPaused(port, tc, vc_class, paused);
    }
  }
}

void RouterFlowControl::Tick() {
  const uint64_t now = CycleClock::NowPs();
  while (!in_flight_.empty() && in_flight_.front().due_ps <= now) {
    const InFlight message = std::move(in_flight_.front());
    in_flight_.pop_front();
    const auto frame = roce::ParsePfcFrame(message.frame);
    if (!frame || frame->vc_class >= vc_classes_) {
      ++counters_.bad_frames;  // TRN-8.2, TRN-8.11: rejected
      continue;
    }
    const unsigned at = At(message.port, frame->vc_class);
    Apply(message.port, frame->vc_class, pause_[at].OnFrame(*frame, now), now);
  }
  for (unsigned p = 0; p < router_.port_count(); ++p) {
    for (unsigned c = 0; c < vc_classes_; ++c) {
      Apply(p, c, pause_[At(p, c)].Advance(now), now);
      if (auto refresh = ingress_[At(p, c)].OnTimer(now)) {
        Send(p, *refresh);
      }
    }
  }
  Schedule();
}

void RouterFlowControl::Schedule() {
  std::optional<uint64_t> next;
  if (!in_flight_.empty()) {
    KeepEarliest(next, in_flight_.front().due_ps);
  }
  for (unsigned p = 0; p < pause_.size(); ++p) {
    KeepEarliest(next, pause_[p].next_expiry_ps());
    KeepEarliest(next, ingress_[p].next_timer_ps());
  }
  if (next) {
    tick_.notify(CycleClock::OffsetOfPs(*next));
  }
}

uint64_t RouterFlowControl::paused_ps(unsigned port, uint8_t tc) const {
  uint64_t sum = 0;
  for (unsigned c = 0; c < vc_classes_; ++c) {
    sum += pause_.at(At(port, c)).paused_ps(tc, CycleClock::NowPs());
  }
  return sum;
}

const ComponentDecl& RouterFlowControl::Declaration() {
  static const ComponentDecl decl{
      "flow",
      "a router's PFC and ECN marking (trn.md sections 8 and 9)",
      {},
      {{"pfc_frames", "PFC messages sent (TRN-8.10)"},
       {"xoff_frames", "of them XOFF"},
       {"xon_frames", "of them XON"},
       {"bad_pfc_frames", "PFC messages received and rejected (TRN-8.2)"},
       {"ecn_marked", "packets marked CE (TRN-9.2)"},
       {"peak_held_bytes",
        "most bytes any input held for a PFC priority (TRN-8.9)"},
       {"port<p>.ecn_marked",
        "packets marked CE as they joined input p's queue (p the local "
        "port's number: those injected); only when non-zero"},
       {"port<p>.tc<t>.paused_ps",
        "time output p spent paused for priority t, summed over its VC "
        "classes; only when non-zero"}}};
  return decl;
}

StatList RouterFlowControl::Stats() const {
  StatWriter stats(Declaration(), std::string(name()) + ".");
  stats.Add("pfc_frames", counters_.pfc_frames)
      .Add("xoff_frames", counters_.xoff_frames)
      .Add("xon_frames", counters_.xon_frames)
      .Add("bad_pfc_frames", counters_.bad_frames)
      .Add("ecn_marked", counters_.ecn_marked)
      .Add("peak_held_bytes", counters_.peak_held_bytes);
  for (unsigned p = 0; p < router_.port_count(); ++p) {
    if (ecn_marked_at_[p] > 0) {
      stats.Add("port<p>.ecn_marked", {std::to_string(p)}, ecn_marked_at_[p]);
    }
    for (uint8_t tc = 0; tc < net::Router::kTrafficClasses; ++tc) {
      if (const uint64_t ps = paused_ps(p, tc); ps > 0) {
        stats.Add("port<p>.tc<t>.paused_ps",
                  {std::to_string(p), std::to_string(tc)}, ps);
      }
    }
  }
  return stats.Take();
}

}  // namespace lq::transport
