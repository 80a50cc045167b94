// SPDX-License-Identifier: Apache-2.0
// A reliable-connection queue pair's state and attributes (docs/spec/trn.md
// section 5): the RESET -> INIT -> RTR -> RTS -> ERROR machine, the
// attributes each modify sets, and the checks that make a bad modify fail
// without changing anything (TRN-5.1, TRN-5.3, TRN-5.5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "models/common/result.h"

namespace lq::transport {

enum class QpState { kReset, kInit, kRtr, kRts, kError };

const char* QpStateName(QpState state);

// TRN-5.5's attributes with their defaults.
struct QpAttributes {
  // RESET -> INIT
  uint16_t pkey = 0xFFFF;
  bool remote_write = true;
  bool remote_read = true;
  bool remote_atomic = true;
  // INIT -> RTR
  uint32_t remote_node = 0;
  uint32_t remote_qpn = 0;
  uint32_t pmtu = 4096;
  uint32_t rq_psn = 0;
  uint8_t max_dest_rd_atomic = 16;
  uint8_t min_rnr_timer = 1;  // code: 0.01 ms
  std::string congestion_control = "none";
  // RTR -> RTS
  uint32_t sq_psn = 0;
  uint8_t timeout = 8;  // code: 4.096 us x 2^8 = 1.05 ms
  uint8_t retry_cnt = 7;
  uint8_t rnr_retry = 7;  // 7: retry forever
  uint8_t max_rd_atomic = 16;
};

// One modify: the target state and the attributes its step sets. Fields
// left empty keep their current (initially default) values; INIT -> RTR
// requires the remote node and QPN.
struct QpModify {
  QpState to = QpState::kReset;
  std::optional<uint16_t> pkey;
  std::optional<bool> remote_write, remote_read, remote_atomic;
  std::optional<uint32_t> remote_node, remote_qpn, pmtu, rq_psn;
  std::optional<uint8_t> max_dest_rd_atomic, min_rnr_timer;
  std::optional<std::string> congestion_control;
  std::optional<uint32_t> sq_psn;
  std::optional<uint8_t> timeout, retry_cnt, rnr_retry, max_rd_atomic;
};

class QpContext {
 public:
  QpState state() const { return state_; }
  const QpAttributes& attributes() const { return attributes_; }

  // Applies `modify` if its transition is one TRN-5.1 allows and every
  // attribute it sets is in range (TRN-5.3); otherwise fails and changes
  // nothing. A modify to RESET restores the defaults.
  Result<QpState> Modify(const QpModify& modify);
  // The engine's own transitions to ERROR: retry exhausted, a fatal NAK, a
  // fatal responder error (TRN-5.1). Allowed from RTR and RTS only.
  bool EnterError();

  // TRN-5.2: which side runs and which work requests may be posted.
  bool accepts_packets() const {
    return state_ == QpState::kRtr || state_ == QpState::kRts;
  }
  bool requester_runs() const { return state_ == QpState::kRts; }
  bool may_post_receive() const {
    return state_ == QpState::kInit || state_ == QpState::kRtr ||
           state_ == QpState::kRts;
  }
  bool may_post_send() const { return state_ == QpState::kRts; }

 private:
  QpState state_ = QpState::kReset;
  QpAttributes attributes_;
};

// TRN-5.3's range checks, exposed for the transport engine's CSRs.
bool ValidPmtu(uint32_t pmtu);
// TRN-5.8's registry of congestion-control names.
bool KnownCongestionControl(const std::string& name);

}  // namespace lq::transport
