// SPDX-License-Identifier: Apache-2.0
// BoardLines: held, gathered to rank 0, sorted and written.
#include "systemc/app/board_lines.h"

#include <algorithm>
#include <cstdio>
#include <systemc>
#include <tuple>

#include "systemc/parallel/node_gather.h"

namespace lq::app {
namespace {

// The receiver on rank 0 of the other ranks' lines. (Cut cables' ends
// are 1 << 48 up, cable_end.h; the fabric manager's replicas 2 << 48 up.)
constexpr uint64_t kLines = uint64_t{3} << 48;

}  // namespace

BoardLines::BoardLines(parallel::WindowSync& sync,
                       std::vector<std::string> names, std::string console_dir)
    : sync_(sync),
      names_(std::move(names)),
      console_dir_(std::move(console_dir)),
      made_(names_.size(), 0) {
  if (sync_.world().root() && sync_.world().parallel()) {
    sync_.Listen(kLines, [this](ByteView payload, const sc_core::sc_time&) {
      parallel::WireReader in(payload);
      held_.push_back(Unpack(in));
    });
  }
}

void BoardLines::Console(unsigned node, const std::string& line) {
  Add(Kind::kConsole, node, line);
}

void BoardLines::Note(unsigned node, const std::string& text) {
  Add(Kind::kNote, node, text);
}

void BoardLines::Add(Kind kind, unsigned node, const std::string& text) {
  Line line{sc_core::sc_time_stamp().value(), node, made_.at(node)++, kind,
            text};
  if (sync_.world().root() || !running_) {
    held_.push_back(std::move(line));
    return;
  }
  Bytes payload;
  Pack(line, payload);
  // Due a lookahead on: in the next window at the latest, as Send needs.
  sync_.Send(0, kLines, sc_core::sc_time_stamp() + sync_.lookahead(), payload);
}

void BoardLines::Pack(const Line& line, Bytes& out) {
  parallel::WireWriter wire(out);
  wire.U64(line.at_ps);
  wire.U32(line.node);
  wire.U64(line.order);
  wire.U8(static_cast<uint8_t>(line.kind));
  wire.Text(line.text);
}

BoardLines::Line BoardLines::Unpack(parallel::WireReader& in) {
  Line line;
  line.at_ps = in.U64();
  line.node = in.U32();
  line.order = in.U64();
  line.kind = static_cast<Kind>(in.U8());
  line.text = in.Text();
  return line;
}

void BoardLines::WindowEnded() {
  WriteBefore(complete_before_ps_);
  complete_before_ps_ = sc_core::sc_time_stamp().value();
}

void BoardLines::Finish() {
  Bytes mine;
  if (!sync_.world().root()) {
    for (const Line& line : held_) {
      Pack(line, mine);
    }
    held_.clear();  // rank 0's to write
  }
  parallel::AbsorbOtherRanks(sync_.world(), mine, [this](ByteView share) {
    parallel::WireReader in(share);
    while (!in.done()) {
      held_.push_back(Unpack(in));
    }
  });
  WriteBefore(UINT64_MAX);
}

void BoardLines::WriteBefore(uint64_t before_ps) {
  if (held_.empty()) {
    return;
  }
  const auto key = [](const Line& line) {
    return std::tie(line.at_ps, line.node, line.order);
  };
  std::sort(held_.begin(), held_.end(),
            [&key](const Line& a, const Line& b) { return key(a) < key(b); });
  const auto end = std::find_if(
      held_.begin(), held_.end(),
      [before_ps](const Line& line) { return line.at_ps >= before_ps; });
  for (auto line = held_.begin(); line != end; ++line) {
    Write(*line);
  }
  held_.erase(held_.begin(), end);
}

void BoardLines::Write(const Line& line) {
  if (line.kind == Kind::kNote) {
    std::fprintf(stderr, "%s\n", line.text.c_str());
    std::fflush(stderr);
    return;
  }
  if (console_dir_.empty()) {
    std::printf("%s: %s\n", names_.at(line.node).c_str(), line.text.c_str());
    std::fflush(stdout);
    return;
  }
  auto& file = files_[line.node];
  if (!file) {
    file = std::make_unique<std::ofstream>(console_dir_ + "/" +
                                           names_.at(line.node) + ".log");
  }
  *file << line.text << '\n' << std::flush;
}

}  // namespace lq::app
