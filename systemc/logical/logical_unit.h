// LogicalUnit: one node's logical unit (docs/spec/log.md). Requesters (the
// workload engine, the MCU, DMA engines) issue loads, stores, atomics and
// fences to global addresses on its TLM-2.0 target socket. It decodes each
// address (LOG-2), translates paged ones through its page table (LOG-5.4),
// performs local accesses on the card's memory and carries remote ones to
// their home over the node's transport engine as RDMA operations (LOG-3.7):
// one RC connection per pair of nodes, each home's direct region one
// memory region. It also stands between the engine's DMA and the card's
// memory, giving the engine staging buffers for the data of its own
// operations.
//
// Not yet here (issue 8, next steps): the cross-node page-fault protocol
// (LOG-6): an access that faults completes with FAULT_ERROR at once and is
// counted by cause; the registers of section 7.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <vector>

#include "models/logical/global_address.h"
#include "models/logical/page_table.h"
#include "models/transport/work_request.h"
#include "systemc/common/stat_list.h"
#include "systemc/logical/logical_extension.h"
#include "systemc/transport/transport_engine.h"

namespace lq::logical {

struct LogicalUnitConfig {
  AddressSpace space;
  uint16_t node = 0;
  uint32_t max_burst = 256;     // log.max_burst (LOG-3.1)
  size_t pt_entries = 65536;    // log.pt_entries (LOG-5.2)
  unsigned swap_attempts = 64;  // log.swap_attempts (LOG-3.7)
  // The unit's own time to take an access in and to hand its answer back.
  sc_core::sc_time pipeline = sc_core::sc_time(2, sc_core::SC_NS);
};

// LOG-6.11's counters that this part of the unit keeps.
struct LogicalCounters {
  uint64_t local_ops = 0;
  uint64_t remote_loads = 0;
  uint64_t remote_stores = 0;
  uint64_t remote_atomics = 0;
  uint64_t cmpswap_retries = 0;  // LOG-3.7 loop rounds beyond the first
  uint64_t address_errors = 0;
  uint64_t shape_errors = 0;  // BURST, BYTE_ENABLE and COMMAND errors
  std::array<uint64_t, 6> faults_raised{};  // by FaultCause code
  uint64_t unreachable = 0;
  uint64_t bad_ptes = 0;
};

class LogicalUnit : public sc_core::sc_module {
 public:
  // Requesters bind here, one socket index each; a unit may have none.
  tlm_utils::multi_passthrough_target_socket<LogicalUnit, 32,
                                             tlm::tlm_base_protocol_types, 0,
                                             sc_core::SC_ZERO_OR_MORE_BOUND>
      socket;
  // To the card's memory: the direct region of this node's window.
  tlm_utils::simple_initiator_socket<LogicalUnit> memory;
  // The transport engine's DMA binds here (`engine.memory`).
  tlm_utils::simple_target_socket<LogicalUnit> dma;

  // Registers the node's direct region with `engine` (LOG-3.7).
  LogicalUnit(const sc_core::sc_module_name& name,
              const LogicalUnitConfig& config,
              transport::TransportEngine& engine);

  // LU_RKEY: the R_Key of this node's direct region.
  uint32_t rkey() const { return rkey_; }
  // LOG-3.7: accesses homed on `home` go over local QP `qpn`, which the
  // cluster builder connected to `home`, with `home`'s R_Key.
  void Connect(uint16_t home, uint32_t qpn, uint32_t home_rkey);

  // LOG-5.2: installs `pte` for global page `page` unless LOG-5.3 refuses
  // it (counted as bad_ptes); returns whether it was installed.
  bool InstallPte(uint64_t page, const Pte& pte);
  bool RemovePte(uint64_t page) { return page_table_.Remove(page); }

  const LogicalCounters& counters() const { return counters_; }
  StatList Stats() const;

 private:
  struct Connection {
    uint32_t qpn = 0;
    uint32_t rkey = 0;
  };
  // An RDMA operation in flight, waiting for its completion.
  struct Pending {
    sc_core::sc_event done;
    std::optional<transport::CompletionStatus> status;
  };
  // One requester's accesses and fences by ticket, the order the unit
  // accepted them in (LOG-3.6).
  struct Requester {
    uint64_t next_ticket = 0;
    std::set<uint64_t> accepted;     // accesses not yet completed
    std::set<uint64_t> not_started;  // accesses held behind a fence
    std::set<uint64_t> fences;       // fences not yet completed
    sc_core::sc_event changed;
  };
  // LOG-4.1 towards one home: while a CmpSwap loop (LOG-3.7) runs, later
  // accesses to that home wait, and then go in the order they came.
  struct HomeGate {
    bool looping = false;
    std::deque<uint64_t> waiting;  // start numbers
    sc_core::sc_event changed;
  };

  void BTransport(int id, tlm::tlm_generic_payload& trans,
                  sc_core::sc_time& delay);
  void Fence(Requester& requester, uint64_t ticket);
  void StartInOrder(Requester& requester, uint64_t ticket);
  void PassGate(uint16_t home);
  AccessStatus Perform(tlm::tlm_generic_payload& trans);
  AccessStatus Local(tlm::tlm_generic_payload& trans, uint64_t offset);
  AccessStatus Remote(tlm::tlm_generic_payload& trans, uint16_t home,
                      uint64_t offset);
  AccessStatus RemoteAtomic(const AtomicRequest& request, uint16_t home,
                            uint64_t offset, uint8_t* old_value);
  // Posts `wr` on the connection to `home`, its local data in a staging
  // buffer that starts as `data` (`length` bytes in, and out again), and
  // waits for its completion.
  AccessStatus Rdma(uint16_t home, transport::SendWr wr, uint8_t* data,
                    uint32_t length);
  void OnCompletions();  // SC_METHOD: the engine's completions
  // The engine's DMA: staging buffers, or the card's memory.
  void DmaTransport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  LogicalUnitConfig config_;
  transport::TransportEngine& engine_;
  uint32_t rkey_ = 0;
  PageTable page_table_;
  std::map<uint16_t, Connection> connections_;
  std::vector<std::unique_ptr<Requester>> requesters_;  // by socket index
  std::map<uint16_t, HomeGate> gates_;
  uint64_t next_start_ = 0;  // start numbers towards the gates
  std::unordered_map<uint64_t, Pending*> pending_;  // by wr_id
  uint64_t next_wr_id_ = 1;
  // Staging buffers for the engine, by slot; free slots are reused.
  std::vector<Bytes> staging_;
  std::vector<size_t> free_staging_;
  LogicalCounters counters_;
};

}  // namespace lq::logical
