// SPDX-License-Identifier: Apache-2.0
// The TLM-2.0 extensions of the logical unit's requester socket
// (docs/spec/log.md LOG-1.3, LOG-3.4, LOG-3.6): an atomic's operation and
// operands, a fence, and the status behind an error response.
#pragma once

#include <tlm>

#include "models/logical/atomic.h"

namespace lq::logical {

// LOG-1.3's statuses.
enum class AccessStatus {
  kOk,
  kAddressError,
  kBurstError,
  kByteEnableError,
  kCommandError,
  kFaultError,
  kUnreachable,
};

const char* AccessStatusName(AccessStatus status);

// On a READ of 4 or 8 bytes: perform `request` at the address instead of a
// load; the data returned is the old value, little-endian (LOG-3.3).
struct AtomicExtension : tlm::tlm_extension<AtomicExtension> {
  AtomicRequest request;

  tlm::tlm_extension_base* clone() const override {
    return new AtomicExtension(*this);
  }
  void copy_from(const tlm::tlm_extension_base& other) override {
    request = static_cast<const AtomicExtension&>(other).request;
  }
};

// On a transaction of length 0: a fence for its requester (LOG-3.6).
struct FenceExtension : tlm::tlm_extension<FenceExtension> {
  tlm::tlm_extension_base* clone() const override {
    return new FenceExtension(*this);
  }
  void copy_from(const tlm::tlm_extension_base&) override {}
};

// Which LOG-1.3 status lies behind the TLM response (two share the generic
// error): the logical unit fills in the requester's extension, or adds one
// to a payload that has a memory manager.
struct StatusExtension : tlm::tlm_extension<StatusExtension> {
  AccessStatus status = AccessStatus::kOk;

  tlm::tlm_extension_base* clone() const override {
    return new StatusExtension(*this);
  }
  void copy_from(const tlm::tlm_extension_base& other) override {
    status = static_cast<const StatusExtension&>(other).status;
  }
};

}  // namespace lq::logical
