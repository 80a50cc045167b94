// SPDX-License-Identifier: Apache-2.0
// --pcap for runs through transport engines: the RoCEv2 frames engines
// send, in a pcap file (models/pcap), each at the simulated time it was
// handed to the network. The frames are kept until the run ends and then
// written in time order, then by node, then in the order each engine sent
// them, so that a run over MPI ranks, whose rank 0 gathers every rank's
// frames and writes the file, writes the bytes one process writes
// (decision 0050).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/bytes.h"
#include "models/common/result.h"
#include "models/pcap/pcap_writer.h"
#include "systemc/transport/transport_engine.h"

namespace lq::app {

class FrameCapture {
 public:
  // Opens `path` for writing on rank 0, which writes it, or says why it
  // cannot; the other ranks only keep frames.
  static Result<std::unique_ptr<FrameCapture>> Open(const std::string& path);

  // Records the frames `engine` sends, those for which `keep` holds if it
  // is set. The capture must outlive the engine's run.
  void Tap(transport::TransportEngine& engine,
           std::function<bool(const Bytes& frame)> keep = {});
  // Every rank calls it once the run is over; rank 0 then holds every
  // rank's frames.
  void Gather();
  // Writes the frames and flushes the file (rank 0; elsewhere nothing);
  // the first write or flush error, or "".
  std::string Finish();

 private:
  struct Frame {
    uint64_t at_ps = 0;
    uint32_t node = 0;
    uint64_t sent = 0;  // the engine's count before it
    Bytes bytes;
  };
  explicit FrameCapture(std::optional<pcap::PcapWriter> writer)
      : writer_(std::move(writer)) {}

  std::optional<pcap::PcapWriter> writer_;  // rank 0's
  std::vector<Frame> frames_;
  std::map<uint32_t, uint64_t> sent_;  // by node
};

// --pcap `path`: `capture` stays null when `path` is empty; false on every
// rank, rank 0 having said why on stderr, when the file cannot be opened.
bool OpenPcap(const std::string& path, std::unique_ptr<FrameCapture>& capture);

// Finishes `capture`, if there is one; false, having said why on stderr,
// if a write or the flush failed.
bool FinishPcap(const std::unique_ptr<FrameCapture>& capture);

}  // namespace lq::app
