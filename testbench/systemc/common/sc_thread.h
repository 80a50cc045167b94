// A testbench module that runs one function as a SystemC thread: the
// "firmware" or stimulus of a test, written inline in the test body.
#pragma once

#include <functional>
#include <systemc>
#include <utility>

namespace lq::testing {

class ScThread : public sc_core::sc_module {
 public:
  ScThread(sc_core::sc_module_name name, std::function<void()> body)
      : sc_module(name), body_(std::move(body)) {
    SC_HAS_PROCESS(ScThread);
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

}  // namespace lq::testing
