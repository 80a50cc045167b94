// SPDX-License-Identifier: Apache-2.0
// A broken link controller for the conformance suite's own-RTL entry point
// (docs/guide-conformance.md): lqemu's lc_top behind the same ports, except
// that every NAK it receives reads as an ACK, so it never replays on a NAK
// (against DLL-4.3 and DLL-4.4). It is a third party's RTL as far as the
// suite knows: CMake Verilates it from -DLQ_DUT_RTL as `--dut own`, and CTest
// requires the suite to fail it.
module lc_top_ignores_nak #(
  parameter int SlotBytes = lc_pkg::SLOT_BYTES_PCIE6,
  parameter int ReplayFlits = 128,
  parameter int RxBufferFlits = 256,
  parameter int RxReorderFlits = 64,
  parameter int MsCycles = 1000000,
  localparam int SlotBits = SlotBytes * 8,
  localparam int ContentBits = SlotBits + lc_pkg::DLP_BITS + lc_pkg::CRC_BITS
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic reg_req_i,
  input  logic reg_we_i,
  input  logic [lc_reg_pkg::LC_ADDR_WIDTH-1:0] reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,
  output logic reg_ready_o,
  output logic reg_error_o,
  output logic irq_o,
  input  logic [lc_pkg::NUM_VCS-1:0] tx_valid_i,
  output logic [lc_pkg::NUM_VCS-1:0] tx_ready_o,
  input  logic [lc_pkg::NUM_VCS*SlotBits-1:0] tx_slot_i,
  output logic rx_valid_o,
  input  logic rx_ready_i,
  output logic [lc_pkg::VC_BITS-1:0] rx_vc_o,
  output logic [SlotBits-1:0] rx_slot_o,
  input  logic ctrl_tx_valid_i,
  output logic ctrl_tx_ready_o,
  input  logic [SlotBits-1:0] ctrl_tx_slot_i,
  output logic ctrl_rx_valid_o,
  output logic [SlotBits-1:0] ctrl_rx_slot_o,
  output logic link_up_o,
  output logic phy_tx_valid_o,
  input  logic phy_tx_ready_i,
  output logic [ContentBits-1:0] phy_tx_flit_o,
  output logic [7:0] phy_tx_corrupt_bytes_o,
  input  logic phy_rx_valid_i,
  input  logic phy_rx_bad_i,
  input  logic phy_rx_fec_corrected_i,
  input  logic [lc_pkg::LANE_BITS-1:0] phy_rx_lane_i,
  input  logic [ContentBits-1:0] phy_rx_flit_i,
  input  logic [lc_pkg::MAX_LANES-1:0] phy_receiver_i,
  input  logic [lc_pkg::MAX_LANES-1:0] phy_lock_lost_i,
  output logic [4:0] width_o
);
  // Content bytes in order from the most significant: the slot, the DLP,
  // the flit CRC. replay_cmd is bits 7-6 of DLP byte 2 (DLL-1.2).
  localparam int CheckedBits = SlotBits + lc_pkg::DLP_BITS;
  localparam int ReplayMsb = lc_pkg::CRC_BITS + lc_pkg::DLP_BITS - 2 * 8 - 1;

  logic [63:0] crc_in, crc_new;
  logic [CheckedBits-1:0] rewritten;
  logic is_nak;

  prim_crc64 #(.Bytes(CheckedBits / 8)) u_crc_in (
    .data_i(phy_rx_flit_i[ContentBits-1 -: CheckedBits]),
    .crc_o (crc_in)
  );
  always_comb begin
    rewritten = phy_rx_flit_i[ContentBits-1 -: CheckedBits];
    rewritten[ReplayMsb - lc_pkg::CRC_BITS -: 2] = 2'b01;  // ACK
  end
  prim_crc64 #(.Bytes(CheckedBits / 8)) u_crc_new (
    .data_i(rewritten),
    .crc_o (crc_new)
  );
  // Only intact flits are rewritten; a damaged one stays damaged.
  assign is_nak = phy_rx_flit_i[ReplayMsb] && crc_in == phy_rx_flit_i[63:0];

  lc_top #(
    .SlotBytes(SlotBytes),
    .ReplayFlits(ReplayFlits),
    .RxBufferFlits(RxBufferFlits),
    .RxReorderFlits(RxReorderFlits),
    .MsCycles(MsCycles)
  ) u_lc (
    .phy_rx_flit_i(is_nak ? {rewritten, crc_new} : phy_rx_flit_i),
    .*
  );
endmodule
