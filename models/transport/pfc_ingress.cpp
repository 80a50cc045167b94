// SPDX-License-Identifier: Apache-2.0
// PfcIngress: TRN-8.5's XOFF/XON hysteresis and refresh.
#include "models/transport/pfc_ingress.h"

#include "models/common/earliest.h"

namespace lq::transport {

PfcIngress::PfcIngress(const PfcParams& params, const roce::MacAddress& src,
                       uint8_t vc_class)
    : params_(params), src_(src), vc_class_(vc_class) {}

roce::PfcFrame PfcIngress::Message() const {
  roce::PfcFrame frame;
  frame.src = src_;
  frame.vc_class = vc_class_;
  return frame;
}

std::optional<roce::PfcFrame> PfcIngress::OnCount(uint8_t priority,
                                                  uint64_t bytes,
                                                  uint64_t now_ps) {
  if (priority >= roce::kPfcPriorities ||
      (params_.priorities & (1u << priority)) == 0) {
    return std::nullopt;  // TRN-8.1: PFC is off for this priority
  }
  bool& xoff = xoff_[priority];
  const bool rose = !xoff && bytes > params_.xoff_bytes;
  const bool fell = xoff && bytes <= params_.xon_bytes;
  if (!rose && !fell) {
    return std::nullopt;
  }
  xoff = rose;
  roce::PfcFrame frame = Message();
  frame.class_enable = static_cast<uint8_t>(1u << priority);
  frame.pause_quanta[priority] = rose ? params_.pause_quanta : 0;  // 0: XON
  refresh_at_[priority] = now_ps + params_.refresh_ps;
  return frame;
}

std::optional<roce::PfcFrame> PfcIngress::OnTimer(uint64_t now_ps) {
  roce::PfcFrame frame = Message();
  for (unsigned p = 0; p < roce::kPfcPriorities; ++p) {
    if (xoff_[p] && refresh_at_[p] <= now_ps) {
      frame.class_enable |= static_cast<uint8_t>(1u << p);
      frame.pause_quanta[p] = params_.pause_quanta;
      refresh_at_[p] = now_ps + params_.refresh_ps;
    }
  }
  if (frame.class_enable == 0) {
    return std::nullopt;
  }
  return frame;
}

std::optional<uint64_t> PfcIngress::next_timer_ps() const {
  std::optional<uint64_t> next;
  for (unsigned p = 0; p < roce::kPfcPriorities; ++p) {
    if (xoff_[p]) {
      KeepEarliest(next, refresh_at_[p]);
    }
  }
  return next;
}

}  // namespace lq::transport
