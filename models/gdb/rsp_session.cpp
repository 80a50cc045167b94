// SPDX-License-Identifier: Apache-2.0
// The RSP session: packet dispatch, stop replies and the ack protocol.
#include "models/gdb/rsp_session.h"

#include <algorithm>
#include <utility>

#include "models/gdb/rv32_description.h"

namespace lq::gdb {
namespace {

constexpr std::string_view kErrorReply = "E01";
constexpr std::string_view kOkReply = "OK";
constexpr std::string_view kVContActions = "vCont;c;C;s;S";
constexpr std::string_view kFeaturesRead = "qXfer:features:read:";
constexpr std::string_view kMonitor = "qRcmd,";
constexpr int kBreakpointType = 0;
constexpr int kHardwareBreakpointType = 1;
constexpr uint32_t kThreadId = 1;  // the hart is GDB's one thread
constexpr std::string_view kThreadIdHex = "1";
constexpr uint64_t kAddressSpace = uint64_t{1} << 32;
// p and P take any number of the target description (CSRs lie beyond the
// g packet's registers); larger ones are an error before the target sees
// them.
constexpr uint32_t kLargestRegisterNumber = 0xFFFF;
constexpr size_t kRegisterHexDigits = 8;
constexpr int kSignalTrap = 5;
constexpr int kSignalInterrupt = 2;

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The parts of text before and after the first separator, if it has one.
std::optional<std::pair<std::string_view, std::string_view>> SplitAt(
    std::string_view text, char separator) {
  const size_t at = text.find(separator);
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  return std::make_pair(text.substr(0, at), text.substr(at + 1));
}

struct AddressRange {
  uint32_t address;
  uint32_t length;
};

// "ADDR,LENGTH", both hex.
std::optional<AddressRange> ParseAddressRange(std::string_view text) {
  const auto parts = SplitAt(text, ',');
  if (!parts) {
    return std::nullopt;
  }
  const Result<uint32_t> address = ParseHexNumber(parts->first);
  const Result<uint32_t> length = ParseHexNumber(parts->second);
  if (!address || !length) {
    return std::nullopt;
  }
  return AddressRange{*address, *length};
}

bool FitsAddressSpace(const AddressRange& range) {
  return uint64_t{range.address} + range.length <= kAddressSpace;
}

// A number in the big-endian hex GDB uses for addresses and signals.
std::string HexNumber(uint32_t value, size_t bytes) {
  uint8_t big_endian[sizeof(uint32_t)];
  StoreBigEndian(big_endian, bytes, value);
  return ToHex(ByteView(big_endian, bytes));
}

std::string SignalReply(int signal) {
  return "S" + HexNumber(static_cast<uint32_t>(signal), 1);
}

// Thread ids in vCont: ours, "any" (0) or "all" (-1) name the hart.
bool NamesOurThread(std::string_view thread) {
  if (thread == "-1") {
    return true;
  }
  const Result<uint32_t> id = ParseHexNumber(thread);
  return id && (*id == 0 || *id == kThreadId);
}

}  // namespace

RspSession::RspSession(DebugTarget& target, RspChannel& channel)
    : target_(target), channel_(channel) {}

ResumeAction RspSession::ServeStop(const StopEvent& stop) {
  if (ended_) {
    return *ended_;
  }
  last_stop_ = stop;
  if (waiting_for_stop_) {
    waiting_for_stop_ = false;
    Reply(StopReply(stop));
  }
  return Serve();
}

bool RspSession::PollInterrupt() {
  if (ended_) {
    return false;
  }
  for (int byte = channel_.PollByte(); byte != RspChannel::kNoByte;
       byte = channel_.PollByte()) {
    std::optional<RspEvent> event = decoder_.Feed(static_cast<uint8_t>(byte));
    if (!event) {
      continue;
    }
    if (event->kind == RspEvent::Kind::kInterrupt) {
      return true;
    }
    // Acks refer to replies sent before GDB resumed; only frames are kept,
    // to be answered at the next stop (GDB sends none while it waits).
    if (event->kind != RspEvent::Kind::kAck &&
        event->kind != RspEvent::Kind::kNack) {
      queued_.push_back(std::move(*event));
    }
  }
  return false;
}

void RspSession::ReportExit(int status) {
  StopEvent exit;
  exit.reason = StopEvent::Reason::kExited;
  exit.exit_status = status;
  ServeStop(exit);
}

ResumeAction RspSession::Serve() {
  while (true) {
    std::optional<RspEvent> event = NextEvent();
    if (!event) {
      vanished_ = true;
      return End(ResumeAction::kDetach);
    }
    switch (event->kind) {
      case RspEvent::Kind::kAck:
      case RspEvent::Kind::kInterrupt:  // already stopped
        break;
      case RspEvent::Kind::kNack:
        if (!no_ack_mode_) {
          channel_.Write(last_frame_);
        }
        break;
      case RspEvent::Kind::kMalformed:
        // The frame arrived intact but cannot be used: resending it would
        // not help, an error tells GDB.
        Ack();
        ReplyError();
        break;
      case RspEvent::Kind::kBadChecksum:
        if (!no_ack_mode_) {
          channel_.Write("-");
          break;
        }
        // Without acks GDB cannot resend; like gdbserver, use it anyway.
        [[fallthrough]];
      case RspEvent::Kind::kPacket:
        Ack();
        if (std::optional<ResumeAction> action = HandlePacket(event->payload)) {
          return *action;
        }
        break;
    }
  }
}

std::optional<RspEvent> RspSession::NextEvent() {
  if (!queued_.empty()) {
    RspEvent event = std::move(queued_.front());
    queued_.pop_front();
    return event;
  }
  while (true) {
    const int byte = channel_.ReadByte();
    if (byte == RspChannel::kNoByte) {
      return std::nullopt;
    }
    if (std::optional<RspEvent> event =
            decoder_.Feed(static_cast<uint8_t>(byte))) {
      return event;
    }
  }
}

ResumeAction RspSession::End(ResumeAction how) {
  RemoveAllInserted();
  ended_ = how;
  waiting_for_stop_ = false;
  return how;
}

void RspSession::Ack() {
  if (!no_ack_mode_) {
    channel_.Write("+");
  }
}

void RspSession::Reply(std::string_view payload) {
  last_frame_ = EncodePacket(payload);
  channel_.Write(last_frame_);
}

void RspSession::ReplyError() { Reply(kErrorReply); }

void RspSession::ReplyOk() { Reply(kOkReply); }

std::string RspSession::StopReply(const StopEvent& stop) const {
  switch (stop.reason) {
    case StopEvent::Reason::kHaltedAtStart:
    case StopEvent::Reason::kStep:
      return SignalReply(kSignalTrap);
    case StopEvent::Reason::kBreakpoint:
      // GDB that did not announce swbreak+ would not understand the reason,
      // and finds the breakpoint from the pc itself.
      if (swbreak_announced_) {
        return "T" + HexNumber(kSignalTrap, 1) + "swbreak:;";
      }
      return SignalReply(kSignalTrap);
    case StopEvent::Reason::kWatchpoint: {
      const char* name = "watch";
      if (stop.watch_kind == WatchKind::kRead) {
        name = "rwatch";
      } else if (stop.watch_kind == WatchKind::kAccess) {
        name = "awatch";
      }
      return "T" + HexNumber(kSignalTrap, 1) + name + ":" +
             HexNumber(stop.watch_address, sizeof(uint32_t)) + ";";
    }
    case StopEvent::Reason::kInterrupted:
      return SignalReply(kSignalInterrupt);
    case StopEvent::Reason::kSignal:
      return SignalReply(stop.signal);
    case StopEvent::Reason::kExited:
      return "W" + HexNumber(static_cast<uint32_t>(stop.exit_status) & 0xff, 1);
  }
  return SignalReply(kSignalTrap);
}

std::optional<ResumeAction> RspSession::HandlePacket(std::string_view packet) {
  if (packet.empty()) {
    Reply("");
    return std::nullopt;
  }
  const std::string_view args = packet.substr(1);
  switch (packet[0]) {
    case '?':
      Reply(StopReply(last_stop_));
      break;
    case 'g':
      ReadAllRegisters();
      break;
    case 'G':
      WriteAllRegisters(args);
      break;
    case 'p':
      ReadOneRegister(args);
      break;
    case 'P':
      WriteOneRegister(args);
      break;
    case 'm':
      ReadMemory(args);
      break;
    case 'M':
      WriteMemoryHex(args);
      break;
    case 'X':
      WriteMemoryBinary(args);
      break;
    case 'Z':
    case 'z':
      HandleBreakpoint(packet[0] == 'Z', args);
      break;
    case 'c':
      return Resume(ResumeAction::kContinue, args);
    case 's':
      return Resume(ResumeAction::kStep, args);
    case 'C':
      return ResumeWithSignal(ResumeAction::kContinue, args);
    case 'S':
      return ResumeWithSignal(ResumeAction::kStep, args);
    case 'D':
      ReplyOk();
      return End(ResumeAction::kDetach);
    case 'k':
      // GDB expects no reply to k.
      return End(ResumeAction::kKill);
    case 'H':
      // One thread: every thread GDB selects is the hart.
      ReplyOk();
      break;
    case 'T': {
      const Result<uint32_t> thread = ParseHexNumber(args);
      if (thread && *thread == kThreadId) {
        ReplyOk();
      } else {
        ReplyError();
      }
      break;
    }
    case 'q':
    case 'Q':
      HandleQuery(packet);
      break;
    case 'v':
      return HandleVPacket(packet);
    default:
      // The empty reply tells GDB the packet is not supported.
      Reply("");
      break;
  }
  return std::nullopt;
}

std::optional<ResumeAction> RspSession::Resume(ResumeAction action,
                                               std::string_view address) {
  if (Exited()) {
    // The firmware has ended; there is nothing left to run.
    Reply(StopReply(last_stop_));
    return std::nullopt;
  }
  if (!address.empty()) {
    const Result<uint32_t> pc = ParseHexNumber(address);
    if (!pc || !target_.WriteRegister(kRv32PcRegister, *pc)) {
      ReplyError();
      return std::nullopt;
    }
  }
  waiting_for_stop_ = true;
  return action;
}

std::optional<ResumeAction> RspSession::ResumeWithSignal(
    ResumeAction action, std::string_view args) {
  // "SIG[;ADDR]": the hart has no signals to deliver, so SIG is checked and
  // dropped.
  std::string_view signal = args;
  std::string_view address;
  if (const auto parts = SplitAt(args, ';')) {
    signal = parts->first;
    address = parts->second;
  }
  if (!ParseHexNumber(signal)) {
    ReplyError();
    return std::nullopt;
  }
  return Resume(action, address);
}

std::optional<ResumeAction> RspSession::HandleVPacket(std::string_view packet) {
  if (StartsWith(packet, "vCont")) {
    return HandleVCont(packet.substr(std::string_view("vCont").size()));
  }
  if (packet == "vKill" || StartsWith(packet, "vKill;")) {
    ReplyOk();
    return End(ResumeAction::kKill);
  }
  // vMustReplyEmpty and everything else: not supported.
  Reply("");
  return std::nullopt;
}

std::optional<ResumeAction> RspSession::HandleVCont(std::string_view actions) {
  if (actions == "?") {
    Reply(kVContActions);
    return std::nullopt;
  }
  if (actions.empty() || actions[0] != ';') {
    ReplyError();
    return std::nullopt;
  }
  actions.remove_prefix(1);
  // The leftmost action whose thread is the hart applies.
  while (!actions.empty()) {
    std::string_view item = actions;
    actions = {};
    if (const auto parts = SplitAt(item, ';')) {
      item = parts->first;
      actions = parts->second;
    }
    std::string_view action = item;
    if (const auto parts = SplitAt(item, ':')) {
      action = parts->first;
      if (!NamesOurThread(parts->second)) {
        continue;
      }
    }
    if (action == "c") {
      return Resume(ResumeAction::kContinue, {});
    }
    if (action == "s") {
      return Resume(ResumeAction::kStep, {});
    }
    if (!action.empty() && (action[0] == 'C' || action[0] == 'S')) {
      if (!ParseHexNumber(action.substr(1))) {
        break;
      }
      return Resume(
          action[0] == 'C' ? ResumeAction::kContinue : ResumeAction::kStep, {});
    }
    // An action not announced in the vCont? reply, such as range stepping.
    break;
  }
  ReplyError();
  return std::nullopt;
}

void RspSession::HandleQuery(std::string_view packet) {
  if (packet == "qSupported" || StartsWith(packet, "qSupported:")) {
    HandleSupported(packet.substr(std::string_view("qSupported").size()));
  } else if (StartsWith(packet, kFeaturesRead)) {
    HandleFeaturesRead(packet.substr(kFeaturesRead.size()));
  } else if (StartsWith(packet, kMonitor)) {
    HandleMonitor(packet.substr(kMonitor.size()));
  } else if (packet == "qAttached" || StartsWith(packet, "qAttached:")) {
    // GDB attached to a running board: on quit it detaches, not kills.
    Reply("1");
  } else if (packet == "qC") {
    Reply("QC" + std::string(kThreadIdHex));
  } else if (packet == "qfThreadInfo") {
    Reply("m" + std::string(kThreadIdHex));
  } else if (packet == "qsThreadInfo") {
    Reply("l");
  } else if (packet == "QStartNoAckMode") {
    // The OK still goes out under the ack protocol; GDB stops acking after
    // it has acked it.
    ReplyOk();
    no_ack_mode_ = true;
  } else {
    Reply("");
  }
}

// qRcmd,HEX: the command in hex; the answer goes out as console output
// (O packets) before the OK.
void RspSession::HandleMonitor(std::string_view hex) {
  const Result<Bytes> command = ParseHexBytes(hex);
  if (!command) {
    ReplyError();
    return;
  }
  const std::optional<std::string> answer =
      target_.Monitor(std::string(command->begin(), command->end()));
  if (!answer) {
    Reply("");
    return;
  }
  if (!answer->empty()) {
    const auto* text = reinterpret_cast<const uint8_t*>(answer->data());
    Reply("O" + ToHex(ByteView(text, answer->size())));
  }
  ReplyOk();
}

void RspSession::HandleSupported(std::string_view features) {
  swbreak_announced_ = false;
  if (!features.empty()) {
    features.remove_prefix(1);  // the ':'
  }
  while (!features.empty()) {
    std::string_view feature = features;
    features = {};
    if (const auto parts = SplitAt(feature, ';')) {
      feature = parts->first;
      features = parts->second;
    }
    if (feature == "swbreak+") {
      swbreak_announced_ = true;
    }
  }
  Reply("PacketSize=" +
        HexNumber(static_cast<uint32_t>(kMaxPacketPayload), sizeof(uint32_t)) +
        ";qXfer:features:read+;swbreak+;vContSupported+;QStartNoAckMode+");
}

void RspSession::HandleFeaturesRead(std::string_view args) {
  // "ANNEX:OFFSET,LENGTH"
  const auto parts = SplitAt(args, ':');
  std::optional<AddressRange> window;
  if (parts) {
    window = ParseAddressRange(parts->second);
  }
  if (!window) {
    ReplyError();
    return;
  }
  const std::string description =
      target_.TargetDescription(std::string(parts->first));
  if (description.empty() || window->address > description.size()) {
    ReplyError();
    return;
  }
  // 'm': there is more after this chunk; 'l': this is the last of it.
  const size_t length =
      std::min<size_t>({window->length, kMaxPacketPayload - 1,
                        description.size() - window->address});
  const bool last = window->address + length == description.size();
  Reply((last ? "l" : "m") + description.substr(window->address, length));
}

void RspSession::ReadAllRegisters() {
  std::string hex;
  for (int number = 0; number < target_.RegisterCount(); ++number) {
    uint32_t value = 0;
    if (!target_.ReadRegister(number, &value)) {
      ReplyError();
      return;
    }
    hex += RegisterToHex(value);
  }
  Reply(hex);
}

void RspSession::WriteAllRegisters(std::string_view hex) {
  const int count = std::max(target_.RegisterCount(), 0);
  if (hex.size() != static_cast<size_t>(count) * kRegisterHexDigits) {
    ReplyError();
    return;
  }
  // Every value is checked before the first one is written, so that a bad
  // packet leaves the registers as they were.
  std::vector<uint32_t> values;
  for (int number = 0; number < count; ++number) {
    const Result<uint32_t> value = ParseRegisterHex(
        hex.substr(number * kRegisterHexDigits, kRegisterHexDigits));
    if (!value) {
      ReplyError();
      return;
    }
    values.push_back(*value);
  }
  for (int number = 0; number < count; ++number) {
    if (!target_.WriteRegister(number, values[number])) {
      ReplyError();
      return;
    }
  }
  ReplyOk();
}

void RspSession::ReadOneRegister(std::string_view args) {
  const Result<uint32_t> number = ParseHexNumber(args);
  uint32_t value = 0;
  if (!number || *number > kLargestRegisterNumber ||
      !target_.ReadRegister(static_cast<int>(*number), &value)) {
    ReplyError();
    return;
  }
  Reply(RegisterToHex(value));
}

void RspSession::WriteOneRegister(std::string_view args) {
  // "N=VALUE"
  const auto parts = SplitAt(args, '=');
  if (!parts) {
    ReplyError();
    return;
  }
  const Result<uint32_t> number = ParseHexNumber(parts->first);
  const Result<uint32_t> value = ParseRegisterHex(parts->second);
  if (!number || !value || *number > kLargestRegisterNumber ||
      !target_.WriteRegister(static_cast<int>(*number), *value)) {
    ReplyError();
    return;
  }
  ReplyOk();
}

void RspSession::ReadMemory(std::string_view args) {
  const std::optional<AddressRange> range = ParseAddressRange(args);
  if (!range) {
    ReplyError();
    return;
  }
  // The reply must fit one packet and the range must not wrap around;
  // GDB accepts fewer bytes than it asked for and asks again for the rest.
  const size_t length = std::min<uint64_t>(
      {range->length, kMaxPacketPayload / 2, kAddressSpace - range->address});
  if (length == 0) {
    Reply("");
    return;
  }
  Bytes data(length);
  if (!target_.ReadMemory(range->address, data.data(), length)) {
    // The range runs into unmapped memory: send what can be read before it.
    size_t readable = 0;
    while (readable < length &&
           target_.ReadMemory(range->address + readable, &data[readable], 1)) {
      ++readable;
    }
    if (readable == 0) {
      ReplyError();
      return;
    }
    data.resize(readable);
  }
  Reply(ToHex(data));
}

void RspSession::WriteMemoryHex(std::string_view args) {
  // "ADDR,LENGTH:HEX"
  const auto parts = SplitAt(args, ':');
  std::optional<AddressRange> range;
  if (parts) {
    range = ParseAddressRange(parts->first);
  }
  if (!range || !FitsAddressSpace(*range)) {
    ReplyError();
    return;
  }
  const Result<Bytes> data = ParseHexBytes(parts->second);
  if (!data || data->size() != range->length) {
    ReplyError();
    return;
  }
  if (range->length != 0 &&
      !target_.WriteMemory(range->address, data->data(), data->size())) {
    ReplyError();
    return;
  }
  ReplyOk();
}

void RspSession::WriteMemoryBinary(std::string_view args) {
  // "ADDR,LENGTH:BYTES", the bytes already unescaped by the decoder. GDB
  // first sends a zero-length X to learn whether the stub supports it.
  const auto parts = SplitAt(args, ':');
  std::optional<AddressRange> range;
  if (parts) {
    range = ParseAddressRange(parts->first);
  }
  if (!range || !FitsAddressSpace(*range) ||
      parts->second.size() != range->length) {
    ReplyError();
    return;
  }
  if (range->length != 0 &&
      !target_.WriteMemory(
          range->address,
          reinterpret_cast<const uint8_t*>(parts->second.data()),
          range->length)) {
    ReplyError();
    return;
  }
  ReplyOk();
}

void RspSession::HandleBreakpoint(bool insert, std::string_view args) {
  // "TYPE,ADDR,KIND[;CONDITIONS]": conditions are not announced, so GDB
  // sends none; KIND is the instruction length (breakpoints) or the
  // watched length (watchpoints).
  if (const auto conditions = SplitAt(args, ';')) {
    args = conditions->first;
  }
  const auto parts = SplitAt(args, ',');
  if (!parts) {
    ReplyError();
    return;
  }
  const Result<uint32_t> type = ParseHexNumber(parts->first);
  const std::optional<AddressRange> place = ParseAddressRange(parts->second);
  if (!type || !place) {
    ReplyError();
    return;
  }
  InsertedPoint point{kBreakpointType, place->address, 0};
  bool done = false;
  if (*type == kBreakpointType || *type == kHardwareBreakpointType) {
    // Every breakpoint is a software one: the hart checks the pc itself.
    done = insert ? target_.InsertBreakpoint(place->address)
                  : target_.RemoveBreakpoint(place->address);
  } else if (*type >= static_cast<uint32_t>(WatchKind::kWrite) &&
             *type <= static_cast<uint32_t>(WatchKind::kAccess)) {
    const auto kind = static_cast<WatchKind>(*type);
    point = {static_cast<int>(*type), place->address, place->length};
    done = insert
               ? target_.InsertWatchpoint(kind, place->address, place->length)
               : target_.RemoveWatchpoint(kind, place->address, place->length);
  } else {
    Reply("");
    return;
  }
  if (!done) {
    ReplyError();
    return;
  }
  if (insert) {
    inserted_.push_back(point);
  } else {
    const auto found = std::find(inserted_.begin(), inserted_.end(), point);
    if (found != inserted_.end()) {
      inserted_.erase(found);
    }
  }
  ReplyOk();
}

void RspSession::RemoveAllInserted() {
  for (const InsertedPoint& point : inserted_) {
    if (point.type == kBreakpointType) {
      target_.RemoveBreakpoint(point.address);
    } else {
      target_.RemoveWatchpoint(static_cast<WatchKind>(point.type),
                               point.address, point.length);
    }
  }
  inserted_.clear();
}

}  // namespace lq::gdb
