// --pcap for runs through transport engines: the RoCEv2 frames engines
// send, in a pcap file (models/pcap), each at the simulated time it was
// handed to the network.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "models/common/bytes.h"
#include "models/common/result.h"
#include "models/pcap/pcap_writer.h"
#include "systemc/transport/transport_engine.h"

namespace lq::app {

class FrameCapture {
 public:
  // Opens `path` for writing, or says why it cannot.
  static Result<std::unique_ptr<FrameCapture>> Open(const std::string& path);

  // Records the frames `engine` sends, those for which `keep` holds if it
  // is set. The capture must outlive the engine's run.
  void Tap(transport::TransportEngine& engine,
           std::function<bool(const Bytes& frame)> keep = {});
  // Flushes the file; the first write or flush error, or "".
  std::string Finish();

 private:
  explicit FrameCapture(pcap::PcapWriter writer) : writer_(std::move(writer)) {}

  pcap::PcapWriter writer_;
  std::string error_;
};

// --pcap `path`: `capture` stays null when `path` is empty; false, having
// said why on stderr, when the file cannot be opened.
bool OpenPcap(const std::string& path, std::unique_ptr<FrameCapture>& capture);

// Finishes `capture`, if there is one; false, having said why on stderr,
// if a write or the flush failed.
bool FinishPcap(const std::unique_ptr<FrameCapture>& capture);

}  // namespace lq::app
