// SPDX-License-Identifier: Apache-2.0
// Tests of the queue-pair state machine and its attributes (TRN-5.1,
// TRN-5.2, TRN-5.3, TRN-5.5).
#include "models/transport/qp_state.h"

#include <gtest/gtest.h>

namespace lq::transport {
namespace {

QpModify To(QpState state) {
  QpModify modify;
  modify.to = state;
  return modify;
}

QpModify ToRtr() {
  QpModify modify = To(QpState::kRtr);
  modify.remote_node = 3;
  modify.remote_qpn = 17;
  return modify;
}

QpContext Connected() {
  QpContext qp;
  EXPECT_TRUE(qp.Modify(To(QpState::kInit)).ok());
  EXPECT_TRUE(qp.Modify(ToRtr()).ok());
  EXPECT_TRUE(qp.Modify(To(QpState::kRts)).ok());
  return qp;
}

TEST(QpState, TRN_5_1_TheSetUpPathAndItsDefaults) {
  QpContext qp;
  EXPECT_EQ(qp.state(), QpState::kReset);
  EXPECT_FALSE(qp.accepts_packets()) << "TRN-5.2: RESET takes no packets";
  ASSERT_TRUE(qp.Modify(To(QpState::kInit)).ok());
  EXPECT_TRUE(qp.may_post_receive());
  EXPECT_FALSE(qp.may_post_send());
  ASSERT_TRUE(qp.Modify(ToRtr()).ok());
  EXPECT_TRUE(qp.accepts_packets());
  EXPECT_FALSE(qp.requester_runs()) << "RTR runs the responder only";
  ASSERT_TRUE(qp.Modify(To(QpState::kRts)).ok());
  EXPECT_TRUE(qp.may_post_send());
  const QpAttributes& a = qp.attributes();
  EXPECT_EQ(a.remote_node, 3u);
  EXPECT_EQ(a.remote_qpn, 17u);
  // TRN-5.5's defaults.
  EXPECT_EQ(a.pkey, 0xFFFF);
  EXPECT_EQ(a.pmtu, 4096u);
  EXPECT_EQ(a.timeout, 8);
  EXPECT_EQ(a.retry_cnt, 7);
  EXPECT_EQ(a.rnr_retry, 7);
  EXPECT_EQ(a.min_rnr_timer, 1);
  EXPECT_EQ(a.max_rd_atomic, 16);
  EXPECT_EQ(a.max_dest_rd_atomic, 16);
}

TEST(QpState, TRN_5_1_IllegalTransitionsFailAndChangeNothing) {
  QpContext qp;
  EXPECT_FALSE(qp.Modify(ToRtr()).ok()) << "RESET -> RTR skips INIT";
  EXPECT_FALSE(qp.Modify(To(QpState::kRts)).ok());
  EXPECT_FALSE(qp.Modify(To(QpState::kError)).ok()) << "not from RESET";
  EXPECT_EQ(qp.state(), QpState::kReset);
  EXPECT_FALSE(qp.EnterError()) << "the engine errs only from RTR or RTS";

  qp = Connected();
  EXPECT_FALSE(qp.Modify(To(QpState::kInit)).ok()) << "RTS -> INIT";
  EXPECT_TRUE(qp.EnterError());
  EXPECT_FALSE(qp.Modify(To(QpState::kRts)).ok()) << "ERROR -> RTS";
  EXPECT_EQ(qp.state(), QpState::kError);
  ASSERT_TRUE(qp.Modify(To(QpState::kReset)).ok()) << "ERROR -> RESET";
  EXPECT_EQ(qp.attributes().remote_qpn, 0u) << "RESET restores defaults";
}

TEST(QpState, TRN_5_3_AttributesOutOfRangeFail) {
  QpContext qp;
  ASSERT_TRUE(qp.Modify(To(QpState::kInit)).ok());
  QpModify bad = ToRtr();
  bad.pmtu = 1500;
  EXPECT_FALSE(qp.Modify(bad).ok()) << "PMTU not a power of two in range";
  bad = ToRtr();
  bad.rq_psn = 1u << 24;
  EXPECT_FALSE(qp.Modify(bad).ok()) << "PSN beyond 24 bits";
  bad = ToRtr();
  bad.min_rnr_timer = 32;
  EXPECT_FALSE(qp.Modify(bad).ok()) << "timer code beyond 5 bits";
  bad = ToRtr();
  bad.congestion_control = "cubic";
  EXPECT_FALSE(qp.Modify(bad).ok()) << "unknown congestion control (TRN-5.8)";
  QpModify no_remote = To(QpState::kRtr);
  EXPECT_FALSE(qp.Modify(no_remote).ok()) << "RTR needs the remote QP";
  QpModify wrong_step = ToRtr();
  wrong_step.retry_cnt = 3;
  EXPECT_FALSE(qp.Modify(wrong_step).ok()) << "retry_cnt is set at RTS";
  EXPECT_EQ(qp.state(), QpState::kInit) << "nothing changed";

  ASSERT_TRUE(qp.Modify(ToRtr()).ok());
  QpModify rts = To(QpState::kRts);
  rts.retry_cnt = 8;
  EXPECT_FALSE(qp.Modify(rts).ok()) << "retry count beyond 3 bits";
  rts.retry_cnt = 3;
  rts.timeout = 14;
  ASSERT_TRUE(qp.Modify(rts).ok());
  EXPECT_EQ(qp.attributes().retry_cnt, 3);
  EXPECT_EQ(qp.attributes().timeout, 14);
}

}  // namespace
}  // namespace lq::transport
