// SPDX-License-Identifier: Apache-2.0
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
  const std::optional<DecodedAddress> ends[] = {Decode(space, request.src_ga),
                                                Decode(space, request.dst_ga)};
  for (const std::optional<DecodedAddress>& where : ends) {
    if (!where || where->region != Region::kDirect ||
        where->offset + request.bytes > space.direct_bytes) {
      return CopyStart::kBadRange;
    }
  }
  for (const std::optional<DecodedAddress>& where : ends) {
    if (where->node != config_.node && connections_.count(where->node) == 0) {
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
    // StartCopy checked that both decode.
    const DecodedAddress src = *Decode(config_.space, copy_.src_ga);
    const DecodedAddress dst = *Decode(config_.space, copy_.dst_ga);
    Bytes bytes(copy_.bytes);
    AccessStatus status = CopyAccess(tlm::TLM_READ_COMMAND, src, bytes);
    if (status == AccessStatus::kOk) {
      status = CopyAccess(tlm::TLM_WRITE_COMMAND, dst, bytes);
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

AccessStatus LogicalUnit::CopyAccess(tlm::tlm_command command,
                                     const DecodedAddress& where,
                                     Bytes& bytes) {
  const auto length = static_cast<uint32_t>(bytes.size());
  if (where.node != config_.node) {
    SendWr wr;
    wr.kind =
        command == tlm::TLM_READ_COMMAND ? SendKind::kRead : SendKind::kWrite;
    wr.length = length;
    wr.remote_address = where.offset;
    return Rdma(where.node, wr, bytes.data(), length);
  }
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const bool ok =
      MemoryAccess(command, where.offset, bytes.data(), length, delay);
  wait(delay);
  return ok ? AccessStatus::kOk : AccessStatus::kAddressError;
}

}  // namespace lq::logical
