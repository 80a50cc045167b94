// SPDX-License-Identifier: Apache-2.0
// LogMessenger: LOG messages as SENDs, with receives kept posted.
#include "systemc/logical/log_messenger.h"

#include <cstring>
#include <utility>

namespace lq::logical {
namespace {

// Each buffer's slice of the window: room for the longest message.
constexpr uint64_t kSliceBytes = 64;
static_assert(kMaxLogMessageBytes <= kSliceBytes);

}  // namespace

LogMessenger::LogMessenger(transport::TransportEngine& engine, uint64_t base,
                           unsigned receives, OnMessage on_message,
                           OnPeerLost on_lost)
    : engine_(engine),
      base_(base),
      receives_(receives),
      on_message_(std::move(on_message)),
      on_lost_(std::move(on_lost)) {}

bool LogMessenger::AddPeer(uint16_t peer, uint32_t qpn) {
  qpn_of_[peer] = qpn;
  for (unsigned i = 0; i < receives_; ++i) {
    if (!PostReceive(NewBuffer(peer, true))) {
      return false;
    }
  }
  return true;
}

size_t LogMessenger::NewBuffer(uint16_t peer, bool receive) {
  const size_t index = buffers_.Take();
  buffers_[index].peer = peer;
  buffers_[index].receive = receive;
  buffers_[index].bytes.assign(receive ? kMaxLogMessageBytes : 0, 0);
  return index;
}

uint64_t LogMessenger::Address(size_t buffer) const {
  return base_ + buffer * kSliceBytes;
}

bool LogMessenger::PostReceive(size_t buffer) {
  transport::RecvWr wr;
  wr.wr_id = kOwnWrBit | buffer;
  wr.length = kMaxLogMessageBytes;
  const auto posted = engine_.PostReceive(qpn_of_.at(buffers_[buffer].peer), wr,
                                          Address(buffer));
  if (!posted) {
    buffers_.Free(buffer);
  }
  return posted.ok();
}

bool LogMessenger::Send(uint16_t peer, const LogMessage& message) {
  const auto qpn = qpn_of_.find(peer);
  if (qpn == qpn_of_.end()) {
    return false;
  }
  const size_t buffer = NewBuffer(peer, false);
  buffers_[buffer].bytes = EncodeLogMessage(message);
  transport::SendWr wr;
  wr.wr_id = kOwnWrBit | buffer;
  wr.kind = transport::SendKind::kSend;
  wr.length = static_cast<uint32_t>(buffers_[buffer].bytes.size());
  if (!engine_.PostSend(qpn->second, wr, Address(buffer))) {
    buffers_.Free(buffer);
    return false;
  }
  ++sent_;
  return true;
}

bool LogMessenger::Take(const transport::EngineCompletion& completion) {
  const uint64_t wr_id = completion.completion.wr_id;
  const uint64_t index = wr_id & ~kOwnWrBit;
  if ((wr_id & kOwnWrBit) == 0 || index >= buffers_.size()) {
    return false;
  }
  Buffer& buffer = buffers_[index];
  const uint16_t peer = buffer.peer;
  const bool success =
      completion.completion.status == transport::CompletionStatus::kSuccess;
  if (!completion.receive) {
    buffers_.Free(index);
    if (!success) {
      on_lost_(peer);
    }
    return true;
  }
  if (!success) {  // flushed: the connection failed
    buffers_.Free(index);
    on_lost_(peer);
    return true;
  }
  ++received_;
  const auto message = ParseLogMessage(
      ByteView(buffer.bytes.data(), completion.completion.byte_length));
  // The buffer goes back on the queue before the message is acted on.
  PostReceive(index);
  if (!message) {
    ++bad_messages_;
    return true;
  }
  on_message_(peer, *message);
  return true;
}

bool LogMessenger::Dma(tlm::tlm_generic_payload& trans) {
  const uint64_t address = trans.get_address();
  if (address < base_ || address - base_ >= kWindowBytes) {
    return false;
  }
  const uint64_t index = (address - base_) / kSliceBytes;
  const uint64_t at = (address - base_) % kSliceBytes;
  const uint64_t length = trans.get_data_length();
  trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  if (index >= buffers_.size()) {
    return true;
  }
  Bytes& bytes = buffers_[index].bytes;
  if (trans.is_write() && buffers_[index].receive &&
      at + length <= kMaxLogMessageBytes) {
    std::memcpy(bytes.data() + at, trans.get_data_ptr(), length);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  } else if (trans.is_read() && at + length <= bytes.size()) {
    std::memcpy(trans.get_data_ptr(), bytes.data() + at, length);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  return true;
}

}  // namespace lq::logical
