// SPDX-License-Identifier: Apache-2.0
// sc_main for GoogleTest executables that link SystemC: SystemC owns main()
// and calls this, so the tests run inside an elaborated SystemC process.
#include <systemc>

#include "gtest/gtest.h"

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  // A SystemC error throws into the test, which fails; show its text too.
  sc_core::sc_report_handler::set_actions(
      sc_core::SC_ERROR, sc_core::SC_DISPLAY | sc_core::SC_THROW);
  return RUN_ALL_TESTS();
}
