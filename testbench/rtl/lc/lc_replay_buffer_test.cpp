// SPDX-License-Identifier: Apache-2.0
// Tests of the Verilated replay buffer (lc_replay_buffer): entries live at
// their sequence number modulo the depth.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>

#include "Vlc_replay_buffer.h"
#include "testbench/rtl/common/clocked_model.h"

namespace lq::rtl {
namespace {

constexpr unsigned kFlits = 16;  // Matches -GFlits in CMakeLists.txt.
constexpr unsigned kSeqModulus = 1024;
constexpr uint32_t kDataMask = 0xFFFF;  // -GWidth=16

class ReplayBuffer {
 public:
  ReplayBuffer() { model_.Reset(); }

  void Write(unsigned seq, uint32_t data) {
    model_->wr_en_i = 1;
    model_->wr_idx_i = seq % kFlits;
    model_->wr_data_i = data;
    model_.Settle();
    model_.Tick();
    model_->wr_en_i = 0;
  }
  uint32_t Read(unsigned seq) {
    model_->rd_idx_i = seq % kFlits;
    model_.Settle();
    return model_->rd_data_o;
  }
  void Idle() {
    model_.Settle();
    model_.Tick();
  }

 private:
  ClockedModel<Vlc_replay_buffer> model_;
};

// A sender keeps at most kFlits outstanding and numbers them modulo 1024, so
// a window sliding across the wrap must read back every outstanding entry.
TEST(LcReplayBuffer, DLL_4_1_KeepsEveryOutstandingFlitAcrossSequenceWrap) {
  ReplayBuffer buffer;
  std::mt19937 rng(7);
  std::map<unsigned, uint32_t> outstanding;
  unsigned next_seq = kSeqModulus - 40;  // Start close to the wrap.
  unsigned acked = next_seq;
  for (int step = 0; step < 400; ++step) {
    const bool send = outstanding.size() < kFlits && (rng() % 3 != 0);
    if (send) {
      const uint32_t data = rng() & kDataMask;
      buffer.Write(next_seq, data);
      outstanding[next_seq] = data;
      next_seq = (next_seq + 1) % kSeqModulus;
    } else {
      buffer.Idle();  // Nothing written this cycle.
      if (!outstanding.empty() && rng() % 2 == 0) {
        outstanding.erase(acked);
        acked = (acked + 1) % kSeqModulus;
      }
    }
    for (const auto& [seq, data] : outstanding) {
      ASSERT_EQ(buffer.Read(seq), data)
          << "outstanding flit " << seq << " was overwritten";
    }
  }
  EXPECT_LT(next_seq, 400u) << "the run crossed the modulo-1024 wrap";
}

}  // namespace
}  // namespace lq::rtl
