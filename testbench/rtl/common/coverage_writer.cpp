// SPDX-License-Identifier: Apache-2.0
// Saves a Verilated model's coverage (coverage build, -DLQ_RTL_COVERAGE=ON) to
// a file of its own for scripts/rtl-coverage to merge.
//
// The coverage counters live in each model, while the list of coverage points
// lives in its VerilatedContext and keeps pointing at them; so the points are
// written and forgotten at final(), before the model is destroyed and before a
// later model in the same context registers its own (coverage_writer.sv calls
// this from a final block bound into the top).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "svdpi.h"
#include "verilated.h"
#include "verilated_cov.h"

namespace {

constexpr char kDirVariable[] = "LQ_RTL_COVERAGE_DIR";
constexpr char kPointPrefix[] = "C '";

std::filesystem::path OutputDir() {
  const char* dir = std::getenv(kDirVariable);
  return dir != nullptr && *dir != '\0' ? std::filesystem::path(dir)
                                        : std::filesystem::current_path();
}

// "coverage-<program>-<Suite.Test>-<pid>-<n>.dat": the test name tells a
// reader where the counts came from, the pid and a running number keep the
// files of one process and of parallel processes apart.
std::filesystem::path NextFileName() {
  static std::atomic<unsigned> files_written{0};
  std::string name =
      "coverage-" +
      std::filesystem::read_symlink("/proc/self/exe").filename().string();
  const testing::TestInfo* test =
      testing::UnitTest::GetInstance()->current_test_info();
  if (test != nullptr) {
    name += std::string("-") + test->test_suite_name() + "." + test->name();
  }
  name += "-" + std::to_string(getpid()) + "-" +
          std::to_string(files_written++) + ".dat";
  for (char& c : name) {
    if (c == '/') {
      c = '_';
    }
  }
  return OutputDir() / name;
}

// A second model of a context that was already saved leaves only a header.
bool HasPoints(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(kPointPrefix, 0) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

extern "C" void lq_rtl_save_coverage() {
  const auto* scope = static_cast<const VerilatedScope*>(svGetScope());
  VerilatedCovContext* coverage = scope->symsp()->_vm_contextp__->coveragep();
  const std::filesystem::path path = NextFileName();
  coverage->write(path.c_str());
  coverage->clear();
  if (!HasPoints(path)) {
    std::filesystem::remove(path);
  }
}
