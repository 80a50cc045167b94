// SPDX-License-Identifier: Apache-2.0
// FrameCapture: engines' frame taps, kept, gathered and written in order.
#include "systemc/app/frame_capture.h"

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <utility>

#include "systemc/parallel/node_gather.h"
#include "systemc/parallel/rank_world.h"
#include "systemc/parallel/wire.h"

namespace lq::app {

Result<std::unique_ptr<FrameCapture>> FrameCapture::Open(
    const std::string& path) {
  std::optional<pcap::PcapWriter> writer;
  if (parallel::RankWorld::Get().root()) {
    auto opened = pcap::PcapWriter::ToFile(path);
    if (!opened) {
      return opened.error();
    }
    writer.emplace(std::move(opened).value());
  }
  return std::unique_ptr<FrameCapture>(new FrameCapture(std::move(writer)));
}

void FrameCapture::Tap(transport::TransportEngine& engine,
                       std::function<bool(const Bytes& frame)> keep) {
  const uint32_t node = engine.node();
  engine.SetFrameTap([this, node, keep = std::move(keep)](
                         const sc_core::sc_time& at, const Bytes& frame) {
    if (keep && !keep(frame)) {
      return;
    }
    frames_.push_back({at.value(), node, sent_[node]++, frame});
  });
}

void FrameCapture::Gather() {
  Bytes mine;
  parallel::WireWriter out(mine);
  for (const Frame& frame : frames_) {
    out.U64(frame.at_ps);
    out.U32(frame.node);
    out.U64(frame.sent);
    out.Blob(frame.bytes);
  }
  parallel::AbsorbOtherRanks(parallel::RankWorld::Get(), mine,
                             [this](ByteView share) {
                               parallel::WireReader in(share);
                               while (!in.done()) {
                                 Frame frame;
                                 frame.at_ps = in.U64();
                                 frame.node = in.U32();
                                 frame.sent = in.U64();
                                 const ByteView bytes = in.Blob();
                                 frame.bytes.assign(bytes.begin(), bytes.end());
                                 frames_.push_back(std::move(frame));
                               }
                             });
}

std::string FrameCapture::Finish() {
  if (!writer_) {
    return "";  // rank 0 writes the file
  }
  std::sort(frames_.begin(), frames_.end(), [](const Frame& a, const Frame& b) {
    return std::tie(a.at_ps, a.node, a.sent) <
           std::tie(b.at_ps, b.node, b.sent);
  });
  std::string error;
  for (const Frame& frame : frames_) {
    const auto written = writer_->Write(frame.at_ps, frame.bytes);
    if (!written && error.empty()) {
      error = written.error().reason;
    }
  }
  const auto flushed = writer_->Flush();
  if (error.empty() && !flushed) {
    error = flushed.error().reason;
  }
  return error;
}

bool OpenPcap(const std::string& path, std::unique_ptr<FrameCapture>& capture) {
  if (path.empty()) {
    return true;
  }
  auto opened = FrameCapture::Open(path);
  if (!opened) {
    std::fprintf(stderr, "lqemu run: --pcap: %s\n",
                 opened.error().reason.c_str());
  }
  // Every rank returns what rank 0 found.
  if (parallel::RankWorld::Get().Max(opened ? 0 : 1) != 0) {
    return false;
  }
  capture = std::move(opened).value();
  return true;
}

bool FinishPcap(const std::unique_ptr<FrameCapture>& capture) {
  if (!capture) {
    return true;
  }
  const std::string error = capture->Finish();
  if (!error.empty()) {
    std::fprintf(stderr, "lqemu run: --pcap: %s\n", error.c_str());
  }
  return error.empty();
}

}  // namespace lq::app
