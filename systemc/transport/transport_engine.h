// SPDX-License-Identifier: Apache-2.0
// TransportEngine: one node's RoCEv2 reliable-connection engine
// (docs/spec/trn.md). Workloads use its verbs-like API — create and modify
// queue pairs, post SEND/WRITE and receive work requests naming buffers in
// the node's memory, poll completions. It moves real bytes: payloads are
// read from and written to memory by DMA over its TLM initiator socket,
// every packet exists as RoCEv2 wire bytes (models/roce: Ethernet, IPv4,
// UDP 4791, BTH and the rest, ICRC), and those bytes cross the fabric as
// the payload of network-layer DATA packets through the engine's network
// interface. The protocol's decisions are models/transport's.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/result.h"
#include "models/roce/packet.h"
#include "models/roce/packet_factory.h"
#include "models/transport/congestion_control.h"
#include "models/transport/memory_regions.h"
#include "models/transport/qp_state.h"
#include "models/transport/requester.h"
#include "models/transport/responder.h"
#include "systemc/common/component_decl.h"
#include "systemc/common/path_probe.h"
#include "systemc/common/stat_list.h"
#include "systemc/network/network_interface.h"

namespace lq::transport {

struct TransportEngineConfig {
  uint32_t node = 0;
  net::NetworkInterfaceConfig interface;  // its node is set from `node`
  RequesterConfig requester;
  ResponderConfig responder;
  // The congestion control of QPs whose INIT -> RTR modify names none
  // (transport.cc, TRN-5.5), and the parameters of all; line_rate_bps is
  // the injection port's goodput.
  std::string congestion = "none";
  CongestionParams congestion_params;
};

// A completion with the queue pair and queue it belongs to.
struct EngineCompletion {
  uint32_t qpn = 0;
  bool receive = false;  // from the receive queue
  Completion completion;
  uint64_t at_ps = 0;  // when the engine completed it
};

// Counters of the engine (docs/stats-schema.md: transport).
struct EngineCounters {
  uint64_t packets_sent = 0;
  uint64_t packets_received = 0;
  uint64_t retransmits = 0;  // transport.retransmits (TRN-7.3)
  uint64_t bad_packets = 0;  // failed TRN-4 parsing or ICRC: dropped
  // No such QP, one not accepting packets, or a P_Key not the QP's.
  uint64_t stray_packets = 0;
  // Requests that arrived again and were not executed again (TRN-6.11),
  // and requests ahead of the expected PSN (TRN-7.2).
  uint64_t duplicates = 0;
  uint64_t out_of_sequence = 0;
  uint64_t dma_errors = 0;
  uint64_t access_errors = 0;  // refused by TRN-6.14's region check
  uint64_t ce_received = 0;    // packets that arrived CE-marked (TRN-9.2)
  uint64_t cnps_sent = 0;      // transport.cnps (TRN-9.6)
  uint64_t cnps_received = 0;  // handed to a QP's congestion control
  // Work requests, send and receive: posted, completed successfully,
  // completed with an error (flushes included), discarded without a
  // completion by a modify to RESET (TRN-5.2). Once all are done, posted =
  // completed + failed + discarded: none lost, none completed twice.
  uint64_t work_posted = 0;
  uint64_t work_completed = 0;
  uint64_t work_failed = 0;
  uint64_t work_discarded = 0;
};

class TransportEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TransportEngine> memory;

  TransportEngine(const sc_core::sc_module_name& name,
                  const TransportEngineConfig& config);

  // To the router's local port.
  link::SlotSocket& network() { return interface_.socket; }
  net::NetworkInterface& interface() { return interface_; }

  // Memory regions remote WRITEs, READs and atomics may touch (TRN-6.14):
  // Register returns the R_Key the peers' work requests must carry.
  uint32_t RegisterMemory(const MemoryRegion& region) {
    return regions_.Register(region);
  }
  // TRN-6.14: the R_Key of the `k`-th region (from 0) an engine registers,
  // none deregistered.
  static constexpr uint32_t NthRkey(uint32_t k) {
    return MemoryRegions::NthKey(k);
  }
  bool DeregisterMemory(uint32_t rkey) { return regions_.Deregister(rkey); }

  uint32_t node() const { return config_.node; }

  // TRN-5.4: QPNs from 2 upward, never reused.
  uint32_t CreateQp();
  // TRN-5.4: the QPN of the `k`-th QP an engine creates (from 0), which
  // lets a builder name a QP on an engine another rank holds.
  static constexpr uint32_t NthQpn(uint32_t k) { return kFirstQpn + k; }
  bool has_qp(uint32_t qpn) const { return qps_.count(qpn) != 0; }
  // TRN-5.1 to TRN-5.5; an INIT -> RTR modify that names no congestion
  // control gets the engine's (TRN-5.8).
  Result<QpState> ModifyQp(uint32_t qpn, const QpModify& modify);
  QpState qp_state(uint32_t qpn) const;
  // TRN-5.7's DESTROY: removes a QP in RESET or ERROR whose work requests
  // have all completed; its QPN is not reused. Fails otherwise.
  Result<bool> DestroyQp(uint32_t qpn);
  // Posts a send WR whose bytes are at `local_address` in this node's
  // memory (for a READ: where the data goes; for an atomic: where the 8
  // original bytes go, little-endian). Fails on an unknown QP or one not in RTS
  // (TRN-5.2); in ERROR the WR completes with FLUSH_ERR.
  Result<bool> PostSend(uint32_t qpn, const SendWr& wr, uint64_t local_address);
  // Posts a receive WR whose buffer is at `local_address`. Fails on an
  // unknown QP or one in RESET.
  Result<bool> PostReceive(uint32_t qpn, const RecvWr& wr,
                           uint64_t local_address);
  // Completions since the last poll, in the order they happened.
  std::vector<EngineCompletion> PollCompletions();
  // Notified (after a delta) whenever a completion is added.
  const sc_core::sc_event& completion_event() const {
    return completion_event_;
  }

  // Every frame this engine sends, with the simulated time it is handed to
  // the network: the bytes a capture (--pcap) records.
  using FrameTap =
      std::function<void(const sc_core::sc_time& at, const Bytes& frame)>;
  void SetFrameTap(FrameTap tap) { tap_ = std::move(tap); }
  // Reports frames sent and received and completions to `probe`.
  void set_probe(PathProbe* probe) { probe_ = probe; }
  // Told whenever a QP's congestion control paces at a new rate
  // (CongestionControl::rate_bps(): DCQCN's RC, TRN-10), with the time in
  // ps: once for its first rate, then at each change, as the engine runs
  // the QP (a DCQCN timer's rise shows when the QP next has work).
  using RateObserver =
      std::function<void(uint32_t qpn, double rate_bps, uint64_t at_ps)>;
  void set_rate_observer(RateObserver observer) {
    rate_observer_ = std::move(observer);
  }

  const EngineCounters& counters() const { return counters_; }
  StatList Stats() const;
  static const ComponentDecl& Declaration();

 private:
  struct QueuedReply {
    std::optional<ReadAnswer> read;  // else `packet`
    roce::RocePacket packet;
  };
  struct Qp {
    QpContext context;
    std::optional<Requester> requester;
    std::optional<Responder> responder;
    std::map<uint64_t, uint64_t> send_buffers;     // wr_id -> address
    std::map<uint64_t, uint64_t> receive_buffers;  // wr_id -> address
    std::vector<RecvWr> early_receives;            // posted in INIT, before RTR
    std::unique_ptr<CongestionControl> cc;         // from RTS
    // A request taken from the requester that its window holds back
    // (TRN-11.7); made again by Next() after a rewind.
    std::optional<RequestPacket> held;
    std::optional<uint64_t> last_cnp_ps;  // TRN-9.5, TRN-11.4
    bool becn_due = false;                // TRN-11.3
    // The responder's replies in the order it made them: READs being
    // answered (their responses leave as the QP's pacing allows, TRN-10.1)
    // and the ACKs, NAKs and ATOMIC ACKNOWLEDGEs made after them, which
    // must not overtake them (TRN-6.12). The next response packet of the
    // front READ.
    std::deque<QueuedReply> replies;
    uint32_t next_response = 0;
    double observed_rate_bps = 0;  // the last told to the rate observer
  };

  // The QP for a post; nullptr when it is in ERROR, where the work request
  // completes at once with FLUSH_ERR (TRN-5.2); fails on an unknown QP, one
  // in a state that takes no such post, or a work request ID outstanding
  // on the same queue.
  Result<Qp*> QpForPost(uint32_t qpn, uint64_t wr_id, bool receive);
  void Run();  // SC_THREAD: deliveries, timers, transmissions
  // Nothing held, queued or outstanding: Run() need not look at it until a
  // post, a modify or a packet makes it busy again.
  static bool Idle(const Qp& qp);
  // A post or modify from another process: Run() looks at every QP again,
  // even if the notice came while it was waiting for a DMA.
  void Poke();
  // Whether the first frame of the inbox has arrived (TRN-4.7).
  bool InboxDue() const;
  void Receive(const net::Delivered& delivered);
  // Sends the QP's requests as far as the injection window, its pacing and
  // its window allow; returns when pacing next lets one go, if it holds
  // one back.
  std::optional<uint64_t> SendRequests(uint32_t qpn, Qp& qp);
  void Transmit(uint32_t qpn, Qp& qp, const RequestPacket& request);
  // Tells the congestion control what a requester event did: acknowledged
  // requests (TRN-11.5) or a rewind (TRN-11.7).
  void AfterRequesterEvent(Qp& qp, uint32_t unacked_before,
                           uint32_t next_before, bool becn);
  // The notification point: a CNP to the peer QP unless one went within
  // the interval of the QP's congestion control (TRN-9.5, TRN-11.4).
  void Notify(uint32_t qpn, Qp& qp);
  // Tells the rate observer of the QP's rate if it changed.
  void ObserveRate(uint32_t qpn, Qp& qp);
  // TRN-11.3: the first reply after a CE-marked request carries BECN.
  void CarryBecn(Qp& qp, roce::RocePacket& packet);
  // A READ response or ATOMIC ACKNOWLEDGE: its data into the work
  // request's local buffer.
  void TakeResponse(Qp& qp, const roce::RocePacket& packet);
  // Checks a READ's rights (TRN-6.14) and queues its responses.
  void AnswerRead(uint32_t qpn, Qp& qp, const ReadAnswer& read);
  // Sends the QP's queued replies as far as its pacing allows READ
  // responses to go; returns when pacing next lets one go, if it holds one
  // back.
  std::optional<uint64_t> SendResponses(uint32_t qpn, Qp& qp);
  // Reads and sends the next response packet of the front queued READ.
  void SendNextResponse(uint32_t qpn, Qp& qp);
  // An ACK, NAK or ATOMIC ACKNOWLEDGE: sent now, or queued behind the
  // READ responses still waiting.
  void SendReply(uint32_t qpn, Qp& qp, const roce::RocePacket& packet);
  void AnswerAtomic(uint32_t qpn, Qp& qp, const AtomicAnswer& atomic);
  void SendFrame(uint32_t remote_node, const roce::RocePacket& packet);
  roce::Path PathOf(uint32_t qpn, const Qp& qp) const;
  // TRN-6.13: the responder may not or could not access memory for the
  // request of `psn`: NAK it with `code`, go to ERROR.
  void RefuseOperation(uint32_t qpn, Qp& qp, uint32_t psn, uint32_t msn,
                       roce::NakCode code);
  // TRN-6.14's check of a remote access to this node's memory; a refusal
  // is counted.
  bool MayAccess(uint32_t rkey, uint64_t address, uint64_t length,
                 RemoteAccess access);
  // Puts a request's payload where `place` says: checks the R_Key's region
  // for RDMA (TRN-6.14), then DMA. The NAK code of a failure, if any.
  std::optional<roce::NakCode> Place(Qp& qp, const Placement& place,
                                     Bytes payload);
  // The QP went to ERROR: flush both queues (TRN-5.2).
  void EnterError(uint32_t qpn, Qp& qp);
  void Collect(uint32_t qpn, Qp& qp);
  void Complete(const EngineCompletion& completion);  // counts it
  // One DMA access, waiting out the time memory reports for it.
  bool Dma(tlm::tlm_command command, uint64_t address, uint8_t* data,
           size_t length);
  // The access alone, its time added to `delay`, without waiting: an
  // atomic's read and write go back to back so that nothing can come
  // between them (the home performs it indivisibly, log.md LOG-3.5).
  bool DmaAccess(tlm::tlm_command command, uint64_t address, uint8_t* data,
                 size_t length, sc_core::sc_time& delay);
  void WaitDma(const sc_core::sc_time& delay);
  // A modify or destroy from another thread waits until the engine is not
  // in the middle of a DMA, whose caller holds references into the QP.
  void WaitOutOfDma();
  uint64_t NowNs() const;

  TransportEngineConfig config_;
  net::NetworkInterface interface_;
  std::map<uint32_t, Qp> qps_;
  // The QPs Run() looks at, in QPN order (map nodes do not move).
  std::map<uint32_t, Qp*> busy_;
  MemoryRegions regions_;
  static constexpr uint32_t kFirstQpn = 2;
  uint32_t next_qpn_ = kFirstQpn;
  // Frames from the interface, each to be taken at its `at` (TRN-4.7).
  std::deque<net::Delivered> inbox_;
  std::vector<EngineCompletion> completions_;
  EngineCounters counters_;
  RateObserver rate_observer_;
  FrameTap tap_;
  PathProbe* probe_ = nullptr;
  sc_core::sc_event wake_;
  bool poked_ = false;
  sc_core::sc_event completion_event_;
  bool in_dma_ = false;
  sc_core::sc_event dma_done_;
};

}  // namespace lq::transport
