// SPDX-License-Identifier: Apache-2.0
// Fuzz target: arbitrary bytes as a LOG message (docs/spec/log.md
// LOG-6.10). A message that parses must re-encode to exactly its own bytes;
// one that does not must, by an independent reading, have an unknown TYPE
// or the wrong length for its TYPE, a code outside its table, or a reserved
// byte that is not 0.
#include <cstddef>
#include <cstdint>

#include "models/logical/log_message.h"
#include "testbench/fuzz/fuzz_require.h"

using lq::fuzz::Require;

namespace {

// LOG-6.10's table: each TYPE's length and which bytes are fields.
struct Layout {
  size_t length;
  const char* fields;  // 'f' a field byte, '-' reserved (after TYPE)
};

constexpr Layout kLayouts[] = {
    {0, ""},
    {24, "fff-ffffffffffffff------"},
    {24, "fff-ff--ffffffffffffffff"},
    {24, "f---ff--ffffffffffff----"},
    {16, "f---ff--ffffffff"},
    {8, "f---ff--"},
    {16, "ff--ff--ffff----"},
    {16, "f-------ffff----"},
};

bool ReservedByteSet(const uint8_t* data, const Layout& layout) {
  for (size_t at = 0; at < layout.length; ++at) {
    if (layout.fields[at] == '-' && data[at] != 0) {
      return true;
    }
  }
  return false;
}

bool CodeOutsideTable(const uint8_t* data) {
  switch (data[0]) {
    case 1:  // ACCESS 0-2, CAUSE 1-5
      return data[1] > 2 || data[2] == 0 || data[2] > 5;
    case 2:  // STATUS 0-4, REASON 1-4 with REJECT (3), else 0
      return data[1] > 4 || data[2] > 4 || (data[1] == 3) != (data[2] != 0);
    case 6:  // STATUS 0-1
      return data[1] > 1;
    default:
      return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const lq::ByteView bytes(data, size);
  const auto message = lq::logical::ParseLogMessage(bytes);
  if (message.ok()) {
    Require(lq::logical::EncodeLogMessage(*message) ==
            lq::Bytes(bytes.begin(), bytes.end()));
    return 0;
  }
  if (size == 0 || data[0] == 0 || data[0] > 7) {
    return 0;
  }
  const Layout& layout = kLayouts[data[0]];
  Require(size != layout.length || CodeOutsideTable(data) ||
          ReservedByteSet(data, layout));
  return 0;
}
