# SPDX-License-Identifier: Apache-2.0
# Compiler flags every lqemu target gets: warnings, sanitizers, coverage, fuzz.
add_library(lq_build_flags INTERFACE)
target_compile_options(lq_build_flags INTERFACE -Wall -Wextra -Wpedantic)
# Sources include each other by repository-relative path ("models/crc/crc.h").
target_include_directories(lq_build_flags INTERFACE
  ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
# Nothing compiled names the build tree (__FILE__ in generated and Verilated
# code, debug information): an installed lqemu must not point back into it
# (issue 44, testbench/app/check_install.py).
add_compile_options(-ffile-prefix-map=${PROJECT_BINARY_DIR}=build)

if(LQ_SANITIZE)
  list(JOIN LQ_SANITIZE "," _lq_sanitizers)
  message(STATUS "lqemu: sanitizers ${_lq_sanitizers}")
  # At -O1 with line tables only (-g1): the sanitizers' reports need no
  # more, and it halves the build's compile time (decision 0057).
  add_compile_options(-fsanitize=${_lq_sanitizers} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all -O1 -g1)
  add_link_options(-fsanitize=${_lq_sanitizers})
endif()

if(LQ_COVERAGE)
  add_compile_options(--coverage -O0 -g)
  add_link_options(--coverage)
endif()

if(LQ_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "LQ_FUZZ needs clang (libFuzzer): CXX=clang++")
  endif()
  # Every library gets libFuzzer's coverage hooks and the sanitizers, so the
  # fuzzers are guided by (and check) the parsers, not just their harnesses.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                      -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
