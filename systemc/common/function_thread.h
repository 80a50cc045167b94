// SPDX-License-Identifier: Apache-2.0
// A module that runs one function as a SystemC thread: a measurement's
// driver, or a test's stimulus, written inline where it is used.
#pragma once

#include <functional>
#include <systemc>
#include <utility>

namespace lq {

class FunctionThread : public sc_core::sc_module {
 public:
  FunctionThread(sc_core::sc_module_name name, std::function<void()> body)
      : sc_module(name), body_(std::move(body)) {
    SC_HAS_PROCESS(FunctionThread);
    SC_THREAD(Run);
  }
  bool finished() const { return finished_; }

 private:
  void Run() {
    body_();
    finished_ = true;
  }
  std::function<void()> body_;
  bool finished_ = false;
};

}  // namespace lq
