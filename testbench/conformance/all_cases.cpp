// The suite's cases, chapter by chapter.
#include "testbench/conformance/conformance_case.h"

namespace lq::conformance {

std::vector<ConformanceCase> AllCases() { return DllCases(); }

}  // namespace lq::conformance
