// SPDX-License-Identifier: Apache-2.0
// BoardLines: what a run of boards prints as it goes (each node's console
// lines, on stdout prefixed with the node's name or in one file per node,
// and notes of its CPU's logged events and of faults applied to it, on
// stderr), written in the order of simulated time, then node, then the
// order the node made them. Rank 0 writes them once every rank's lines up
// to a window's end have reached it (decision 0050): the same lines in
// the same order on any number of ranks, at most two windows after they
// were made. Each is flushed as it is written, so that a pipe or a log
// file holds every line a run printed however it ends.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "systemc/parallel/window_sync.h"
#include "systemc/parallel/wire.h"

namespace lq::app {

class BoardLines {
 public:
  // `names`: each node's name, by node; `console_dir`: where each node's
  // console goes, as `<name>.log`; empty, stdout.
  BoardLines(parallel::WindowSync& sync, std::vector<std::string> names,
             std::string console_dir);

  // A console line of node `node`, made now.
  void Console(unsigned node, const std::string& line);
  // A line for stderr about node `node`, made now.
  void Note(unsigned node, const std::string& text);
  // At a window's end, on every rank: rank 0 writes the lines made
  // before the previous window's end.
  void WindowEnded();
  // The run is over: lines made from now on (a console's last partial
  // line) wait for Finish().
  void RunEnded() { running_ = false; }
  // Then, on every rank: rank 0 gathers the lines made since and writes
  // every line left.
  void Finish();

 private:
  enum class Kind : uint8_t { kConsole, kNote };
  struct Line {
    uint64_t at_ps;
    unsigned node;
    uint64_t order;  // the node's count of lines before it
    Kind kind;
    std::string text;
  };
  void Add(Kind kind, unsigned node, const std::string& text);
  static void Pack(const Line& line, Bytes& out);
  static Line Unpack(parallel::WireReader& in);
  // Writes the held lines made before `before_ps`, in order.
  void WriteBefore(uint64_t before_ps);
  void Write(const Line& line);

  parallel::WindowSync& sync_;
  std::vector<std::string> names_;
  std::string console_dir_;
  std::vector<uint64_t> made_;  // by node
  std::vector<Line> held_;      // rank 0's, and after the run every rank's
  bool running_ = true;
  uint64_t complete_before_ps_ = 0;  // every rank's lines before it are here
  std::map<unsigned, std::unique_ptr<std::ofstream>> files_;  // by node
};

}  // namespace lq::app
