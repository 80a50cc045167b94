// SPDX-License-Identifier: Apache-2.0
// Link controller top: wires the transmit and receive paths, the LTSSM and the register block.
//
// Clock and width (DESIGN §5): 1 GHz, one flit content per beat on each PHY stream. pcie6 x16
// needs one 256-byte flit every 2 ns (1024 Gb/s raw), i.e. one flit per 2 cycles, so a
// one-flit-per-cycle datapath has 2x headroom over the raw rate and sustains the 944 Gb/s of
// payload (PHY-1.5) the link can carry; ib x4 needs one 680-byte block per 6.8 ns.
`include "prim_assert.svh"

module lc_top #(
  parameter int SlotBytes = lc_pkg::SLOT_BYTES_PCIE6,
  parameter int ReplayFlits = 128,     // REPLAY_BUFFER_FLITS, a power of two (DLL-2.3).
  parameter int RxBufferFlits = 256,   // Receive buffer: at least the sum of CREDIT_INIT.
  parameter int RxReorderFlits = 64,   // RX_REORDER_FLITS, a power of two; 0: no selective NAK.
  parameter int MsCycles = 1000000,    // LTSSM cycles per ms, times LTSSM_TIME_SCALE (DLL-6.2).
  localparam int SlotBits = SlotBytes * 8,
  localparam int ContentBits = SlotBits + lc_pkg::DLP_BITS + lc_pkg::CRC_BITS
) (
  input  logic clk_i,
  input  logic rst_ni,

  // Register port (APB-like, answers in the request cycle).
  input  logic reg_req_i,
  input  logic reg_we_i,
  input  logic [lc_reg_pkg::LC_ADDR_WIDTH-1:0] reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,
  output logic reg_ready_o,
  output logic reg_error_o,
  output logic irq_o,

  // Network side: payload in per VC, accepted payload out in sequence order.
  input  logic [lc_pkg::NUM_VCS-1:0] tx_valid_i,
  output logic [lc_pkg::NUM_VCS-1:0] tx_ready_o,
  input  logic [lc_pkg::NUM_VCS*SlotBits-1:0] tx_slot_i,  // VC v at [v*SlotBits +: SlotBits].
  output logic rx_valid_o,
  input  logic rx_ready_i,
  output logic [lc_pkg::VC_BITS-1:0] rx_vc_o,
  output logic [SlotBits-1:0] rx_slot_o,
  // Link control messages (DLL-11): a slot to send, and a good one received (one-cycle pulse).
  input  logic ctrl_tx_valid_i,
  output logic ctrl_tx_ready_o,
  input  logic [SlotBits-1:0] ctrl_tx_slot_i,
  output logic ctrl_rx_valid_o,
  output logic [SlotBits-1:0] ctrl_rx_slot_o,
  output logic link_up_o,

  // PHY side: flit contents (the PHY adds and checks FEC).
  output logic phy_tx_valid_o,
  input  logic phy_tx_ready_i,
  output logic [ContentBits-1:0] phy_tx_flit_o,
  output logic [7:0] phy_tx_corrupt_bytes_o,  // ERR_INJECT.CORRUPT for this flit (DLL-8.8).
  input  logic phy_rx_valid_i,
  input  logic phy_rx_bad_i,             // FEC uncorrectable.
  input  logic phy_rx_fec_corrected_i,   // FEC corrected at least one symbol.
  input  logic [lc_pkg::LANE_BITS-1:0] phy_rx_lane_i,  // Lane a TRAINING flit came on (PHY-4.7).
  input  logic [ContentBits-1:0] phy_rx_flit_i,
  input  logic [lc_pkg::MAX_LANES-1:0] phy_receiver_i,   // Lanes that see a receiver (DLL-6.4).
  input  logic [lc_pkg::MAX_LANES-1:0] phy_lock_lost_i,  // Loss-of-lock pulses (PHY-5.4).
  output logic [4:0] width_o  // Negotiated lanes the PHY stripes over; 0 while the link is down.
);
  localparam int NumVcs = lc_pkg::NUM_VCS;

  // Register block outputs.
  logic enable, retrain, loopback, sel_nak_en, ctrl_profile, inject_crc, inject_seq, inject_drop_ack;
  logic inject_corrupt;
  logic [4:0] target_width, width;
  logic [7:0] corrupt_bytes;
  logic [15:0] replay_timeout;
  logic [3:0] replay_limit, speed;
  logic [NumVcs*lc_pkg::CREDIT_BITS-1:0] credit_init, credit_avail, partner_init, freed;

  // LTSSM.
  logic l0, idle, training, link_reset, link_down, replay_all, link_up, up_event, down_event;
  logic retrain_event, profile;
  logic [NumVcs*lc_pkg::CREDIT_BITS-1:0] own_init;  // CREDIT_INIT latched at Polling (DLL-8.7).
  logic [lc_pkg::LANE_BITS-1:0] flit_lane;
  logic [2:0] ltssm_code;

  // Between tx and rx.
  logic rx_cmd_valid, rx_credit_valid, ack_cmd_sent, flit_chosen;
  logic [1:0] rx_cmd, ack_cmd;
  logic [lc_pkg::SEQ_BITS-1:0] rx_ack_seq, ack_seq;
  logic [lc_pkg::VC_BITS-1:0] rx_credit_vc;
  logic [lc_pkg::CREDIT_BITS-1:0] rx_credit_count;

  // Events.
  logic partner_error_q;
  logic [lc_pkg::SEQ_BITS-1:0] lost_on_down;  // Flits the replay buffer drops at link-down.
  logic [lc_pkg::SEQ_BITS-1:0] outstanding;  // Unacknowledged flits in the replay buffer.
  logic payload_sent, replay_start, nak_received, escalate, protocol_error;
  logic flit_seen, good_flit, bad_flit, bad_limit, payload_rx, nak_sent, overflow;
  logic [2:0] good_type;
  logic [lc_pkg::TS_BYTES*8-1:0] good_record, ts_record;

  // PHY or loopback (DLL-6.11).
  logic tx_valid, tx_ready, rx_in_valid, rx_in_bad, fec_corrected;
  logic [ContentBits-1:0] tx_flit, rx_in_flit;
  assign tx_ready = loopback ? 1'b1 : phy_tx_ready_i;
  assign phy_tx_valid_o = tx_valid && !loopback;
  assign phy_tx_flit_o = tx_flit;
  assign rx_in_valid = loopback ? tx_valid : phy_rx_valid_i;
  assign rx_in_bad = loopback ? 1'b0 : phy_rx_bad_i;
  assign rx_in_flit = loopback ? tx_flit : phy_rx_flit_i;
  assign fec_corrected = !loopback && phy_rx_valid_i && !phy_rx_bad_i && phy_rx_fec_corrected_i;

  assign speed = profile ? 4'd2 : 4'd1;
  assign width_o = width;

  // ERR_INJECT.CORRUPT applies to the next flit handed to the PHY, after FEC.
  logic corrupt_armed_q, corrupt_armed_d;
  assign corrupt_armed_d = (corrupt_armed_q && !(phy_tx_valid_o && phy_tx_ready_i)) ||
                           inject_corrupt;
  assign phy_tx_corrupt_bytes_o = corrupt_armed_q ? corrupt_bytes : 8'd0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) corrupt_armed_q <= 1'b0;
    else corrupt_armed_q <= corrupt_armed_d;
  end

  lc_tx #(.SlotBytes(SlotBytes), .ReplayFlits(ReplayFlits)) u_tx (
    .clk_i,
    .rst_ni,
    .l0_i             (l0),
    .idle_i           (idle),
    .training_i       (training),
    .ts_record_i      (ts_record),
    .link_reset_i     (link_reset || link_down),
    .replay_all_i     (replay_all),
    .credit_init_i    (partner_init),
    .replay_timeout_i (replay_timeout),
    .replay_limit_i   (replay_limit),
    .inject_crc_i     (inject_crc),
    .inject_seq_i     (inject_seq),
    .inject_drop_ack_i(inject_drop_ack),
    .ctrl_valid_i     (ctrl_tx_valid_i),
    .ctrl_ready_o     (ctrl_tx_ready_o),
    .ctrl_slot_i      (ctrl_tx_slot_i),
    .tx_valid_i,
    .tx_ready_o,
    .tx_slot_i,
    .credit_avail_o   (credit_avail),
    .rx_cmd_valid_i   (rx_cmd_valid),
    .rx_cmd_i         (rx_cmd),
    .rx_ack_seq_i     (rx_ack_seq),
    .rx_credit_valid_i(rx_credit_valid),
    .rx_credit_vc_i   (rx_credit_vc),
    .rx_credit_count_i(rx_credit_count),
    .ack_cmd_i        (ack_cmd),
    .ack_seq_i        (ack_seq),
    .ack_cmd_sent_o   (ack_cmd_sent),
    .freed_i          (freed),
    .phy_valid_o      (tx_valid),
    .phy_ready_i      (tx_ready),
    .phy_flit_o       (tx_flit),
    .flit_chosen_o    (flit_chosen),
    .payload_sent_o   (payload_sent),
    .replay_start_o   (replay_start),
    .nak_received_o   (nak_received),
    .escalate_o       (escalate),
    .protocol_error_o (protocol_error),
    .outstanding_o    (outstanding)
  );

  lc_rx #(
    .SlotBytes     (SlotBytes),
    .RxBufferFlits (RxBufferFlits),
    .RxReorderFlits(RxReorderFlits)
  ) u_rx (
    .clk_i,
    .rst_ni,
    .l0_i             (l0),
    .idle_i           (idle),
    .link_reset_i     (link_reset || link_down),
    .flit_time_i      (tx_valid && tx_ready),
    .sel_nak_en_i     (sel_nak_en),
    .profile_i        (profile),
    .credit_init_i    (own_init),
    .phy_valid_i      (rx_in_valid),
    .phy_bad_i        (rx_in_bad),
    .phy_lane_i       (phy_rx_lane_i),  // Unused in loopback: every lane counts as locked.
    .phy_flit_i       (rx_in_flit),
    .rx_valid_o,
    .rx_ready_i,
    .rx_vc_o,
    .rx_slot_o,
    .ctrl_valid_o     (ctrl_rx_valid_o),
    .ctrl_slot_o      (ctrl_rx_slot_o),
    .rx_cmd_valid_o   (rx_cmd_valid),
    .rx_cmd_o         (rx_cmd),
    .rx_ack_seq_o     (rx_ack_seq),
    .rx_credit_valid_o(rx_credit_valid),
    .rx_credit_vc_o   (rx_credit_vc),
    .rx_credit_count_o(rx_credit_count),
    .ack_cmd_o        (ack_cmd),
    .ack_seq_o        (ack_seq),
    .ack_cmd_sent_i   (ack_cmd_sent),
    .freed_o          (freed),
    .flit_seen_o      (flit_seen),
    .flit_lane_o      (flit_lane),
    .good_flit_o      (good_flit),
    .good_record_o    (good_record),
    .good_type_o      (good_type),
    .bad_flit_o       (bad_flit),
    .bad_limit_o      (bad_limit),
    .payload_rx_o     (payload_rx),
    .nak_sent_o       (nak_sent),
    .overflow_o       (overflow)
  );

  lc_ltssm #(.MsCycles(MsCycles)) u_ltssm (
    .clk_i,
    .rst_ni,
    .enable_i         (enable),
    .retrain_i        (retrain),
    .loopback_i       (loopback),
    .profile_i        (ctrl_profile),
    .target_width_i   (target_width),
    .credit_init_i    (credit_init),
    .escalate_i       (escalate),
    .bad_limit_i      (bad_limit),
    .receiver_i       (phy_receiver_i),
    .lock_lost_i      (phy_lock_lost_i),
    .rx_flit_i        (flit_seen),
    .rx_lane_i        (flit_lane),
    .good_flit_i      (good_flit),
    .good_type_i      (good_type),
    .good_record_i    (good_record),
    .tx_sent_i        (flit_chosen),
    .l0_o             (l0),
    .idle_o           (idle),
    .training_o       (training),
    .ts_record_o      (ts_record),
    .link_reset_o     (link_reset),
    .link_down_o      (link_down),
    .replay_all_o     (replay_all),
    .profile_o        (profile),
    .own_init_o       (own_init),
    .partner_init_o   (partner_init),
    .state_o          (ltssm_code),
    .width_o          (width),
    .link_up_o        (link_up),
    .link_up_event_o  (up_event),
    .link_down_event_o(down_event),
    .retrain_event_o  (retrain_event)
  );

  lc_csr u_csr (
    .clk_i,
    .rst_ni,
    .reg_req_i,
    .reg_we_i,
    .reg_addr_i,
    .reg_wdata_i,
    .reg_rdata_o,
    .reg_ready_o,
    .reg_error_o,
    .enable_o         (enable),
    .retrain_o        (retrain),
    .loopback_o       (loopback),
    .sel_nak_en_o     (sel_nak_en),
    .profile_o        (ctrl_profile),
    .target_width_o   (target_width),
    .inject_crc_o     (inject_crc),
    .inject_seq_o     (inject_seq),
    .inject_drop_ack_o(inject_drop_ack),
    .inject_corrupt_o (inject_corrupt),
    .corrupt_bytes_o  (corrupt_bytes),
    .replay_timeout_o (replay_timeout),
    .replay_limit_o   (replay_limit),
    .credit_init_o    (credit_init),
    .irq_o,
    .ltssm_i          (ltssm_code),
    .link_up_i        (link_up),
    .status_profile_i (profile),
    .width_i          (width),
    .speed_i          (link_up ? speed : 4'd0),
    .credit_avail_i   (credit_avail),
    .tx_flit_i        (payload_sent),
    .rx_flit_i        (payload_rx),
    .crc_error_i      (bad_flit),
    .fec_corrected_i  (fec_corrected),
    .nak_sent_i       (nak_sent),
    .nak_received_i   (nak_received),
    .replay_i         (replay_start),
    .retrain_event_i  (retrain_event),
    .link_down_i      (down_event),
    .protocol_error_i (partner_error_q),
    .lost_on_down_i   (lost_on_down),
    .link_up_event_i  (up_event),
    .escalation_i     (escalate)
  );

  assign link_up_o = link_up;

  assign lost_on_down = link_down ? outstanding : lc_pkg::SEQ_BITS'(0);

  // The partner broke the protocol (stale ACK, overfilled VC): PROTOCOL_ERRORS. Registered so
  // that the counter input does not reach back to the wide received flit in one cycle.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) partner_error_q <= 1'b0;
    else partner_error_q <= protocol_error || overflow;
  end
  `COVER(CovPartnerProtocolError, partner_error_q)
  `COVER(CovLostOnDown, link_down && outstanding != '0)
endmodule
