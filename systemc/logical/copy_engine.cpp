// The logical unit's copy engine (docs/spec/log.md LOG-6.13): firmware's
// way to move a page between homes (LOG-6.9) without QPs of its own. The
// whole source is read, from the card's memory or by RDMA READ on the
// unit's connection to its node, before the destination is written.
#include "systemc/logical/logical_unit.h"

namespace lq::logical {

using transport::SendKind;
using transport::SendWr;

CopyStart LogicalUnit::StartCopy(const CopyRequest& request) {
  if (copy_busy_ || copy_done_) {
    return CopyStart::kBusy;  // one at a time, each result read
  }
  const AddressSpace& space = config_.space;
  if (request.bytes == 0 || request.bytes > space.page_bytes) {
    return CopyStart::kBadRange;
  }
  for (const uint64_t ga : {request.src_ga, request.dst_ga}) {
    const std::optional<DecodedAddress> where = Decode(space, ga);
    if (!where || where->region != Region::kDirect ||
        where->offset + request.bytes > space.direct_bytes) {
      return CopyStart::kBadRange;
    }
  }
  for (const uint64_t ga : {request.src_ga, request.dst_ga}) {
    const auto node = static_cast<uint16_t>(ga >> kOffsetBits);
    if (node != config_.node && connections_.count(node) == 0) {
      return CopyStart::kNoConnection;
    }
  }
  copy_ = request;
  copy_busy_ = true;
  copy_start_.notify(sc_core::SC_ZERO_TIME);
  return CopyStart::kStarted;
}

void LogicalUnit::RunCopies() {
  while (true) {
    wait(copy_start_);
    Bytes bytes(copy_.bytes);
    AccessStatus status =
        CopyAccess(tlm::TLM_READ_COMMAND, copy_.src_ga, bytes);
    if (status == AccessStatus::kOk) {
      status = CopyAccess(tlm::TLM_WRITE_COMMAND, copy_.dst_ga, bytes);
    }
    if (status == AccessStatus::kOk) {
      ++(copy_.migrate ? counters_.migrations : counters_.copies);
    }
    copy_result_ = status;
    copy_busy_ = false;
    copy_done_ = true;
    copy_ended_.notify(sc_core::SC_ZERO_TIME);
  }
}

AccessStatus LogicalUnit::CopyAccess(tlm::tlm_command command, uint64_t ga,
                                     Bytes& bytes) {
  const auto node = static_cast<uint16_t>(ga >> kOffsetBits);
  const uint64_t offset = ga & (kWindowBytes - 1);
  const auto length = static_cast<uint32_t>(bytes.size());
  if (node != config_.node) {
    SendWr wr;
    wr.kind =
        command == tlm::TLM_READ_COMMAND ? SendKind::kRead : SendKind::kWrite;
    wr.length = length;
    wr.remote_address = offset;
    return Rdma(node, wr, bytes.data(), length);
  }
  tlm::tlm_generic_payload access;
  access.set_command(command);
  access.set_address(offset);
  access.set_data_ptr(bytes.data());
  access.set_data_length(length);
  access.set_streaming_width(length);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  memory->b_transport(access, delay);
  wait(delay);
  return access.is_response_ok() ? AccessStatus::kOk
                                 : AccessStatus::kAddressError;
}

}  // namespace lq::logical
