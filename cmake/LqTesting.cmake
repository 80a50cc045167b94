# SPDX-License-Identifier: Apache-2.0
# Functions that register lqemu's tests, fuzz targets and benchmarks with CTest.
include(GoogleTest)

# lq_add_unit_test(NAME [SYSTEMC] SOURCES... LIBS...): one GoogleTest
# executable whose cases CTest lists one by one, labelled "unit". SYSTEMC
# tests get an sc_main that runs the tests, since SystemC owns main().
function(lq_add_unit_test name)
  cmake_parse_arguments(ARG "SYSTEMC" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} lq_build_flags
                        GTest::gtest)
  # A test's own sources build at -O1 in Release: the code under test is in
  # the libraries, built at -O3, and the tests' compile time is CI's largest
  # (decision 0057).
  target_compile_options(${name} PRIVATE $<$<CONFIG:Release>:-O1>)
  if(ARG_SYSTEMC)
    target_sources(${name} PRIVATE
      ${PROJECT_SOURCE_DIR}/testbench/common/sc_gtest_main.cpp)
    target_link_libraries(${name} PRIVATE PkgConfig::SYSTEMC)
    set(environment ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
  else()
    target_link_libraries(${name} PRIVATE GTest::gtest_main)
    set(environment)
  endif()
  gtest_discover_tests(${name} PROPERTIES LABELS unit TIMEOUT 120
                       ${environment} DISCOVERY_TIMEOUT 60)
endfunction()

# lq_add_fuzz_target(NAME SOURCE FILE CORPUS DIR LIBS...): a libFuzzer target
# (when LQ_FUZZ is on) plus a CTest smoke run of a few seconds on its corpus.
# Without LQ_FUZZ the same source is linked to a driver that replays the
# corpus once, so every build checks that the seeds still parse cleanly.
function(lq_add_fuzz_target name)
  cmake_parse_arguments(ARG "" "SOURCE;CORPUS" "LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCE})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} lq_build_flags)
  if(LQ_FUZZ)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    # The corpus is copied so that the smoke run never writes into the tree.
    add_test(NAME fuzz.${name}
      COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=1
              ${PROJECT_SOURCE_DIR}/scripts/fuzz-smoke $<TARGET_FILE:${name}>
              ${ARG_CORPUS} ${LQ_FUZZ_SECONDS})
    set_tests_properties(fuzz.${name} PROPERTIES LABELS fuzz TIMEOUT 300)
  else()
    target_sources(${name} PRIVATE
      ${PROJECT_SOURCE_DIR}/testbench/fuzz/corpus_replay_main.cpp)
    add_test(NAME corpus.${name} COMMAND ${name} ${ARG_CORPUS})
    set_tests_properties(corpus.${name} PROPERTIES LABELS unit TIMEOUT 60)
  endif()
endfunction()
set(LQ_FUZZ_SECONDS 10 CACHE STRING "Seconds each fuzz smoke run lasts")

# lq_add_benchmark(NAME SOURCES... LIBS...): a Google Benchmark program. CTest
# runs it once with a minimal time so that benchmarks cannot rot; real figures
# come from scripts/bench (docs/performance.md).
function(lq_add_benchmark name)
  if(NOT LQ_BENCHMARKS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} lq_build_flags
                        benchmark::benchmark benchmark::benchmark_main)
  add_test(NAME bench.${name}
           COMMAND ${name} --benchmark_min_time=0.01)
  set_tests_properties(bench.${name} PROPERTIES LABELS bench TIMEOUT 120)
endfunction()
