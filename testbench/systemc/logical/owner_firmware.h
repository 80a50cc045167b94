// SPDX-License-Identifier: Apache-2.0
// A stand-in for an owner's fault handler in SystemC tests of the fault
// protocol (docs/spec/log.md LOG-6.2 to LOG-6.4): it takes the unit's fault
// records one at a time, oldest first, spends `service` on each, and sends
// the answer `decide` gives (none: the record stays unanswered). It records
// every record it took. Also the pieces such answers are made of.
#pragma once

#include <functional>
#include <optional>
#include <systemc>
#include <utility>
#include <vector>

#include "models/logical/log_message.h"
#include "systemc/logical/logical_unit.h"

namespace lq::logical::testing {

// A valid PTE granting every right (LOG-5.3).
inline Pte FullRights(uint16_t home, uint32_t frame) {
  Pte pte;
  pte.valid = pte.read = pte.write = pte.atomic = true;
  pte.home = home;
  pte.frame = frame;
  return pte;
}

// The page of `ga`, counted from the start of its window's paged region.
inline uint64_t PagedIndex(const AddressSpace& space, uint64_t ga) {
  return (ga % kWindowBytes - space.direct_bytes) / space.page_bytes;
}

// The answer to `record` with `status` (and `pte`) for the page of its GA.
inline FaultResponse AnswerTo(const FaultRecord& record,
                              const AddressSpace& space, FaultStatus status,
                              uint64_t pte = 0) {
  FaultResponse response;
  response.status = status;
  response.fault_id = record.request.fault_id;
  response.page_ga = PageBase(space, record.request.ga);
  response.pte = pte;
  return response;
}

class OwnerFirmware : public sc_core::sc_module {
 public:
  using Decide =
      std::function<std::optional<FaultResponse>(const FaultRecord&)>;

  OwnerFirmware(const sc_core::sc_module_name& name, LogicalUnit& unit,
                Decide decide, sc_core::sc_time service = sc_core::SC_ZERO_TIME)
      : sc_module(name),
        unit_(unit),
        decide_(std::move(decide)),
        service_(service) {
    SC_HAS_PROCESS(OwnerFirmware);
    SC_THREAD(Run);
  }

  const std::vector<FaultRecord>& records() const { return records_; }

 private:
  void Run() {
    for (;;) {
      while (unit_.fault_queue_size() == 0) {
        wait(unit_.fault_queued_event());
      }
      wait(service_);
      const FaultRecord record = *unit_.fault_head();
      unit_.PopFault();
      records_.push_back(record);
      if (const auto answer = decide_(record)) {
        unit_.AnswerFault(record.request.requester, *answer);
      }
    }
  }

  LogicalUnit& unit_;
  Decide decide_;
  sc_core::sc_time service_;
  std::vector<FaultRecord> records_;
};

}  // namespace lq::logical::testing
