// SPDX-License-Identifier: Apache-2.0
// LogicalUnit: decode, translate, perform locally or over RDMA.
#include "systemc/logical/logical_unit.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "models/common/bytes.h"
#include "models/logical/atomic.h"
#include "systemc/common/bus_amo_extension.h"

namespace lq::logical {
namespace {

using transport::CompletionStatus;
using transport::SendKind;
using transport::SendWr;

// The engine's DMA space (decision 0016): below kDirectBase the board's
// bus, from it this node's direct region, from kStagingBase the staging
// buffers and above them the messenger's buffers.
constexpr uint64_t kDirectBase = LogicalUnit::kDirectBase;
constexpr uint64_t kStagingBase = uint64_t{1} << 62;
constexpr uint64_t kMessageBase = kStagingBase + (uint64_t{1} << 61);
constexpr unsigned kMaxHeldSlots = 1u << 16;  // FAULT_ID is 16 bits
constexpr unsigned kWordBytes = 8;
// The requester index of the MCU's window (LOG-3.8): past every socket's.
constexpr int kWindowRequester = 32;

tlm::tlm_response_status ResponseOf(AccessStatus status) {
  switch (status) {
    case AccessStatus::kOk:
      return tlm::TLM_OK_RESPONSE;
    case AccessStatus::kAddressError:
      return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    case AccessStatus::kBurstError:
      return tlm::TLM_BURST_ERROR_RESPONSE;
    case AccessStatus::kByteEnableError:
      return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
    case AccessStatus::kCommandError:
      return tlm::TLM_COMMAND_ERROR_RESPONSE;
    case AccessStatus::kFaultError:
    case AccessStatus::kUnreachable:
      break;
  }
  return tlm::TLM_GENERIC_ERROR_RESPONSE;
}

}  // namespace

const char* AccessStatusName(AccessStatus status) {
  switch (status) {
    case AccessStatus::kOk:
      return "OK";
    case AccessStatus::kAddressError:
      return "ADDRESS_ERROR";
    case AccessStatus::kBurstError:
      return "BURST_ERROR";
    case AccessStatus::kByteEnableError:
      return "BYTE_ENABLE_ERROR";
    case AccessStatus::kCommandError:
      return "COMMAND_ERROR";
    case AccessStatus::kFaultError:
      return "FAULT_ERROR";
    case AccessStatus::kUnreachable:
      return "UNREACHABLE";
  }
  return "?";
}

LogicalUnit::LogicalUnit(const sc_core::sc_module_name& name,
                         const LogicalUnitConfig& config,
                         transport::TransportEngine& engine)
    : sc_module(name),
      socket("socket"),
      memory("memory"),
      bus("bus"),
      dma("dma"),
      window("window"),
      config_(config),
      engine_(engine),
      page_table_(config.pt_entries),
      slots_(new HeldSlot[config.held_slots]),
      messenger_(
          engine, kMessageBase, config.message_receives,
          [this](uint16_t from, const LogMessage& m) { OnMessage(from, m); },
          [this](uint16_t peer) { OnPeerLost(peer); }) {
  if (!Valid(config.space) || config.max_burst == 0 ||
      config.swap_attempts == 0 || config.node >= config.space.endpoints) {
    throw std::invalid_argument(
        std::string(this->name()) +
        ": log.page_bytes, log.direct_bytes, log.max_burst or "
        "log.swap_attempts out of range (LOG-3.1, LOG-3.7, LOG-5.1)");
  }
  if (config.max_burst > 0xFFFF) {  // FAULT_REQ's SIZE is 16 bits
    throw std::invalid_argument(std::string(this->name()) +
                                ": log.max_burst above 65535 (LOG-6.10)");
  }
  if (config.held_slots == 0 || config.held_slots > kMaxHeldSlots ||
      config.fault_queue_entries == 0 || config.message_receives == 0) {
    throw std::invalid_argument(
        std::string(this->name()) +
        ": log.held_slots must be 1 to 65536, log.fault_queue_entries and "
        "the message receives at least 1 (LOG-6.1, LOG-6.2)");
  }
  for (unsigned slot = config.held_slots; slot-- > 0;) {
    free_slots_.push_back(static_cast<uint16_t>(slot));
  }
  socket.register_b_transport(this, &LogicalUnit::BTransport);
  dma.register_b_transport(this, &LogicalUnit::DmaTransport);
  window.register_b_transport(this, &LogicalUnit::WindowTransport);
  rkey_ = engine.RegisterMemory(
      {kDirectBase, config.space.direct_bytes, transport::kRemoteAll});
  SC_HAS_PROCESS(LogicalUnit);
  SC_METHOD(OnCompletions);
  sensitive << engine.completion_event();
  dont_initialize();
  SC_THREAD(ResendInvalidations);
  SC_THREAD(RunCopies);
}

void LogicalUnit::Connect(uint16_t home, uint32_t qpn, uint32_t home_rkey) {
  connections_[home] = {qpn, home_rkey};
  if (!messenger_.AddPeer(home, qpn)) {
    throw std::invalid_argument(std::string(name()) + ": QP " +
                                std::to_string(qpn) +
                                " takes no receive work requests (LOG-6.10)");
  }
}

bool LogicalUnit::InstallPte(uint64_t page, const Pte& pte) {
  if (PteProblem(config_.space, pte)) {
    ++counters_.bad_ptes;
    return false;
  }
  page_table_.Install(page, pte);
  return true;
}

// ---------------------------------------------------------------------------
// Requesters.

void LogicalUnit::BTransport(int id, tlm::tlm_generic_payload& trans,
                             sc_core::sc_time& delay) {
  Probe(probe_, *this, PathPoint::kIssued, delay);
  wait(delay + config_.pipeline);
  delay = sc_core::SC_ZERO_TIME;
  if (requesters_.size() <= static_cast<size_t>(id)) {
    requesters_.resize(id + 1);
  }
  if (!requesters_[id]) {
    requesters_[id] = std::make_unique<Requester>();
  }
  Requester& requester = *requesters_[id];
  const uint64_t ticket = requester.next_ticket++;
  AccessStatus status = AccessStatus::kOk;
  if (trans.get_extension<FenceExtension>() != nullptr) {
    Fence(requester, ticket);  // LOG-3.6
  } else {
    requester.accepted.insert(ticket);
    StartInOrder(requester, ticket);
    std::optional<sc_core::sc_time> faulted;
    status = Perform(trans, faulted);
    if (faulted) {  // LOG-6.11: first FAULT_REQ to completion
      counters_.fault_latency_ns_sum += static_cast<uint64_t>(
          (sc_core::sc_time_stamp() - *faulted).to_seconds() * 1e9 + 0.5);
      ++counters_.fault_latency_count;
    }
    requester.accepted.erase(ticket);
    requester.changed.notify(sc_core::SC_ZERO_TIME);
  }
  // The status goes into the requester's StatusExtension, or into one the
  // payload's memory manager frees; a plain payload without one gets only
  // the TLM response.
  StatusExtension* extension = trans.get_extension<StatusExtension>();
  if (extension == nullptr && trans.has_mm()) {
    extension = new StatusExtension;
    trans.set_auto_extension(extension);
  }
  if (extension != nullptr) {
    extension->status = status;
  }
  trans.set_response_status(ResponseOf(status));
  delay = config_.pipeline;
  Probe(probe_, *this, PathPoint::kAnswered, delay);
}

// LOG-3.8: the hart's AMOSWAP.W and AMOADD.W are the unit's 4-byte SWAP
// and FADD; its other AMOs are refused.
void LogicalUnit::WindowTransport(tlm::tlm_generic_payload& trans,
                                  sc_core::sc_time& delay) {
  BusAmoExtension* amo = trans.get_extension<BusAmoExtension>();
  AtomicExtension atomic;
  if (amo != nullptr) {
    amo->performed = true;
    if (amo->op == BusAmoExtension::Op::kOther) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
    }
    atomic.request.op = amo->op == BusAmoExtension::Op::kSwap ? AtomicOp::kSwap
                                                              : AtomicOp::kFadd;
    atomic.request.size = 4;
    atomic.request.operand = amo->operand;
    trans.set_extension(&atomic);
  }
  const uint64_t offset = trans.get_address();
  trans.set_address(window_base_ + offset);
  BTransport(kWindowRequester, trans, delay);
  trans.set_address(offset);
  if (amo != nullptr) {
    trans.clear_extension(&atomic);
  }
}

// LOG-3.6: a fence completes once every access accepted before it has.
void LogicalUnit::Fence(Requester& requester, uint64_t ticket) {
  requester.fences.insert(ticket);
  while (!requester.accepted.empty() && *requester.accepted.begin() < ticket) {
    wait(requester.changed);
  }
  requester.fences.erase(ticket);
  requester.changed.notify(sc_core::SC_ZERO_TIME);
}

// An access starts once every fence accepted before it has completed, and
// after every access of its requester held with it that came earlier.
void LogicalUnit::StartInOrder(Requester& requester, uint64_t ticket) {
  requester.not_started.insert(ticket);
  while ((!requester.fences.empty() && *requester.fences.begin() < ticket) ||
         *requester.not_started.begin() != ticket) {
    wait(requester.changed);
  }
  requester.not_started.erase(ticket);
  requester.changed.notify(sc_core::SC_ZERO_TIME);
}

// LOG-4.1: waits while a CmpSwap loop to `home` runs, then lets accesses
// to it through in the order they arrived here.
void LogicalUnit::PassGate(uint16_t home) {
  HomeGate& gate = gates_[home];
  if (!gate.looping && gate.waiting.empty()) {
    return;
  }
  const uint64_t number = next_start_++;
  gate.waiting.push_back(number);
  while (gate.looping || gate.waiting.front() != number) {
    wait(gate.changed);
  }
  gate.waiting.pop_front();
  gate.changed.notify(sc_core::SC_ZERO_TIME);
}

AccessStatus LogicalUnit::Perform(tlm::tlm_generic_payload& trans,
                                  std::optional<sc_core::sc_time>& faulted) {
  const uint64_t length = trans.get_data_length();
  const uint64_t ga = trans.get_address();
  const AtomicExtension* atomic = trans.get_extension<AtomicExtension>();
  // BURST, BYTE_ENABLE and COMMAND errors: the access's shape is wrong.
  const auto refuse = [this](AccessStatus status) {
    ++counters_.shape_errors;
    return status;
  };
  if (trans.get_byte_enable_ptr() != nullptr) {
    return refuse(AccessStatus::kByteEnableError);  // LOG-3.1
  }
  if (trans.get_streaming_width() != length) {
    return refuse(AccessStatus::kBurstError);
  }
  const std::optional<DecodedAddress> decoded = Decode(config_.space, ga);
  if (!decoded) {
    ++counters_.address_errors;
    return AccessStatus::kAddressError;  // LOG-2.6
  }
  AccessKind kind = trans.is_write() ? AccessKind::kStore : AccessKind::kLoad;
  if (atomic != nullptr) {
    if (!trans.is_read() || length != atomic->request.size ||
        !AtomicShapeOk(ga, atomic->request.size)) {
      return refuse(AccessStatus::kCommandError);  // LOG-3.4
    }
    kind = AccessKind::kAtomic;
  } else if (!trans.is_read() && !trans.is_write()) {
    return refuse(AccessStatus::kCommandError);
  } else if (length == 0 || length > config_.max_burst ||
             !WithinOnePage(config_.space, ga, length)) {
    return refuse(AccessStatus::kBurstError);  // LOG-3.1
  }
  Translation where{decoded->node, decoded->offset};
  if (decoded->region == Region::kPaged) {
    FaultRequest access;
    access.access = kind;
    access.requester = config_.node;
    access.ga = ga;
    access.size = static_cast<uint16_t>(length);
    const AccessStatus status =
        TranslatePaged(access, decoded->node, where, faulted);
    if (status != AccessStatus::kOk) {
      return status;
    }
    // LOG-6.8: an invalidation of the page waits for this access.
    const uint64_t page = PageNumber(config_.space, ga);
    ++in_flight_[page];
    const AccessStatus performed = Go(trans, where);
    ReleasePage(page);
    return performed;
  }
  return Go(trans, where);
}

AccessStatus LogicalUnit::Go(tlm::tlm_generic_payload& trans,
                             const Translation& where) {
  return where.home == config_.node
             ? Local(trans, where.home_offset)
             : Remote(trans, where.home, where.home_offset);
}

AccessStatus LogicalUnit::Local(tlm::tlm_generic_payload& trans,
                                uint64_t offset) {
  ++counters_.local_ops;
  const AtomicExtension* atomic = trans.get_extension<AtomicExtension>();
  const auto length = static_cast<uint32_t>(trans.get_data_length());
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  bool ok = false;
  if (atomic == nullptr) {
    ok = MemoryAccess(trans.get_command(), offset, trans.get_data_ptr(), length,
                      delay);
  } else {
    // Read, change and write with nothing in between (LOG-3.5).
    const unsigned size = atomic->request.size;
    uint8_t bytes[kWordBytes] = {};
    ok = MemoryAccess(tlm::TLM_READ_COMMAND, offset, bytes, length, delay);
    const uint64_t old_value = LoadLittleEndian(bytes, size);
    if (ok) {
      StoreLittleEndian(bytes, size, AtomicResult(atomic->request, old_value));
      ok = MemoryAccess(tlm::TLM_WRITE_COMMAND, offset, bytes, length, delay);
      StoreLittleEndian(trans.get_data_ptr(), size, old_value);
    }
  }
  wait(delay);
  if (!ok) {
    ++counters_.address_errors;
    return AccessStatus::kAddressError;
  }
  return AccessStatus::kOk;
}

bool LogicalUnit::MemoryAccess(tlm::tlm_command command, uint64_t offset,
                               uint8_t* data, uint32_t length,
                               sc_core::sc_time& delay) {
  tlm::tlm_generic_payload access;
  access.set_command(command);
  access.set_address(offset);
  access.set_data_ptr(data);
  access.set_data_length(length);
  access.set_streaming_width(length);
  memory->b_transport(access, delay);
  return access.is_response_ok();
}

AccessStatus LogicalUnit::Remote(tlm::tlm_generic_payload& trans, uint16_t home,
                                 uint64_t offset) {
  const auto length = static_cast<uint32_t>(trans.get_data_length());
  PassGate(home);
  if (const AtomicExtension* atomic = trans.get_extension<AtomicExtension>()) {
    ++counters_.remote_atomics;
    return RemoteAtomic(atomic->request, home, offset, trans.get_data_ptr());
  }
  SendWr wr;
  wr.length = length;
  wr.remote_address = offset;
  if (trans.is_read()) {
    ++counters_.remote_loads;
    wr.kind = SendKind::kRead;
  } else {
    ++counters_.remote_stores;
    wr.kind = SendKind::kWrite;
  }
  return Rdma(home, wr, trans.get_data_ptr(), length);
}

AccessStatus LogicalUnit::RemoteAtomic(const AtomicRequest& request,
                                       uint16_t home, uint64_t offset,
                                       uint8_t* old_value) {
  uint8_t word[kWordBytes] = {};
  SendWr wr;
  wr.length = kWordBytes;
  if (DirectRdmaAtomic(request)) {
    wr.kind = request.op == AtomicOp::kCas ? SendKind::kCompareSwap
                                           : SendKind::kFetchAdd;
    wr.remote_address = offset;
    wr.compare = request.compare;
    wr.swap_add = request.operand;
    const AccessStatus status = Rdma(home, wr, word, kWordBytes);
    std::memcpy(old_value, word, kWordBytes);
    return status;
  }
  // LOG-3.7: read the aligned word, then CmpSwap until it takes; later
  // accesses to this home wait meanwhile (LOG-4.1).
  HomeGate& gate = gates_[home];
  gate.looping = true;
  const uint64_t word_offset = offset - offset % kWordBytes;
  const auto within = static_cast<unsigned>(offset % kWordBytes);
  wr.kind = SendKind::kRead;
  wr.remote_address = word_offset;
  AccessStatus status = Rdma(home, wr, word, kWordBytes);
  bool done = false;
  for (unsigned attempt = 0;
       !done && status == AccessStatus::kOk && attempt < config_.swap_attempts;
       ++attempt) {
    const uint64_t seen = LoadLittleEndian(word, kWordBytes);
    const LoopStep step = AtomicLoopStep(request, within, seen);
    wr.kind = SendKind::kCompareSwap;
    wr.compare = seen;
    wr.swap_add = step.swap_word;
    status = Rdma(home, wr, word, kWordBytes);
    if (status != AccessStatus::kOk) {
      break;
    }
    done = LoadLittleEndian(word, kWordBytes) == seen;
    if (done) {
      StoreLittleEndian(old_value, request.size, step.old_value);
    } else {
      ++counters_.cmpswap_retries;  // another node changed the word
    }
  }
  gate.looping = false;
  gate.changed.notify(sc_core::SC_ZERO_TIME);
  if (status != AccessStatus::kOk) {
    return status;
  }
  return done ? AccessStatus::kOk : AccessStatus::kFaultError;
}

// ---------------------------------------------------------------------------
// RDMA.

AccessStatus LogicalUnit::Rdma(uint16_t home, SendWr wr, uint8_t* data,
                               uint32_t length) {
  const auto connection = connections_.find(home);
  if (connection == connections_.end()) {
    ++counters_.unreachable;
    return AccessStatus::kUnreachable;
  }
  const size_t slot = staging_.Take();
  staging_[slot].assign(data, data + length);
  wr.wr_id = next_wr_id_++;
  wr.rkey = connection->second.rkey;
  wr.remote_address += kDirectBase;  // the home's direct region
  Pending pending;
  pending_[wr.wr_id] = &pending;
  const uint64_t local_address =
      kStagingBase + uint64_t{slot} * (uint64_t{1} << 32);
  Probe(probe_, *this, PathPoint::kPosted);
  const auto posted =
      engine_.PostSend(connection->second.qpn, wr, local_address);
  if (posted) {
    while (!pending.status) {
      wait(pending.done);
    }
  }
  pending_.erase(wr.wr_id);
  std::copy(staging_[slot].begin(), staging_[slot].end(), data);
  staging_[slot].clear();  // a stray late DMA now misses (address error)
  staging_.Free(slot);
  if (posted && *pending.status == CompletionStatus::kSuccess) {
    return AccessStatus::kOk;
  }
  if (posted && *pending.status == CompletionStatus::kRemAccessErr) {
    ++counters_.address_errors;  // LOG-2.6
    return AccessStatus::kAddressError;
  }
  ++counters_.unreachable;
  return AccessStatus::kUnreachable;
}

void LogicalUnit::OnCompletions() {
  for (const transport::EngineCompletion& c : engine_.PollCompletions()) {
    if (messenger_.Take(c)) {
      continue;  // a LOG message sent or received (LOG-6.10)
    }
    const auto found = pending_.find(c.completion.wr_id);
    if (c.receive || found == pending_.end()) {
      continue;
    }
    found->second->status = c.completion.status;
    found->second->done.notify(sc_core::SC_ZERO_TIME);
  }
}

void LogicalUnit::DmaTransport(tlm::tlm_generic_payload& trans,
                               sc_core::sc_time& delay) {
  const uint64_t address = trans.get_address();
  if (address < kDirectBase) {
    if (bus.get_base_port().size() == 0) {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    bus->b_transport(trans, delay);  // the board's bus: firmware's buffers
    return;
  }
  if (address < kStagingBase) {
    trans.set_address(address - kDirectBase);  // the card's memory
    memory->b_transport(trans, delay);
    trans.set_address(address);
    return;
  }
  if (messenger_.Dma(trans)) {
    return;
  }
  const uint64_t slot = (address - kStagingBase) >> 32;
  const uint64_t at = (address - kStagingBase) & 0xFFFFFFFF;
  const uint64_t length = trans.get_data_length();
  if (slot >= staging_.size() || at + length > staging_[slot].size()) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint8_t* cell = staging_[slot].data() + at;
  if (trans.is_write()) {
    std::memcpy(cell, trans.get_data_ptr(), length);
  } else {
    std::memcpy(trans.get_data_ptr(), cell, length);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

const ComponentDecl& LogicalUnit::Declaration() {
  static const ComponentDecl decl{
      "logical",
      "a card's logical unit: global loads, stores and atomics (log.md)",
      {{"socket", "TLM-2.0 target (multi)",
        "requesters: the workload, the CPU's window"},
       {"memory", "TLM-2.0 initiator", "the card's memory"},
       {"bus", "TLM-2.0 initiator (optional)",
        "the board bus, for the engine's DMA of firmware's work requests"},
       {"dma", "TLM-2.0 target", "the transport engine's DMA"},
       {"window", "TLM-2.0 target (optional)",
        "the bus's global window (LOG-3.8)"}},
      {{"local_ops", "accesses to this card's own memory (LOG-6.11)"},
       {"remote_loads", "loads sent to other cards"},
       {"remote_stores", "stores sent to other cards"},
       {"remote_atomics", "atomics sent to other cards"},
       {"cmpswap_retries", "LOG-3.7 rounds lost to another requester"},
       {"address_errors", "accesses that ended in an address error"},
       {"shape_errors", "BURST, BYTE_ENABLE and COMMAND errors"},
       {"unreachable", "accesses that ended UNREACHABLE (LOG-6.12)"},
       {"bad_ptes", "malformed page table entries met"},
       {"faults_served", "fault answers sent as owner"},
       {"fault_rejects", "accesses completed by a REJECT"},
       {"fault_timeouts", "faults that timed out"},
       {"busy_responses", "BUSY answers sent as owner"},
       {"late_fault_responses", "fault answers that came after their timeout"},
       {"held_slot_waits", "accesses that waited for a held slot"},
       {"fault_latency_ns.sum", "first FAULT_REQ to completion, summed (ns)"},
       {"fault_latency_ns.count", "faults timed"},
       {"bad_messages", "logical-layer messages dropped as malformed"},
       {"invalidations", "INVAL_REQs acted on as sharer"},
       {"copies", "COPY commands that ended OK (LOG-6.13)"},
       {"migrations", "MIGRATE commands that ended OK"},
       {"faults_raised.<cause>",
        "faults raised as requester, by cause: not_mapped, no_read, no_write, "
        "no_atomic, migrating"}}};
  return decl;
}

StatList LogicalUnit::Stats() const {
  StatWriter stats(Declaration(), std::string(name()) + ".");
  stats.Add("local_ops", counters_.local_ops)
      .Add("remote_loads", counters_.remote_loads)
      .Add("remote_stores", counters_.remote_stores)
      .Add("remote_atomics", counters_.remote_atomics)
      .Add("cmpswap_retries", counters_.cmpswap_retries)
      .Add("address_errors", counters_.address_errors)
      .Add("shape_errors", counters_.shape_errors)
      .Add("unreachable", counters_.unreachable)
      .Add("bad_ptes", counters_.bad_ptes)
      .Add("faults_served", counters_.faults_served)
      .Add("fault_rejects", counters_.fault_rejects)
      .Add("fault_timeouts", counters_.fault_timeouts)
      .Add("busy_responses", counters_.busy_responses)
      .Add("late_fault_responses", counters_.late_fault_responses)
      .Add("held_slot_waits", counters_.held_slot_waits)
      .Add("fault_latency_ns.sum", counters_.fault_latency_ns_sum)
      .Add("fault_latency_ns.count", counters_.fault_latency_count)
      .Add("bad_messages", messenger_.bad_messages())
      .Add("invalidations", counters_.invalidations)
      .Add("copies", counters_.copies)
      .Add("migrations", counters_.migrations);
  static constexpr const char* kCauses[] = {
      "", "not_mapped", "no_read", "no_write", "no_atomic", "migrating"};
  for (size_t cause = 1; cause < counters_.faults_raised.size(); ++cause) {
    stats.Add("faults_raised.<cause>", {kCauses[cause]},
              counters_.faults_raised[cause]);
  }
  return stats.Take();
}

}  // namespace lq::logical
