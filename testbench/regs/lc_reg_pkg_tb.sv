// SPDX-License-Identifier: Apache-2.0
// Simulation check of the generated lc_reg_pkg: its packed structs agree with its field constants.
module lc_reg_pkg_tb;
  import lc_reg_pkg::*;

  lc_ctrl_reg_t ctrl;
  lc_status_reg_t status;
  lc_irq_status_reg_t irq;

  initial begin
    // A struct and the shift/mask constants are two views of one layout;
    // the RTL uses both, so they must place every field on the same bits.
    if ($bits(lc_ctrl_reg_t) != LC_DATA_WIDTH || $bits(lc_status_reg_t) != LC_DATA_WIDTH)
      $fatal(1, "register structs must be exactly one bus word wide");

    ctrl = LC_CTRL_RESET;  // Icarus 11 has no struct casts: assign the word
    if (ctrl.enable !== LC_CTRL_ENABLE_RESET || ctrl.target_width !== LC_CTRL_TARGET_WIDTH_RESET)
      $fatal(1, "CTRL reset word and per-field reset constants disagree");

    ctrl = LC_CTRL_TARGET_WIDTH_MASK;
    if (ctrl.target_width !== {LC_CTRL_TARGET_WIDTH_WIDTH{1'b1}} || ctrl.enable !== 1'b0 || ctrl.profile !== ProfilePcie6)
      $fatal(1, "CTRL.TARGET_WIDTH mask does not select exactly the struct's target_width bits");

    status = '0;
    status.ltssm = LtssmL0;
    if (((status & LC_STATUS_LTSSM_MASK) >> LC_STATUS_LTSSM_LSB) !== LtssmL0 || (status & ~LC_STATUS_LTSSM_MASK) !== '0)
      $fatal(1, "STATUS.LTSSM constants and struct place the state on different bits");

    irq = LC_IRQ_STATUS_W1C_BITS;
    if (!(irq.link_up && irq.link_down && irq.crc_error))
      $fatal(1, "IRQ_STATUS causes must all be write-1-to-clear bits");

    if (LC_CREDIT_INIT_VC1_OFFSET - LC_CREDIT_INIT_VC0_OFFSET != LC_CREDIT_INIT_STRIDE)
      $fatal(1, "array instance offsets must step by the array stride");

    $display("lc_reg_pkg_tb: PASS");
    $finish;
  end
endmodule
