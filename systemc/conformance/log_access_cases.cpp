// SPDX-License-Identifier: Apache-2.0
// Logical-layer conformance cases, log.md sections 1 to 4: how the DUT's
// logical unit carries accesses to their homes (LOG-1.2, LOG-3.7), what
// they return and leave in memory (LOG-3.2, LOG-3.3, LOG-4.4), the accesses it
// must refuse without sending anything (LOG-1.3, LOG-2.6, LOG-3.1, LOG-3.4),
// and the DUT as the home of another card's accesses.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generated/cpp/logical_regs.h"
#include "systemc/common/stat_list.h"
#include "systemc/conformance/log_case_helpers.h"
#include "systemc/conformance/router_case_helpers.h"

namespace lq::conformance {

namespace {

namespace regs = lq::regs::logical;
using logical::AccessStatus;
using logical::AccessStatusName;
using logical::AtomicOp;
using logical::AtomicRequest;
using logical::testing::Answer;
using logical::testing::Requester;
using roce::Opcode;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

std::string ResponseName(tlm::tlm_response_status status) {
  tlm::tlm_generic_payload trans;
  trans.set_response_status(status);
  return trans.get_response_string();
}

// Expects `answer` to be OK; `what` names the access.
bool ExpectOk(LogicalCaseContext& context, const Answer& answer,
              const std::string& what,
              std::initializer_list<const char*> clauses) {
  return context.verdict.Expect(
      answer.status == AccessStatus::kOk,
      what + " completed " + AccessStatusName(answer.status), clauses);
}

// LOG-1.2, LOG-2.7, LOG-3.2, LOG-3.3, LOG-3.7 and LOG-4.4, the DUT as
// requester: a local store stays off the wire and out of the registers;
// each remote access is the transport operation of LOG-3.7's table, at VA
// 2^40 + home offset under the home's R_Key, and returns and leaves what
// LOG-3.2 and LOG-3.3 say; a load after the home's own store sees it.
void MapsAccessesOntoRdma(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  Requester& requester = bench.requester(0);
  const uint32_t rkey = bench.peer().rkey();
  const auto mark = [&] { return bench.wire().log().size(); };

  // Over IRQ_ENABLE's offset in the unit's register map, which holds a
  // value of its own: global addresses do not reach the registers
  // (LOG-2.7).
  const uint32_t enabled = regs::kIrqEnableFault.Mask();
  bench.dut_csr().Write(regs::kIrqEnableOffset, enabled);
  size_t from = mark();
  const Bytes local = Pattern(24, 0x11);
  ExpectOk(context,
           requester.Store(DirectGa(kDut, regs::kIrqEnableOffset), local),
           "a local store of 24 B", {"LOG-1.2"});
  sc_core::wait(1, SC_US);
  const bool in_memory =
      bench.dut_memory().Peek(regs::kIrqEnableOffset, 24) == local;
  const uint32_t still = bench.dut_csr().Read(regs::kIrqEnableOffset);
  verdict.Expect(in_memory && still == enabled,
                 "a store over IRQ_ENABLE's offset of the DUT's window left "
                 "IRQ_ENABLE " +
                     Hex(still) + " (was " + Hex(enabled) + ") and " +
                     (in_memory ? "reached" : "missed") + " its memory",
                 {"LOG-2.7"});
  verdict.Expect(
      in_memory && FramesWhere(
                       bench.wire(),
                       [](const PortFrame& f) { return f.from_dut(); }, from)
                       .empty(),
      "a store to the DUT's own direct region went onto the wire "
      "or did not reach its memory",
      {"LOG-1.2"});

  // A store: one WRITE, done only once its ACK is back (LOG-3.2).
  from = mark();
  const Bytes stored = Pattern(32, 0x40);
  ExpectOk(context, requester.Store(DirectGa(kPeer, 0x1000), stored),
           "a remote store of 32 B", {"LOG-3.7", "LOG-3.2"});
  const sc_time store_done = sc_core::sc_time_stamp();
  ExpectRdma(context, from, {{Opcode::kWriteOnly, 0x1000, 32}}, rkey,
             "a store of 32 B", {"LOG-3.7"});
  verdict.Expect(bench.peer_memory().Peek(0x1000, 32) == stored,
                 "the home's memory does not hold the stored bytes",
                 {"LOG-3.2"});
  const auto ack = AwaitFrame(
      bench.wire(),
      [](const PortFrame& f) { return !f.from_dut() && f.is_ack(); },
      sc_core::SC_ZERO_TIME, from);
  verdict.Expect(ack && bench.wire().log()[*ack].at <= store_done,
                 "the store completed at " +
                     std::to_string(store_done.to_seconds() * 1e6) +
                     " us, before its WRITE's ACK reached the DUT",
                 {"LOG-3.2"});

  // A load: one READ of its length.
  const Bytes home_bytes = Pattern(64, 0x90);
  bench.peer_memory().Poke(0x2000, home_bytes);
  from = mark();
  const Answer load = requester.Load(DirectGa(kPeer, 0x2000), 64);
  ExpectOk(context, load, "a remote load of 64 B", {"LOG-3.7", "LOG-3.2"});
  ExpectRdma(context, from, {{Opcode::kReadRequest, 0x2000, 64}}, rkey,
             "a load of 64 B", {"LOG-3.7"});
  verdict.Expect(load.data == home_bytes,
                 "the load did not return the home's bytes", {"LOG-3.2"});

  // The home's bytes change under another requester: the DUT keeps no
  // copy, so its next load goes to the home again and sees them.
  const Bytes changed = Pattern(64, 0xC0);
  ExpectOk(context,
           bench.peer_requester(0).Store(DirectGa(kPeer, 0x2000), changed),
           "the home's own store", {"LOG-4.4"});
  from = mark();
  const Answer reload = requester.Load(DirectGa(kPeer, 0x2000), 64);
  ExpectRdma(context, from, {{Opcode::kReadRequest, 0x2000, 64}}, rkey,
             "a load after the home's store", {"LOG-4.4"});
  verdict.Expect(reload.data == changed,
                 "a load after the home's own store returned the old bytes",
                 {"LOG-4.4"});

  // 8-byte CAS and FADD: one atomic each; SWAP and 4-byte atomics: a READ
  // of the aligned word, then a CmpSwap of what it read.
  constexpr uint64_t kWord = 0x3000;
  const uint64_t w0 = 0x0123456789ABCDEFull;
  const uint64_t w1 = 0x1111222233334444ull;
  const uint64_t w2 = 0xFEDCBA9876543210ull;
  const uint64_t add8 = 0x100000001ull;
  const uint64_t add4 = 0x80000001ull;
  SetWord(bench.peer_memory(), kWord, w0);
  struct Step {
    const char* what;
    AtomicRequest request;
    uint64_t offset;
    std::vector<ExpectedRdma> ops;
    uint64_t old;    // what it returns
    uint64_t after;  // the word then
  };
  const uint64_t w3 = w1 + add8;
  const uint64_t high = w2 >> 32;
  const uint64_t w4 =
      (w2 & 0xFFFFFFFFull) | (((high + add4) & 0xFFFFFFFFull) << 32);
  const std::vector<Step> steps = {
      {"a CAS of 8 B that succeeds",
       Atomic(AtomicOp::kCas, 8, w1, w0),
       kWord,
       {{Opcode::kCompareSwap, kWord, 0, w0, w1}},
       w0,
       w1},
      {"a CAS of 8 B that fails",
       Atomic(AtomicOp::kCas, 8, w2, w0),
       kWord,
       {{Opcode::kCompareSwap, kWord, 0, w0, w2}},
       w1,
       w1},
      {"a FADD of 8 B",
       Atomic(AtomicOp::kFadd, 8, add8),
       kWord,
       {{Opcode::kFetchAdd, kWord, 0, 0, add8}},
       w1,
       w3},
      {"a SWAP of 8 B",
       Atomic(AtomicOp::kSwap, 8, w2),
       kWord,
       {{Opcode::kReadRequest, kWord, 8},
        {Opcode::kCompareSwap, kWord, 0, w3, w2}},
       w3,
       w2},
      {"a FADD of 4 B at the word's upper half",
       Atomic(AtomicOp::kFadd, 4, add4),
       kWord + 4,
       {{Opcode::kReadRequest, kWord, 8},
        {Opcode::kCompareSwap, kWord, 0, w2, w4}},
       high,
       w4},
  };
  for (const Step& step : steps) {
    from = mark();
    const Answer answer =
        requester.Atomic(DirectGa(kPeer, step.offset), step.request);
    ExpectOk(context, answer, step.what, {"LOG-3.7", "LOG-3.3"});
    ExpectRdma(context, from, step.ops, rkey, step.what, {"LOG-3.7"});
    const uint64_t after = WordAt(bench.peer_memory(), kWord);
    verdict.Expect(answer.old == step.old && after == step.after,
                   std::string(step.what) + " returned " + Hex(answer.old) +
                       " and left " + Hex(after) + "; LOG-3.3 gives " +
                       Hex(step.old) + " and " + Hex(step.after),
                   {"LOG-3.3"});
  }

  // Direct addresses are never translated (LOG-2.3), and the unit counts
  // what it did (LOG-6.11).
  verdict.Expect(
      FramesWhere(bench.wire(),
                  LogSendFromDut(logical::LogMessageType::kFaultRequest))
          .empty(),
      "an access to a direct region sent a FAULT_REQ", {"LOG-2.3"});
  const StatList stats = bench.dut().Stats();
  const std::vector<std::pair<const char*, uint64_t>> counts = {
      {"local_ops", 1},      {"remote_stores", 1},   {"remote_loads", 2},
      {"remote_atomics", 5}, {"cmpswap_retries", 0}, {"address_errors", 0}};
  for (const auto& [leaf, want] : counts) {
    const std::optional<uint64_t> value = StatValue(stats, leaf);
    verdict.Expect(value == want,
                   std::string("statistic ") + leaf + " is " +
                       (value ? std::to_string(*value) : "missing") +
                       " after the accesses; expected " + std::to_string(want),
                   {"LOG-6.11"});
  }
}

// LOG-3.7's loop, the DUT as requester: when another requester changes the
// word between the DUT's READ and its CmpSwap, the CmpSwap fails and the
// DUT tries again with the value it returned.
void SwapLoopRetriesWhenTheWordChanged(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  constexpr uint64_t kWord = 0x3000;
  const uint64_t first = 0xAAAA0000AAAA0000ull;
  const uint64_t changed = 0xBBBB1111BBBB1111ull;
  const uint64_t swapped = 0x0C0C0C0C0C0C0C0Cull;
  SetWord(bench.peer_memory(), kWord, first);
  // The home's word changes once the READ's answer is on its way.
  auto stored = std::make_shared<bool>(false);
  logical::CardMemory* home = &bench.peer_memory();
  bench.wire().SetEdit(
      FrameDirection::kToDut, [stored, home, changed](PortFrame& frame) {
        if (!*stored && frame.opcode() == Opcode::kReadResponseOnly) {
          SetWord(*home, kWord, changed);
          *stored = true;
        }
        return FrameWire::EditResult::kPass;
      });
  const size_t from = bench.wire().log().size();
  const Answer answer = bench.requester(0).Atomic(
      DirectGa(kPeer, kWord), Atomic(AtomicOp::kSwap, 8, swapped));
  ExpectOk(context, answer, "the SWAP", {"LOG-3.7"});
  ExpectRdma(context, from,
             {{Opcode::kReadRequest, kWord, 8},
              {Opcode::kCompareSwap, kWord, 0, first, swapped},
              {Opcode::kCompareSwap, kWord, 0, changed, swapped}},
             bench.peer().rkey(), "a SWAP that loses one round", {"LOG-3.7"});
  const uint64_t after = WordAt(bench.peer_memory(), kWord);
  context.verdict.Expect(answer.old == changed && after == swapped,
                         "the SWAP returned " + Hex(answer.old) + " and left " +
                             Hex(after) + "; the value it replaced was " +
                             Hex(changed),
                         {"LOG-3.7"});
}

// LOG-1.3, LOG-2.6, LOG-3.1 and LOG-3.4: accesses that decode to nothing
// or have a shape the clauses forbid complete at once with their status,
// as the TLM response LOG-1.3's table gives, change nothing and send
// nothing.
void BadAccessesSendNothing(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Requester& requester = bench.requester(0);
  const size_t from = bench.wire().log().size();
  const Bytes dut_before = bench.dut_memory().Peek(0x1000 - 8, 16);
  uint8_t buffer[16] = {};
  uint8_t enables[8] = {0xFF, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0};
  struct Refusal {
    const char* what;
    std::function<Answer()> access;
    AccessStatus status;
    tlm::tlm_response_status response;
    const char* clause;
  };
  const auto raw = [&](uint32_t length, uint32_t width, uint8_t* byte_enables) {
    return [&requester, &buffer, length, width, byte_enables] {
      tlm::tlm_generic_payload& trans = requester.raw();
      trans.set_command(tlm::TLM_READ_COMMAND);
      trans.set_address(DirectGa(kPeer, 0x100));
      trans.set_data_ptr(buffer);
      trans.set_data_length(length);
      trans.set_streaming_width(width);
      trans.set_byte_enable_ptr(byte_enables);
      trans.set_byte_enable_length(byte_enables == nullptr ? 0 : length);
      const Answer answer = requester.IssueRaw();
      trans.set_data_ptr(nullptr);  // the case's buffers end with it
      trans.set_byte_enable_ptr(nullptr);
      trans.set_byte_enable_length(0);
      return answer;
    };
  };
  const std::vector<Refusal> refusals = {
      {"a load from node 3, no endpoint of three",
       [&] {
         return requester.Load(
             logical::GlobalAddress(LogicalBench::kEndpoints, 0x100), 8);
       },
       AccessStatus::kAddressError, tlm::TLM_ADDRESS_ERROR_RESPONSE, "LOG-2.2"},
      {"a load from node 0xFFFF",
       [&] { return requester.Load(logical::GlobalAddress(0xFFFF, 0), 8); },
       AccessStatus::kAddressError, tlm::TLM_ADDRESS_ERROR_RESPONSE, "LOG-2.2"},
      {"a store with a reserved SPACE",
       [&] {
         return requester.Store(
             uint64_t{1} << logical::kSpaceShift | DirectGa(kPeer, 0x100),
             Pattern(8, 1));
       },
       AccessStatus::kAddressError, tlm::TLM_ADDRESS_ERROR_RESPONSE, "LOG-2.1"},
      {"a load of 257 B",
       [&] { return requester.Load(DirectGa(kPeer, 0), 257); },
       AccessStatus::kBurstError, tlm::TLM_BURST_ERROR_RESPONSE, "LOG-3.1"},
      {"a load of 0 B", [&] { return requester.Load(DirectGa(kPeer, 0), 0); },
       AccessStatus::kBurstError, tlm::TLM_BURST_ERROR_RESPONSE, "LOG-3.1"},
      {"a remote store across a page boundary",
       [&] {
         return requester.Store(DirectGa(kPeer, 0x1000 - 8), Pattern(16, 2));
       },
       AccessStatus::kBurstError, tlm::TLM_BURST_ERROR_RESPONSE, "LOG-3.1"},
      {"a local store across a page boundary",
       [&] {
         return requester.Store(DirectGa(kDut, 0x1000 - 8), Pattern(16, 3));
       },
       AccessStatus::kBurstError, tlm::TLM_BURST_ERROR_RESPONSE, "LOG-3.1"},
      {"a load of 8 B with a streaming width of 4", raw(8, 4, nullptr),
       AccessStatus::kBurstError, tlm::TLM_BURST_ERROR_RESPONSE, "LOG-3.1"},
      {"a load of 8 B with byte enables", raw(8, 8, enables),
       AccessStatus::kByteEnableError, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE,
       "LOG-3.1"},
      {"a FADD of 8 B at a 4-byte boundary",
       [&] {
         return requester.Atomic(DirectGa(kPeer, 0x3004),
                                 Atomic(AtomicOp::kFadd, 8, 1));
       },
       AccessStatus::kCommandError, tlm::TLM_COMMAND_ERROR_RESPONSE, "LOG-3.4"},
      {"a SWAP of 2 B",
       [&] {
         return requester.Atomic(DirectGa(kPeer, 0x3000),
                                 Atomic(AtomicOp::kSwap, 2, 1));
       },
       AccessStatus::kCommandError, tlm::TLM_COMMAND_ERROR_RESPONSE, "LOG-3.4"},
  };
  // "At once": the unit's own pipeline, in and out, and no more.
  const sc_time at_once(20, SC_NS);
  for (const Refusal& refusal : refusals) {
    const sc_time issued = sc_core::sc_time_stamp();
    const Answer answer = refusal.access();
    const sc_time took = sc_core::sc_time_stamp() - issued;
    context.verdict.Expect(answer.status == refusal.status && took <= at_once,
                           std::string(refusal.what) + " completed " +
                               AccessStatusName(answer.status) + " after " +
                               took.to_string() + "; expected " +
                               AccessStatusName(refusal.status) + " at once",
                           {refusal.clause});
    context.verdict.Expect(answer.response == refusal.response,
                           std::string(refusal.what) + " answered " +
                               ResponseName(answer.response) + ", not " +
                               ResponseName(refusal.response),
                           {"LOG-1.3"});
  }
  sc_core::wait(2, SC_US);
  const std::vector<const PortFrame*> sent = FramesWhere(
      bench.wire(), [](const PortFrame& f) { return f.from_dut(); }, from);
  context.verdict.Expect(sent.empty(),
                         "the DUT sent " +
                             (sent.empty() ? "" : Evidence(*sent.front())) +
                             " for an access it had to refuse",
                         {"LOG-2.6", "LOG-3.1", "LOG-3.4"});
  const std::optional<uint64_t> address_errors =
      StatValue(bench.dut().Stats(), "address_errors");
  context.verdict.Expect(
      address_errors == 3,
      "address_errors counts " +
          (address_errors ? std::to_string(*address_errors) : "nothing") +
          " of the 3 accesses that decoded to nothing",
      {"LOG-2.6"});
  context.verdict.Expect(bench.dut_memory().Peek(0x1000 - 8, 16) == dut_before,
                         "a refused local store changed the DUT's memory",
                         {"LOG-1.3"});
}

// LOG-3.7, the DUT as home: another card's loads, stores and atomics reach
// it as RDMA operations under the R_Key its LU_RKEY register gives, at
// 2^40 + home offset, and the DUT performs them on its direct region.
void HomeServesItsDirectRegion(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Verdict& verdict = context.verdict;
  Requester& peer = bench.peer_requester(0);
  const uint32_t lu_rkey = bench.dut_csr().Read(regs::kLuRkeyOffset);
  const size_t from = bench.wire().log().size();

  const Bytes stored = Pattern(48, 0x21);
  ExpectOk(context, peer.Store(DirectGa(kDut, 0x4000), stored),
           "the reference card's store to the DUT", {"LOG-3.7"});
  verdict.Expect(bench.dut_memory().Peek(0x4000, 48) == stored,
                 "the DUT's memory does not hold a store it acknowledged",
                 {"LOG-3.7"});

  const Bytes home_bytes = Pattern(40, 0x77);
  bench.dut_memory().Poke(0x5000, home_bytes);
  const Answer load = peer.Load(DirectGa(kDut, 0x5000), 40);
  ExpectOk(context, load, "the reference card's load from the DUT",
           {"LOG-3.7"});
  verdict.Expect(load.data == home_bytes,
                 "a load from the DUT did not return its memory's bytes",
                 {"LOG-3.7"});

  SetWord(bench.dut_memory(), 0x6000, 41);
  const Answer add =
      peer.Atomic(DirectGa(kDut, 0x6000), Atomic(AtomicOp::kFadd, 8, 1));
  ExpectOk(context, add, "the reference card's FADD at the DUT", {"LOG-3.7"});
  verdict.Expect(add.old == 41 && WordAt(bench.dut_memory(), 0x6000) == 42,
                 "a FADD at the DUT returned " + Hex(add.old) + " and left " +
                     Hex(WordAt(bench.dut_memory(), 0x6000)) + " of 0x29 + 1",
                 {"LOG-3.7"});

  // What the DUT served named its direct region as LOG-3.7 says, under
  // the R_Key its register gives.
  ExpectRdma(context, from,
             {{Opcode::kWriteOnly, 0x4000, 48},
              {Opcode::kReadRequest, 0x5000, 40},
              {Opcode::kFetchAdd, 0x6000, 0, 0, 1}},
             lu_rkey, "the reference card's store, load and FADD", {"LOG-3.7"},
             FrameDirection::kToDut);
}

// LOG-3.5, the DUT as home: 4-byte and 8-byte FADDs on its memory from
// its own three requesters and from three of the reference card's (those
// of 4 bytes as READ-then-CmpSwap loops), all at once, lose no update.
void HomeAtomicsLoseNoUpdate(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  constexpr unsigned kRounds = 16;
  constexpr uint64_t kWord = 0x6100;  // FADD 4 B on its upper half
  constexpr uint64_t kCounter = 0x6200;
  std::vector<std::shared_ptr<Issued>> runs;
  for (unsigned r = 0; r < LogicalBench::kRequesters; ++r) {
    for (Requester* requester :
         {&bench.requester(r), &bench.peer_requester(r)}) {
      runs.push_back(Issue([requester] {
        Answer last;
        for (unsigned i = 0; i < kRounds && last.status == AccessStatus::kOk;
             ++i) {
          last = requester->Atomic(DirectGa(kDut, kWord + 4),
                                   Atomic(AtomicOp::kFadd, 4, 1));
          if (last.status == AccessStatus::kOk) {
            last = requester->Atomic(DirectGa(kDut, kCounter),
                                     Atomic(AtomicOp::kFadd, 8, 1));
          }
        }
        return last;
      }));
    }
  }
  const sc_time deadline = sc_core::sc_time_stamp() + sc_time(500, SC_US);
  bool ok = true;
  for (const std::shared_ptr<Issued>& run : runs) {
    const sc_time now = sc_core::sc_time_stamp();
    ok = AwaitDone(*run,
                   now < deadline ? deadline - now : sc_core::SC_ZERO_TIME) &&
         run->answer.status == AccessStatus::kOk && ok;
  }
  if (!context.verdict.Expect(ok,
                              "the FADDs did not all complete OK within "
                              "500 us")) {
    return;
  }
  const uint64_t total = uint64_t{2} * LogicalBench::kRequesters * kRounds;
  const uint64_t word = WordAt(bench.dut_memory(), kWord);
  const uint64_t counter = WordAt(bench.dut_memory(), kCounter);
  const std::optional<uint64_t> retries =
      StatValue(bench.peer().Stats(), "cmpswap_retries");
  context.verdict.Expect(
      word == total << 32 && counter == total,
      "after " + std::to_string(total) +
          " FADDs each (the reference card's "
          "loops lost " +
          std::to_string(retries.value_or(0)) +
          " rounds to the DUT's own), the 4-byte word reads " + Hex(word) +
          " and the 8-byte one " + Hex(counter),
      {"LOG-3.5"});
}

// LOG-4.1 and LOG-3.7's gate: a SWAP's loop, a store and a load to one
// home, issued 1 ns apart from three requesters, reach the home in issue
// order, the store and load waiting for the loop's CmpSwap.
void SameHomeInIssueOrder(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  constexpr uint64_t kWord = 0x300;
  const uint64_t old_word = 0x5555AAAA5555AAAAull;
  const uint64_t new_word = 0x0102030405060708ull;
  SetWord(bench.peer_memory(), kWord, old_word);
  const Bytes stored = Pattern(16, 0x31);
  const size_t from = bench.wire().log().size();
  auto swap = Issue([=, &bench] {
    return bench.requester(0).Atomic(DirectGa(kPeer, kWord),
                                     Atomic(AtomicOp::kSwap, 8, new_word));
  });
  sc_core::wait(1, SC_NS);
  auto store = Issue([=, &bench] {
    return bench.requester(1).Store(DirectGa(kPeer, 0x100), stored);
  });
  sc_core::wait(1, SC_NS);
  auto load = Issue([=, &bench] {
    return bench.requester(2).Load(DirectGa(kPeer, 0x200), 8);
  });
  const sc_time within(5, SC_US);
  const bool done = AwaitDone(*swap, within) && AwaitDone(*store, within) &&
                    AwaitDone(*load, within);
  context.verdict.Expect(
      done && swap->answer.status == AccessStatus::kOk &&
          store->answer.status == AccessStatus::kOk &&
          load->answer.status == AccessStatus::kOk,
      "the three accesses did not all complete OK within 5 us");
  ExpectRdma(context, from,
             {{Opcode::kReadRequest, kWord, 8},
              {Opcode::kCompareSwap, kWord, 0, old_word, new_word},
              {Opcode::kWriteOnly, 0x100, 16},
              {Opcode::kReadRequest, 0x200, 8}},
             bench.peer().rkey(), "a SWAP, a store and a load 1 ns apart",
             {"LOG-4.1"});
}

// LOG-3.6: a fence completes only after its requester's earlier remote
// store, and a later access of that requester, even a local one, starts
// only then; another requester's access is not held.
void FenceHoldsLaterAccesses(LogicalCaseContext& context) {
  LogicalBench& bench = context.bench;
  Requester& fenced = bench.requester(0);
  auto store = Issue([&fenced] {
    return fenced.Store(DirectGa(kPeer, 0x500), Pattern(32, 5));
  });
  sc_core::wait(1, SC_NS);
  auto fence = Issue([&fenced] { return fenced.Fence(); });
  sc_core::wait(1, SC_NS);
  auto after = Issue(
      [&fenced] { return fenced.Store(DirectGa(kDut, 0x600), Pattern(8, 6)); });
  auto other = Issue([=, &bench] {
    return bench.requester(1).Store(DirectGa(kDut, 0x700), Pattern(8, 7));
  });
  const sc_time within(5, SC_US);
  const bool done = AwaitDone(*store, within) && AwaitDone(*fence, within) &&
                    AwaitDone(*after, within) && AwaitDone(*other, within);
  if (!context.verdict.Expect(done,
                              "the accesses and the fence did not all "
                              "complete within 5 us")) {
    return;
  }
  context.verdict.Expect(
      fence->answer.status == AccessStatus::kOk &&
          fence->completed >= store->completed &&
          after->completed > store->completed,
      "the remote store completed at " + Ns(store->completed) +
          ", the fence at " + Ns(fence->completed) +
          " and the local store issued after it at " + Ns(after->completed),
      {"LOG-3.6"});
  context.verdict.Expect(other->completed < store->completed,
                         "another requester's local store waited for the "
                         "fence (done at " +
                             Ns(other->completed) + ")",
                         {"LOG-3.6"});
}

}  // namespace

std::vector<ConformanceCase> LogAccessCases() {
  return {
      LogicalCase("LOG_3_7_MapsAccessesOntoRdma", MapsAccessesOntoRdma),
      LogicalCase("LOG_3_7_SwapLoopRetriesWhenTheWordChanged",
                  SwapLoopRetriesWhenTheWordChanged),
      LogicalCase("LOG_2_6_BadAccessesSendNothing", BadAccessesSendNothing),
      LogicalCase("LOG_3_7_HomeServesItsDirectRegion",
                  HomeServesItsDirectRegion),
      LogicalCase("LOG_3_5_HomeAtomicsLoseNoUpdate", HomeAtomicsLoseNoUpdate,
                  sc_time(1, sc_core::SC_MS)),
      LogicalCase("LOG_4_1_SameHomeInIssueOrder", SameHomeInIssueOrder),
      LogicalCase("LOG_3_6_FenceHoldsLaterAccesses", FenceHoldsLaterAccesses),
  };
}

}  // namespace lq::conformance
