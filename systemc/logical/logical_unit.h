// SPDX-License-Identifier: Apache-2.0
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
// An access that faults is held while the page's owner resolves the fault
// (LOG-6, fault_protocol.cpp); as an owner, the unit queues the fault
// requests of every requester for its firmware and sends the firmware's
// answers. LOG messages travel through a LogMessenger.
//
// It invalidates translations on an owner's request once the accesses made
// with them have completed (LOG-6.8), and gives its firmware a mailbox for
// acknowledgements and frame messages.
//
// Not yet here (issue 8, next steps): the registers of section 7 and a
// firmware fault handler behind them.
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

#include "models/common/reuse_pool.h"
#include "models/logical/global_address.h"
#include "models/logical/log_message.h"
#include "models/logical/page_table.h"
#include "models/transport/work_request.h"
#include "systemc/common/component_decl.h"
#include "systemc/common/path_probe.h"
#include "systemc/common/stat_list.h"
#include "systemc/logical/log_messenger.h"
#include "systemc/logical/logical_extension.h"
#include "systemc/transport/transport_engine.h"

namespace lq::logical {

struct LogicalUnitConfig {
  AddressSpace space;
  uint16_t node = 0;
  uint32_t max_burst = 256;          // log.max_burst (LOG-3.1)
  size_t pt_entries = 65536;         // log.pt_entries (LOG-5.2)
  unsigned swap_attempts = 64;       // log.swap_attempts (LOG-3.7)
  unsigned held_slots = 64;          // log.held_slots (LOG-6.1)
  size_t fault_queue_entries = 256;  // log.fault_queue_entries (LOG-6.2)
  // log.fault_timeout (LOG-6.7) and log.busy_retry (LOG-6.2).
  sc_core::sc_time fault_timeout = sc_core::sc_time(10, sc_core::SC_MS);
  sc_core::sc_time busy_retry = sc_core::sc_time(10, sc_core::SC_US);
  unsigned fault_retries = 4;  // log.fault_retries (LOG-6.7)
  // log.inval_retry (LOG-6.8).
  sc_core::sc_time inval_retry = sc_core::sc_time(1, sc_core::SC_MS);
  // Receive work requests kept posted on each connection for LOG messages
  // (LOG-6.10); a burst beyond them waits out an RNR NAK (TRN-7.9).
  unsigned message_receives = 4;
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
  // LOG-6.11's fault counters.
  uint64_t faults_served = 0;  // answers sent as owner
  uint64_t fault_rejects = 0;  // accesses completed by a REJECT
  uint64_t fault_timeouts = 0;
  uint64_t busy_responses = 0;  // BUSY answers sent as owner
  uint64_t late_fault_responses = 0;
  uint64_t held_slot_waits = 0;
  uint64_t fault_latency_ns_sum = 0;  // first FAULT_REQ to completion
  uint64_t fault_latency_count = 0;
  uint64_t invalidations = 0;  // INVAL_REQs acted on as sharer
  uint64_t copies = 0;         // LOG-6.13: COPY commands that ended OK
  uint64_t migrations = 0;     // and MIGRATE commands
};

// LOG-6.13: one command of the copy engine, the GAs in direct regions.
struct CopyRequest {
  uint64_t src_ga = 0;
  uint64_t dst_ga = 0;
  uint32_t bytes = 0;
  bool migrate = false;  // a page moving home (LOG-6.9)
};
enum class CopyStart { kStarted, kBusy, kBadRange, kNoConnection };

// A message for the firmware's mailbox (LOG-6.10): an INVAL_ACK or a
// FRAME_* message, and the node it came from. `peer_lost` with a message
// marks, instead of an acknowledgement, an invalidation whose sharer's
// connection failed; without one, that the connection to `from` failed
// (once per node).
struct MailboxEntry {
  uint16_t from = 0;
  std::optional<LogMessage> message;
  bool peer_lost = false;
};

class LogicalUnit : public sc_core::sc_module {
 public:
  // Where the direct region sits in the engine's DMA space: its work
  // requests name card memory at kDirectBase + offset (decision 0016).
  static constexpr uint64_t kDirectBase = uint64_t{1} << 40;

  // Requesters bind here, one socket index each; a unit may have none.
  tlm_utils::multi_passthrough_target_socket<LogicalUnit, 32,
                                             tlm::tlm_base_protocol_types, 0,
                                             sc_core::SC_ZERO_OR_MORE_BOUND>
      socket;
  // To the card's memory: the direct region of this node's window.
  tlm_utils::simple_initiator_socket<LogicalUnit> memory;
  // On a board, to its bus: the engine's DMA for firmware's own work
  // requests, which name bus addresses (decision 0014). Unbound elsewhere.
  tlm_utils::simple_initiator_socket_optional<LogicalUnit> bus;
  // The transport engine's DMA binds here (`engine.memory`).
  tlm_utils::simple_target_socket<LogicalUnit> dma;
  // LOG-3.8: on a board, the bus's global window. An access at window
  // offset o is one of the board's MCU, a requester of its own, to GA
  // window_base() + o.
  tlm_utils::simple_target_socket_optional<LogicalUnit> window;

  // Registers the node's direct region with `engine` (LOG-3.7).
  LogicalUnit(const sc_core::sc_module_name& name,
              const LogicalUnitConfig& config,
              transport::TransportEngine& engine);

  // LU_RKEY: the R_Key of this node's direct region.
  uint32_t rkey() const { return rkey_; }
  uint16_t node() const { return config_.node; }
  const AddressSpace& space() const { return config_.space; }
  // GW_BASE (LOG-3.8): the GA that the window's first byte reaches.
  uint64_t window_base() const { return window_base_; }
  void set_window_base(uint64_t ga) { window_base_ = ga; }
  // LOG-3.7: accesses homed on `home` go over local QP `qpn`, which the
  // cluster builder connected to `home`, with `home`'s R_Key.
  void Connect(uint16_t home, uint32_t qpn, uint32_t home_rkey);
  // The local QP of the connection to `home`, if there is one.
  std::optional<uint32_t> connection_qpn(uint16_t home) const {
    const auto found = connections_.find(home);
    return found == connections_.end() ? std::nullopt
                                       : std::optional(found->second.qpn);
  }

  // LOG-5.2: installs `pte` for global page `page` unless LOG-5.3 refuses
  // it (counted as bad_ptes); returns whether it was installed.
  bool InstallPte(uint64_t page, const Pte& pte);
  bool RemovePte(uint64_t page) { return page_table_.Remove(page); }
  // The entry of `page`, if the table holds one.
  std::optional<Pte> FindPte(uint64_t page) {
    const Pte* pte = page_table_.Find(page);
    return pte == nullptr ? std::nullopt : std::optional<Pte>(*pte);
  }

  // The owner's side of LOG-6.2 to LOG-6.4, for its firmware: the fault
  // queue's records, oldest first, and the answer to one of them.
  size_t fault_queue_size() const { return fault_queue_.size(); }
  const FaultRecord* fault_head() const {
    return fault_queue_.empty() ? nullptr : &fault_queue_.front();
  }
  void PopFault();
  // Notified whenever a record joins the queue.
  const sc_core::sc_event& fault_queued_event() const { return fault_queued_; }
  // LOG-6.4: sends `response` to `requester` (itself without the network);
  // false if there is no connection to it.
  bool AnswerFault(uint16_t requester, const FaultResponse& response);

  // LOG-6.8, the owner's side: sends INVAL_REQ for `pages` pages from
  // `ga`'s to `sharer`, again every log.inval_retry until it is
  // acknowledged; the acknowledgement, or the news that the sharer's
  // connection failed, arrives in the mailbox. Returns the INVAL_ID, or
  // nothing if every INVAL_ID is in use.
  std::optional<uint16_t> Invalidate(uint16_t sharer, uint64_t ga,
                                     uint32_t pages);
  // The firmware's mailbox, oldest first.
  size_t mailbox_size() const { return mailbox_.size(); }
  const MailboxEntry* mailbox_head() const {
    return mailbox_.empty() ? nullptr : &mailbox_.front();
  }
  void PopMailbox();
  const sc_core::sc_event& mailbox_event() const { return mailbox_event_; }
  // The firmware's FRAME_* messages (LOG-5.6) to `node`; false if there is
  // no connection to it.
  bool SendMessage(uint16_t node, const LogMessage& message) {
    return Post(node, message);
  }

  // LOG-6.13, the copy engine: starts `request` unless a copy runs, the
  // last one's DONE is still set, or the request breaks the clause's rules.
  // While it runs copy_busy(); when it ends copy_done() until ClearCopyDone(),
  // with copy_result() kOk, kAddressError or kUnreachable, and
  // copy_ended_event() is notified.
  CopyStart StartCopy(const CopyRequest& request);
  bool copy_busy() const { return copy_busy_; }
  bool copy_done() const { return copy_done_; }
  AccessStatus copy_result() const { return copy_result_; }
  void ClearCopyDone() { copy_done_ = false; }
  const sc_core::sc_event& copy_ended_event() const { return copy_ended_; }

  const LogicalCounters& counters() const { return counters_; }
  uint64_t bad_messages() const { return messenger_.bad_messages(); }
  StatList Stats() const;
  static const ComponentDecl& Declaration();
  // Reports accesses issued and answered and work requests posted.
  void set_probe(PathProbe* probe) { probe_ = probe; }

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

  // LOG-6.1: an access waiting for a fault's answer, by FAULT_ID.
  // Its answer is acted on when it arrives: a PTE is installed at once,
  // so that an invalidation that follows it removes it (LOG-6.8).
  struct HeldSlot {
    bool waiting = false;
    uint16_t fault_id = 0;    // of the fault it holds (NextFaultId)
    uint32_t generation = 0;  // faults it has held
    uint16_t owner = 0;
    uint64_t page_ga = 0;
    std::optional<AccessStatus> outcome;  // kOk: a PTE was installed
    bool busy = false;
    bool owner_lost = false;
    sc_core::sc_event changed;
  };
  // LOG-6.8 as sharer: an INVAL_REQ waiting for accesses made with the
  // translations it removed.
  struct PendingAck {
    uint16_t owner = 0;
    InvalAck ack;
    std::set<uint64_t> pages;  // still in use
  };
  // LOG-6.8 as owner: an INVAL_REQ not yet acknowledged.
  struct OutstandingInval {
    uint16_t sharer = 0;
    InvalRequest request;
    sc_core::sc_time sent;
  };
  // LOG-6.1: the accesses of this node to one page, in issue order, while
  // the first of them resolves a fault.
  struct PageHold {
    std::deque<uint64_t> queue;
    sc_core::sc_event changed;
  };

  void BTransport(int id, tlm::tlm_generic_payload& trans,
                  sc_core::sc_time& delay);
  void Fence(Requester& requester, uint64_t ticket);
  void StartInOrder(Requester& requester, uint64_t ticket);
  void PassGate(uint16_t home);
  AccessStatus Perform(tlm::tlm_generic_payload& trans,
                       std::optional<sc_core::sc_time>& faulted);
  // fault_protocol.cpp. LOG-5.4 and LOG-6.1 to LOG-6.7: translates a paged
  // access, resolving its faults with the owner; `faulted` is set to the
  // time of the first FAULT_REQ if one went.
  AccessStatus TranslatePaged(const FaultRequest& access, uint16_t owner,
                              Translation& where,
                              std::optional<sc_core::sc_time>& faulted);
  AccessStatus TranslateAtHead(const FaultRequest& access, uint64_t page,
                               uint16_t owner, Translation& where,
                               std::optional<sc_core::sc_time>& faulted);
  // One FAULT_REQ round trip, BUSY rounds included: kOk once a PTE is
  // installed, else how the access completes.
  // The first FAULT_REQ's time goes into `faulted`; the access's deadline
  // runs from it (LOG-6.7).
  AccessStatus ResolveFault(FaultRequest request, uint16_t owner,
                            std::optional<sc_core::sc_time>& faulted);
  AccessStatus Answered(const FaultResponse& response, uint64_t page_ga);
  std::optional<uint16_t> TakeSlot(
      const std::optional<sc_core::sc_time>& deadline);
  uint16_t NextFaultId(uint16_t slot);
  // Sends `message` to `node`, or acts on it at once if it is this node.
  bool Post(uint16_t node, const LogMessage& message);
  void OnMessage(uint16_t from, const LogMessage& message);
  // invalidation.cpp.
  void TakeInvalRequest(uint16_t from, const InvalRequest& request);
  void TakeInvalAck(uint16_t from, const InvalAck& ack);
  // An access made with a translation of `page` has completed.
  void ReleasePage(uint64_t page);
  void ForgetInvalidations(uint16_t sharer);
  void ResendInvalidations();  // SC_THREAD
  void WindowTransport(tlm::tlm_generic_payload& trans,
                       sc_core::sc_time& delay);
  // copy_engine.cpp.
  void RunCopies();  // SC_THREAD
  // Reads or writes `bytes` at `where`, in a direct region, from this
  // card's memory or by RDMA on the connection to its node.
  AccessStatus CopyAccess(tlm::tlm_command command, const DecodedAddress& where,
                          Bytes& bytes);
  void Deliver(uint16_t from, std::optional<LogMessage> message,
               bool lost = false);
  void QueueFault(const FaultRequest& request);
  void TakeFaultResponse(uint16_t from, const FaultResponse& response);
  void OnPeerLost(uint16_t peer);
  // Performs the access where `where` says, locally or remotely.
  AccessStatus Go(tlm::tlm_generic_payload& trans, const Translation& where);
  AccessStatus Local(tlm::tlm_generic_payload& trans, uint64_t offset);
  // Reads or writes `length` bytes at `offset` of the card's memory, adding
  // its time to `delay`; whether the memory took it.
  bool MemoryAccess(tlm::tlm_command command, uint64_t offset, uint8_t* data,
                    uint32_t length, sc_core::sc_time& delay);
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
  ReusePool<Bytes> staging_;
  // LOG-6: the held slots and pages as requester, the fault queue as owner.
  std::unique_ptr<HeldSlot[]> slots_;
  std::deque<uint16_t> free_slots_;  // oldest freed first
  sc_core::sc_event slot_freed_;
  std::unordered_map<uint64_t, PageHold> holds_;  // by global page number
  uint64_t next_hold_ = 0;
  std::deque<FaultRecord> fault_queue_;
  uint32_t fault_seq_ = 0;
  sc_core::sc_event fault_queued_;
  // LOG-6.8: accesses in flight per page, acknowledgements owed, and the
  // invalidations this node sent, by INVAL_ID.
  std::unordered_map<uint64_t, unsigned> in_flight_;
  std::vector<PendingAck> pending_acks_;
  std::map<uint16_t, OutstandingInval> invals_;
  uint16_t next_inval_id_ = 0;
  sc_core::sc_event inval_changed_;
  std::deque<MailboxEntry> mailbox_;
  std::set<uint16_t> lost_peers_;  // reported in the mailbox
  sc_core::sc_event mailbox_event_;
  LogMessenger messenger_;
  LogicalCounters counters_;
  uint64_t window_base_ = 0;
  CopyRequest copy_;
  bool copy_busy_ = false;
  bool copy_done_ = false;
  AccessStatus copy_result_ = AccessStatus::kOk;
  sc_core::sc_event copy_start_, copy_ended_;
  PathProbe* probe_ = nullptr;
};

}  // namespace lq::logical
