// sc_main for GoogleTest executables that link SystemC: SystemC owns main()
// and calls this, so the tests run inside an elaborated SystemC process.
#include <systemc>

#include "gtest/gtest.h"

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
