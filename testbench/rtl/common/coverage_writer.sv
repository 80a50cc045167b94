// SPDX-License-Identifier: Apache-2.0
// Coverage-build helper bound into the Verilated top (LQ_COVERAGE_TOP, set by
// lq_verilate_test): at final() it asks coverage_writer.cpp to save the coverage
// of its model's context while the model, which owns the counters, still exists.
/* verilator coverage_off */
module coverage_writer;
  import "DPI-C" context function void lq_rtl_save_coverage();
  final lq_rtl_save_coverage();
endmodule
/* verilator coverage_on */

bind `LQ_COVERAGE_TOP coverage_writer u_coverage_writer ();
