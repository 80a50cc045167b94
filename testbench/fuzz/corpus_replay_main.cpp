// SPDX-License-Identifier: Apache-2.0
// Driver that feeds every file of a fuzz corpus to LLVMFuzzerTestOneInput
// once, so that builds without libFuzzer still exercise each fuzz target.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  std::error_code error;
  std::filesystem::directory_iterator it(argv[1], error);
  if (error) {
    std::fprintf(stderr, "%s: cannot read corpus: %s\n", argv[1],
                 error.message().c_str());
    return 2;
  }
  int replayed = 0;
  for (const auto& entry : it) {
    if (!entry.is_regular_file()) {
      continue;
    }
    std::ifstream file(entry.path(), std::ios::binary);
    std::vector<uint8_t> input((std::istreambuf_iterator<char>(file)),
                               std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(input.data(), input.size());
    ++replayed;
  }
  if (replayed == 0) {
    std::fprintf(stderr, "%s: corpus is empty\n", argv[1]);
    return 1;
  }
  std::printf("replayed %d corpus inputs\n", replayed);
  return 0;
}
