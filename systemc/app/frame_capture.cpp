// FrameCapture: engines' frame taps into one pcap writer.
#include "systemc/app/frame_capture.h"

#include <cstdio>
#include <utility>

namespace lq::app {

Result<std::unique_ptr<FrameCapture>> FrameCapture::Open(
    const std::string& path) {
  auto writer = pcap::PcapWriter::ToFile(path);
  if (!writer) {
    return writer.error();
  }
  return std::unique_ptr<FrameCapture>(
      new FrameCapture(std::move(writer).value()));
}

void FrameCapture::Tap(transport::TransportEngine& engine,
                       std::function<bool(const Bytes& frame)> keep) {
  engine.SetFrameTap([this, keep = std::move(keep)](const sc_core::sc_time& at,
                                                    const Bytes& frame) {
    if (keep && !keep(frame)) {
      return;
    }
    const auto written = writer_.Write(at.value(), frame);
    if (!written && error_.empty()) {
      error_ = written.error().reason;
    }
  });
}

std::string FrameCapture::Finish() {
  const auto flushed = writer_.Flush();
  if (error_.empty() && !flushed) {
    error_ = flushed.error().reason;
  }
  return error_;
}

bool OpenPcap(const std::string& path, std::unique_ptr<FrameCapture>& capture) {
  if (path.empty()) {
    return true;
  }
  auto opened = FrameCapture::Open(path);
  if (!opened) {
    std::fprintf(stderr, "lqemu run: --pcap: %s\n",
                 opened.error().reason.c_str());
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
