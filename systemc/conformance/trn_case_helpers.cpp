// SPDX-License-Identifier: Apache-2.0
// Steps the transport conformance cases share.
#include "systemc/conformance/trn_case_helpers.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

#include "models/roce/frame_edits.h"
#include "systemc/cluster/engine_torus.h"
#include "systemc/common/time_text.h"

namespace lq::conformance {

using sc_core::sc_time;
using transport::EngineCompletion;
using transport::SendWr;

ConformanceCase TransportCase(const char* name,
                              std::function<void(TransportCaseContext&)> body,
                              sc_time limit) {
  ConformanceCase c;
  c.name = name;
  c.transport_body = std::move(body);
  c.limit = limit;
  return c;
}

ConnectionOptions Controlled(const std::string& name) {
  ConnectionOptions options;
  options.congestion = name;
  return options;
}

std::optional<Connection> ConnectOrFail(TransportCaseContext& context,
                                        const ConnectionOptions& options) {
  std::optional<Connection> connection = context.bench.Connect(options);
  context.verdict.Expect(connection.has_value(),
                         "the QP pair could not be connected (TRN-5.6)");
  return connection;
}

SendWr WriteWr(uint64_t wr_id, uint32_t length, uint64_t remote_address,
               uint32_t rkey) {
  SendWr wr;
  wr.wr_id = wr_id;
  wr.kind = transport::SendKind::kWrite;
  wr.length = length;
  wr.remote_address = remote_address;
  wr.rkey = rkey;
  return wr;
}

SendWr ReadWr(uint64_t wr_id, uint32_t length, uint64_t remote_address,
              uint32_t rkey) {
  SendWr wr = WriteWr(wr_id, length, remote_address, rkey);
  wr.kind = transport::SendKind::kRead;
  return wr;
}

SendWr AtomicWr(uint64_t wr_id, transport::SendKind kind,
                uint64_t remote_address, uint32_t rkey, uint64_t swap_add,
                uint64_t compare) {
  SendWr wr = WriteWr(wr_id, 8, remote_address, rkey);
  wr.kind = kind;
  wr.swap_add = swap_add;
  wr.compare = compare;
  return wr;
}

Bytes FillPattern(transport::TestMemory& memory, uint64_t address,
                  size_t length, uint8_t seed) {
  Bytes bytes = transport::Pattern(length, seed);
  std::copy(bytes.begin(), bytes.end(), memory.bytes.begin() + address);
  return bytes;
}

Bytes ReadMemory(const transport::TestMemory& memory, uint64_t address,
                 size_t length) {
  return Bytes(memory.bytes.begin() + address,
               memory.bytes.begin() + address + length);
}

bool PostOrFail(TransportCaseContext& context,
                transport::TransportEngine& engine, uint32_t qpn,
                const SendWr& wr, uint64_t local_address) {
  const Result<bool> posted = engine.PostSend(qpn, wr, local_address);
  return context.verdict.Expect(
      posted.ok(), std::string(engine.name()) + " refused a work request: " +
                       (posted.ok() ? "" : posted.error().reason));
}

bool PostReceiveOrFail(TransportCaseContext& context,
                       transport::TransportEngine& engine, uint32_t qpn,
                       uint64_t wr_id, uint32_t length,
                       uint64_t local_address) {
  transport::RecvWr wr;
  wr.wr_id = wr_id;
  wr.length = length;
  const Result<bool> posted = engine.PostReceive(qpn, wr, local_address);
  return context.verdict.Expect(
      posted.ok(), std::string(engine.name()) + " refused a receive WR: " +
                       (posted.ok() ? "" : posted.error().reason));
}

std::vector<EngineCompletion> AwaitCompletions(
    transport::TransportEngine& engine, size_t count, const sc_time& within) {
  const sc_time deadline = sc_core::sc_time_stamp() + within;
  std::vector<EngineCompletion> completions = engine.PollCompletions();
  while (completions.size() < count && sc_core::sc_time_stamp() < deadline) {
    sc_core::wait(deadline - sc_core::sc_time_stamp(),
                  engine.completion_event());
    for (EngineCompletion& c : engine.PollCompletions()) {
      completions.push_back(std::move(c));
    }
  }
  return completions;
}

void ExpectSuccess(TransportCaseContext& context,
                   const std::vector<EngineCompletion>& completions,
                   uint64_t wr_id, std::initializer_list<const char*> clauses) {
  const auto matching = std::count_if(
      completions.begin(), completions.end(),
      [wr_id](const EngineCompletion& c) {
        return c.completion.wr_id == wr_id &&
               c.completion.status == transport::CompletionStatus::kSuccess;
      });
  context.verdict.Expect(
      matching == 1 && completions.size() == 1,
      "expected one successful completion of WR " + std::to_string(wr_id) +
          ", got " + std::to_string(completions.size()) + " completions" +
          (completions.empty()
               ? std::string()
               : std::string(", the first ") +
                     transport::CompletionStatusName(
                         completions.front().completion.status)),
      clauses);
}

std::vector<const PortFrame*> FramesWhere(const FrameWire& wire,
                                          const FramePredicate& which,
                                          size_t from) {
  std::vector<const PortFrame*> frames;
  for (size_t i = from; i < wire.log().size(); ++i) {
    if (which(wire.log()[i])) {
      frames.push_back(&wire.log()[i]);
    }
  }
  return frames;
}

std::optional<size_t> AwaitFrame(FrameWire& wire, const FramePredicate& which,
                                 const sc_time& within, size_t from) {
  const sc_time deadline = sc_core::sc_time_stamp() + within;
  size_t next = from;
  while (true) {
    for (; next < wire.log().size(); ++next) {
      if (which(wire.log()[next])) {
        return next;
      }
    }
    if (sc_core::sc_time_stamp() >= deadline) {
      return std::nullopt;
    }
    sc_core::wait(deadline - sc_core::sc_time_stamp(), wire.logged_event());
  }
}

FrameWire::Edit DropFirst(FramePredicate which) {
  auto dropped = std::make_shared<bool>(false);
  return [which = std::move(which), dropped](PortFrame& frame) {
    if (!*dropped && which(frame)) {
      *dropped = true;
      return FrameWire::EditResult::kDrop;
    }
    return FrameWire::EditResult::kPass;
  };
}

FrameWire::Edit MarkCe(FramePredicate which) {
  return [which = std::move(which)](PortFrame& frame) {
    if (which(frame)) {
      Bytes marked = frame.bytes;
      if (roce::MarkCongestionExperienced(marked).ok()) {
        frame.Replace(std::move(marked));
      }
    }
    return FrameWire::EditResult::kPass;
  };
}

uint64_t EngineStat(const transport::TransportEngine& engine,
                    const std::string& name) {
  const std::string key = std::string(engine.name()) + "." + name;
  for (const Stat& stat : engine.Stats()) {
    if (stat.name == key) {
      return stat.value;
    }
  }
  throw std::logic_error("the transport engine has no statistic " + key);
}

FramePredicate RequestFromDut() {
  return [](const PortFrame& f) { return f.from_dut() && f.is_request(); };
}

FramePredicate RequestToDut() {
  return [](const PortFrame& f) { return !f.from_dut() && f.is_request(); };
}

FramePredicate AckFromDut() {
  return [](const PortFrame& f) { return f.from_dut() && f.is_ack(); };
}

FramePredicate NakFromDut() {
  return [](const PortFrame& f) { return f.from_dut() && f.is_nak(); };
}

std::string Evidence(const PortFrame& frame) {
  return "at " + Micros(frame.at) + ": " + Describe(frame);
}

}  // namespace lq::conformance
