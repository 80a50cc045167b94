// SPDX-License-Identifier: Apache-2.0
// Register block of the link controller: docs/registers/lc.md with the behaviour of DLL-8.
//
// The register port answers in the cycle of the request (reg_ready_o = reg_req_i); a write takes
// effect at the next clock edge unless reg_error_o is raised, in which case nothing changes.
`include "prim_assert.svh"

module lc_csr (
  input  logic clk_i,
  input  logic rst_ni,

  input  logic reg_req_i,
  input  logic reg_we_i,
  input  logic [lc_reg_pkg::LC_ADDR_WIDTH-1:0] reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,
  output logic reg_ready_o,
  output logic reg_error_o,

  // Control to the datapath.
  output logic enable_o,
  output logic retrain_o,  // Pulse.
  output logic loopback_o,
  output logic sel_nak_en_o,
  output logic profile_o,
  output logic [4:0] target_width_o,
  output logic inject_crc_o,
  output logic inject_seq_o,
  output logic inject_drop_ack_o,
  output logic inject_corrupt_o,
  output logic [7:0] corrupt_bytes_o,
  output logic [15:0] replay_timeout_o,
  output logic [3:0] replay_limit_o,
  output logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] credit_init_o,
  output logic irq_o,

  // Status from the datapath.
  input  logic [2:0] ltssm_i,
  input  logic link_up_i,
  input  logic status_profile_i,  // The profile latched at Polling (DLL-8.7).
  input  logic [4:0] width_i,
  input  logic [3:0] speed_i,
  input  logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] credit_avail_i,

  // Counted events (pulses), in register order TX_FLITS .. LOST_ON_DOWN.
  input  logic tx_flit_i,
  input  logic rx_flit_i,
  input  logic crc_error_i,
  input  logic fec_corrected_i,
  input  logic nak_sent_i,
  input  logic nak_received_i,
  input  logic replay_i,
  input  logic retrain_event_i,
  input  logic link_down_i,
  input  logic protocol_error_i,
  input  logic [lc_pkg::SEQ_BITS-1:0] lost_on_down_i,  // Flits discarded now (DLL-4.10).
  input  logic link_up_event_i,
  input  logic escalation_i
);
  localparam int NumSmall = 9;  // CRC_ERRORS .. LOST_ON_DOWN, 32-bit each.
  localparam int AmountBits = lc_pkg::SEQ_BITS;
  localparam logic [31:0] MinReplayTimeout = 32'd375;

  logic [31:0] ctrl_q, ctrl_d, inject_q, inject_d, timeout_q, timeout_d, limit_q, limit_d;
  logic [31:0] irq_status_q, irq_status_d, irq_enable_q, irq_enable_d;
  logic [lc_pkg::NUM_VCS*32-1:0] credit_init_q, credit_init_d;
  logic [63:0] tx_flits_q, tx_flits_d, rx_flits_q, rx_flits_d;
  logic [31:0] tx_hi_q, tx_hi_d, rx_hi_q, rx_hi_d;
  logic [NumSmall*32-1:0] small_q, small_d;

  // -------------------------------------------------------------------------------------------
  // Decode: which register, its writable bits, and whether the access is legal (DLL-8.1, 8.3).
  logic known, writable, write, read, illegal_value, credit_sel, small_sel;
  logic [31:0] defined_bits, rdata;
  logic [1:0] credit_idx;
  logic [3:0] small_idx;
  logic [4:0] new_width;

  assign credit_sel = reg_addr_i >= lc_reg_pkg::LC_CREDIT_INIT_VC0_OFFSET &&
                      reg_addr_i <= lc_reg_pkg::LC_CREDIT_INIT_VC3_OFFSET;
  assign credit_idx = reg_addr_i[3:2];
  assign small_sel = reg_addr_i >= lc_reg_pkg::LC_CRC_ERRORS_OFFSET &&
                     reg_addr_i <= lc_reg_pkg::LC_LOST_ON_DOWN_OFFSET;
  assign small_idx = 4'(((reg_addr_i - lc_reg_pkg::LC_CRC_ERRORS_OFFSET) >> 2));
  assign new_width = reg_wdata_i[lc_reg_pkg::LC_CTRL_TARGET_WIDTH_LSB +: 5];

  always_comb begin
    known = 1'b1;
    writable = 1'b0;
    defined_bits = '1;
    rdata = '0;
    illegal_value = 1'b0;
    if (reg_addr_i[1:0] != 2'b00) begin
      known = 1'b0;
    end else if (credit_sel) begin
      writable = 1'b1;
      defined_bits = lc_reg_pkg::LC_CREDIT_INIT_RW_BITS;
      rdata = credit_init_q[credit_idx*32 +: 32];
    end else if (small_sel) begin
      rdata = small_q[small_idx*32 +: 32];
    end else begin
      unique case (reg_addr_i)
        lc_reg_pkg::LC_ID_OFFSET: rdata = lc_reg_pkg::LC_ID_RESET;
        lc_reg_pkg::LC_CTRL_OFFSET: begin
          writable = 1'b1;
          defined_bits = lc_reg_pkg::LC_CTRL_RW_BITS | lc_reg_pkg::LC_CTRL_W1S_BITS;
          rdata = ctrl_q & lc_reg_pkg::LC_CTRL_RW_BITS;
          illegal_value = !(new_width == 5'd1 || new_width == 5'd2 || new_width == 5'd4 ||
                            new_width == 5'd8 || new_width == 5'd16);
        end
        lc_reg_pkg::LC_STATUS_OFFSET: begin
          rdata = {4'd0, speed_i, 3'd0, width_i, 7'd0, status_profile_i, 3'd0, link_up_i, 1'b0, ltssm_i};
        end
        lc_reg_pkg::LC_ERR_INJECT_OFFSET: begin
          writable = 1'b1;
          defined_bits = lc_reg_pkg::LC_ERR_INJECT_RW_BITS | lc_reg_pkg::LC_ERR_INJECT_W1S_BITS;
          rdata = inject_q & lc_reg_pkg::LC_ERR_INJECT_RW_BITS;
        end
        lc_reg_pkg::LC_REPLAY_TIMEOUT_OFFSET: begin
          writable = 1'b1;
          defined_bits = lc_reg_pkg::LC_REPLAY_TIMEOUT_RW_BITS;
          rdata = timeout_q;
          illegal_value = reg_wdata_i < MinReplayTimeout;
        end
        lc_reg_pkg::LC_REPLAY_LIMIT_OFFSET: begin
          writable = 1'b1;
          defined_bits = lc_reg_pkg::LC_REPLAY_LIMIT_RW_BITS;
          rdata = limit_q;
        end
        lc_reg_pkg::LC_IRQ_STATUS_OFFSET: begin
          writable = 1'b1;
          defined_bits = lc_reg_pkg::LC_IRQ_STATUS_W1C_BITS;
          rdata = irq_status_q;
        end
        lc_reg_pkg::LC_IRQ_ENABLE_OFFSET: begin
          writable = 1'b1;
          defined_bits = lc_reg_pkg::LC_IRQ_ENABLE_RW_BITS;
          rdata = irq_enable_q;
        end
        lc_reg_pkg::LC_CREDIT_AVAIL_VC0_OFFSET: rdata = {20'd0, credit_avail_i[0 +: 12]};
        lc_reg_pkg::LC_CREDIT_AVAIL_VC1_OFFSET: rdata = {20'd0, credit_avail_i[12 +: 12]};
        lc_reg_pkg::LC_CREDIT_AVAIL_VC2_OFFSET: rdata = {20'd0, credit_avail_i[24 +: 12]};
        lc_reg_pkg::LC_CREDIT_AVAIL_VC3_OFFSET: rdata = {20'd0, credit_avail_i[36 +: 12]};
        lc_reg_pkg::LC_TX_FLITS_LO_OFFSET: rdata = tx_flits_q[31:0];
        lc_reg_pkg::LC_TX_FLITS_HI_OFFSET: rdata = tx_hi_q;
        lc_reg_pkg::LC_RX_FLITS_LO_OFFSET: rdata = rx_flits_q[31:0];
        lc_reg_pkg::LC_RX_FLITS_HI_OFFSET: rdata = rx_hi_q;
        default: known = 1'b0;
      endcase
    end
  end

  assign reg_error_o = reg_req_i && (!known || (reg_we_i && (!writable || illegal_value ||
                                     (reg_wdata_i & ~defined_bits) != '0)));
  assign write = reg_req_i && reg_we_i && !reg_error_o;
  assign read = reg_req_i && !reg_we_i && !reg_error_o;
  assign reg_ready_o = reg_req_i;
  assign reg_rdata_o = read ? rdata : '0;

  // -------------------------------------------------------------------------------------------
  // Counters (DLL-8.4, DLL-8.6): saturating; reaching all-ones raises COUNTER_OVERFLOW.
  logic clear;
  logic [NumSmall-1:0] small_saturates;
  logic [NumSmall*AmountBits-1:0] small_amount;
  logic [32:0] small_sum;
  logic tx_saturates, rx_saturates;
  assign clear = write && reg_addr_i == lc_reg_pkg::LC_CTRL_OFFSET &&
                 reg_wdata_i[lc_reg_pkg::LC_CTRL_CNT_CLEAR_LSB];
  assign small_amount = {lost_on_down_i, AmountBits'(protocol_error_i), AmountBits'(link_down_i),
                         AmountBits'(retrain_event_i), AmountBits'(replay_i),
                         AmountBits'(nak_received_i), AmountBits'(nak_sent_i),
                         AmountBits'(fec_corrected_i), AmountBits'(crc_error_i)};

  always_comb begin
    tx_flits_d = tx_flits_q;
    rx_flits_d = rx_flits_q;
    small_d = small_q;
    tx_saturates = 1'b0;
    rx_saturates = 1'b0;
    small_saturates = '0;
    if (tx_flit_i && tx_flits_q != '1) begin
      tx_flits_d = tx_flits_q + 64'd1;
      tx_saturates = tx_flits_d == '1;
    end
    if (rx_flit_i && rx_flits_q != '1) begin
      rx_flits_d = rx_flits_q + 64'd1;
      rx_saturates = rx_flits_d == '1;
    end
    small_sum = '0;
    for (int i = 0; i < NumSmall; i++) begin
      if (small_amount[i*AmountBits +: AmountBits] != '0 && small_q[i*32 +: 32] != '1) begin
        small_sum = {1'b0, small_q[i*32 +: 32]} + 33'(small_amount[i*AmountBits +: AmountBits]);
        small_d[i*32 +: 32] = small_sum[32] ? '1 : small_sum[31:0];
        small_saturates[i] = small_d[i*32 +: 32] == '1;
      end
    end
    if (clear) begin
      tx_flits_d = '0;
      rx_flits_d = '0;
      small_d = '0;
    end
  end

  // -------------------------------------------------------------------------------------------
  // Register writes, pulses and interrupts (DLL-7.5, DLL-7.6, DLL-8.5).
  logic [31:0] irq_events;
  assign irq_events = {27'd0, tx_saturates || rx_saturates || (small_saturates != '0),
                       crc_error_i, escalation_i, link_down_i, link_up_event_i};

  always_comb begin
    ctrl_d = ctrl_q;
    inject_d = inject_q;
    timeout_d = timeout_q;
    limit_d = limit_q;
    irq_enable_d = irq_enable_q;
    credit_init_d = credit_init_q;
    irq_status_d = irq_status_q;
    tx_hi_d = tx_hi_q;
    rx_hi_d = rx_hi_q;
    if (write) begin
      unique case (reg_addr_i)
        lc_reg_pkg::LC_CTRL_OFFSET: ctrl_d = reg_wdata_i & lc_reg_pkg::LC_CTRL_RW_BITS;
        lc_reg_pkg::LC_ERR_INJECT_OFFSET:
          inject_d = reg_wdata_i & lc_reg_pkg::LC_ERR_INJECT_RW_BITS;
        lc_reg_pkg::LC_REPLAY_TIMEOUT_OFFSET: timeout_d = reg_wdata_i;
        lc_reg_pkg::LC_REPLAY_LIMIT_OFFSET: limit_d = reg_wdata_i;
        lc_reg_pkg::LC_IRQ_STATUS_OFFSET: irq_status_d = irq_status_q & ~reg_wdata_i;
        lc_reg_pkg::LC_IRQ_ENABLE_OFFSET: irq_enable_d = reg_wdata_i;
        default: begin
          for (int v = 0; v < lc_pkg::NUM_VCS; v++) begin
            if (credit_sel && credit_idx == 2'(v)) credit_init_d[v*32 +: 32] = reg_wdata_i;
          end
        end
      endcase
    end
    // A cause is recorded whether or not it is enabled, and wins over a clear in the same cycle.
    irq_status_d = irq_status_d | irq_events;
    if (read && reg_addr_i == lc_reg_pkg::LC_TX_FLITS_LO_OFFSET) tx_hi_d = tx_flits_q[63:32];
    if (read && reg_addr_i == lc_reg_pkg::LC_RX_FLITS_LO_OFFSET) rx_hi_d = rx_flits_q[63:32];
    if (clear) begin
      tx_hi_d = '0;
      rx_hi_d = '0;
    end
  end

  logic pulse_write_ctrl, pulse_write_inject;
  assign pulse_write_ctrl = write && reg_addr_i == lc_reg_pkg::LC_CTRL_OFFSET;
  assign pulse_write_inject = write && reg_addr_i == lc_reg_pkg::LC_ERR_INJECT_OFFSET;
  assign retrain_o = pulse_write_ctrl && reg_wdata_i[lc_reg_pkg::LC_CTRL_RETRAIN_LSB];
  assign inject_crc_o = pulse_write_inject && reg_wdata_i[lc_reg_pkg::LC_ERR_INJECT_CRC_ERR_LSB];
  assign inject_seq_o = pulse_write_inject && reg_wdata_i[lc_reg_pkg::LC_ERR_INJECT_SEQ_ERR_LSB];
  assign inject_drop_ack_o = pulse_write_inject &&
                             reg_wdata_i[lc_reg_pkg::LC_ERR_INJECT_DROP_ACK_LSB];
  assign inject_corrupt_o = pulse_write_inject &&
                            reg_wdata_i[lc_reg_pkg::LC_ERR_INJECT_CORRUPT_LSB];

  assign enable_o = ctrl_q[lc_reg_pkg::LC_CTRL_ENABLE_LSB];
  assign loopback_o = ctrl_q[lc_reg_pkg::LC_CTRL_LOOPBACK_LSB];
  assign sel_nak_en_o = ctrl_q[lc_reg_pkg::LC_CTRL_SEL_NAK_EN_LSB];
  assign profile_o = ctrl_q[lc_reg_pkg::LC_CTRL_PROFILE_LSB];
  assign target_width_o = ctrl_q[lc_reg_pkg::LC_CTRL_TARGET_WIDTH_LSB +: 5];
  assign corrupt_bytes_o = inject_q[lc_reg_pkg::LC_ERR_INJECT_CORRUPT_BYTES_LSB +: 8];
  assign replay_timeout_o = timeout_q[15:0];
  assign replay_limit_o = limit_q[3:0];
  for (genvar v = 0; v < lc_pkg::NUM_VCS; v++) begin : gen_credit_init
    assign credit_init_o[v*lc_pkg::CREDIT_BITS +: lc_pkg::CREDIT_BITS] =
        credit_init_q[v*32 +: lc_pkg::CREDIT_BITS];
  end
  assign irq_o = (irq_status_q & irq_enable_q) != '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_q <= lc_reg_pkg::LC_CTRL_RESET;
      inject_q <= lc_reg_pkg::LC_ERR_INJECT_RESET;
      timeout_q <= lc_reg_pkg::LC_REPLAY_TIMEOUT_RESET;
      limit_q <= lc_reg_pkg::LC_REPLAY_LIMIT_RESET;
      irq_status_q <= lc_reg_pkg::LC_IRQ_STATUS_RESET;
      irq_enable_q <= lc_reg_pkg::LC_IRQ_ENABLE_RESET;
      credit_init_q <= {lc_pkg::NUM_VCS{lc_reg_pkg::LC_CREDIT_INIT_RESET}};
      tx_flits_q <= '0;
      rx_flits_q <= '0;
      tx_hi_q <= '0;
      rx_hi_q <= '0;
      small_q <= '0;
    end else begin
      ctrl_q <= ctrl_d;
      inject_q <= inject_d;
      timeout_q <= timeout_d;
      limit_q <= limit_d;
      irq_status_q <= irq_status_d;
      irq_enable_q <= irq_enable_d;
      credit_init_q <= credit_init_d;
      tx_flits_q <= tx_flits_d;
      rx_flits_q <= rx_flits_d;
      tx_hi_q <= tx_hi_d;
      rx_hi_q <= rx_hi_d;
      small_q <= small_d;
    end
  end

  `ASSERT(CsrNoWriteOnError, !(reg_error_o && write))
endmodule
