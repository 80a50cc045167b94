// SPDX-License-Identifier: Apache-2.0
// QpContext: TRN-5.1's transitions and TRN-5.3's attribute checks.
#include "models/transport/qp_state.h"

#include <algorithm>
#include <vector>

#include "models/roce/psn.h"
#include "models/transport/congestion_control.h"

namespace lq::transport {

namespace {

// The modify-requested transitions of the TRN-5.1 diagram.
bool ModifyAllowed(QpState from, QpState to) {
  switch (to) {
    case QpState::kReset:
      return true;  // from any state
    case QpState::kInit:
      return from == QpState::kReset;
    case QpState::kRtr:
      return from == QpState::kInit;
    case QpState::kRts:
      return from == QpState::kRtr;
    case QpState::kError:
      return from == QpState::kInit || from == QpState::kRtr ||
             from == QpState::kRts;
  }
  return false;
}

// The attributes each step may set (TRN-5.5): setting one at another step
// is an error, as is setting one on a move to ERROR or RESET.
bool SetsOnlyItsStep(const QpModify& m) {
  const bool init =
      m.pkey || m.remote_write || m.remote_read || m.remote_atomic;
  const bool rtr = m.remote_node || m.remote_qpn || m.pmtu || m.rq_psn ||
                   m.max_dest_rd_atomic || m.min_rnr_timer ||
                   m.congestion_control;
  const bool rts =
      m.sq_psn || m.timeout || m.retry_cnt || m.rnr_retry || m.max_rd_atomic;
  return (!init || m.to == QpState::kInit) && (!rtr || m.to == QpState::kRtr) &&
         (!rts || m.to == QpState::kRts);
}

constexpr uint8_t kTimerCodeMax = 31;
constexpr uint8_t kRetryMax = 7;

}  // namespace

const char* QpStateName(QpState state) {
  switch (state) {
    case QpState::kReset:
      return "RESET";
    case QpState::kInit:
      return "INIT";
    case QpState::kRtr:
      return "RTR";
    case QpState::kRts:
      return "RTS";
    case QpState::kError:
      return "ERROR";
  }
  return "?";
}

bool ValidPmtu(uint32_t pmtu) {
  return pmtu == 256 || pmtu == 512 || pmtu == 1024 || pmtu == 2048 ||
         pmtu == 4096;
}

bool KnownCongestionControl(const std::string& name) {
  const std::vector<std::string> names = CongestionControlNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

Result<QpState> QpContext::Modify(const QpModify& m) {
  if (!ModifyAllowed(state_, m.to)) {
    return Fail(std::string("no transition ") + QpStateName(state_) + " -> " +
                QpStateName(m.to) + " (TRN-5.1)");
  }
  if (!SetsOnlyItsStep(m)) {
    return Fail("an attribute set at the wrong step (TRN-5.5)");
  }
  if (m.to == QpState::kRtr && (!m.remote_node || !m.remote_qpn)) {
    return Fail("INIT -> RTR needs the remote node and QPN (TRN-5.5)");
  }
  if ((m.pmtu && !ValidPmtu(*m.pmtu)) ||
      (m.rq_psn && *m.rq_psn > roce::kPsnMask) ||
      (m.sq_psn && *m.sq_psn > roce::kPsnMask) ||
      (m.remote_qpn && *m.remote_qpn > roce::kPsnMask) ||
      (m.min_rnr_timer && *m.min_rnr_timer > kTimerCodeMax) ||
      (m.timeout && *m.timeout > kTimerCodeMax) ||
      (m.retry_cnt && *m.retry_cnt > kRetryMax) ||
      (m.rnr_retry && *m.rnr_retry > kRetryMax) ||
      (m.congestion_control &&
       !KnownCongestionControl(*m.congestion_control))) {
    return Fail("an attribute out of range (TRN-5.3)");
  }
  if (m.to == QpState::kReset) {
    attributes_ = QpAttributes{};
    state_ = QpState::kReset;
    return state_;
  }
  QpAttributes& a = attributes_;
  a.pkey = m.pkey.value_or(a.pkey);
  a.remote_write = m.remote_write.value_or(a.remote_write);
  a.remote_read = m.remote_read.value_or(a.remote_read);
  a.remote_atomic = m.remote_atomic.value_or(a.remote_atomic);
  a.remote_node = m.remote_node.value_or(a.remote_node);
  a.remote_qpn = m.remote_qpn.value_or(a.remote_qpn);
  a.pmtu = m.pmtu.value_or(a.pmtu);
  a.rq_psn = m.rq_psn.value_or(a.rq_psn);
  a.max_dest_rd_atomic = m.max_dest_rd_atomic.value_or(a.max_dest_rd_atomic);
  a.min_rnr_timer = m.min_rnr_timer.value_or(a.min_rnr_timer);
  a.congestion_control = m.congestion_control.value_or(a.congestion_control);
  a.sq_psn = m.sq_psn.value_or(a.sq_psn);
  a.timeout = m.timeout.value_or(a.timeout);
  a.retry_cnt = m.retry_cnt.value_or(a.retry_cnt);
  a.rnr_retry = m.rnr_retry.value_or(a.rnr_retry);
  a.max_rd_atomic = m.max_rd_atomic.value_or(a.max_rd_atomic);
  state_ = m.to;
  return state_;
}

bool QpContext::EnterError() {
  if (state_ != QpState::kRtr && state_ != QpState::kRts) {
    return false;
  }
  state_ = QpState::kError;
  return true;
}

}  // namespace lq::transport
