// SPDX-License-Identifier: Apache-2.0
// Transmit path of the link controller: credits, sequence, DLP, CRC, replay (DLL-2, DLL-4, DLL-5).
//
// The PHY side takes one flit content per beat. A handshake on it is one flit time: in L0 the
// transmitter always offers a flit (a NOP when it has nothing else), so the replay timer counts
// handshakes. The output is registered; the flit is chosen when the output register is free.
// The register holds the chosen slot and DLP, and the flit CRC is computed from it: the same
// content a cycle for cycle, but a simulator evaluates the CRC once a clock edge, not at every
// change of the inputs that choose the flit (issue 43). For the same reason the register takes
// its slot straight from the chosen source at the edge, without a combinational slot mux.
`include "prim_assert.svh"

module lc_tx #(
  parameter int SlotBytes = lc_pkg::SLOT_BYTES_PCIE6,
  parameter int ReplayFlits = 128,
  localparam int SlotBits = SlotBytes * 8,
  localparam int ContentBits = SlotBits + lc_pkg::DLP_BITS + lc_pkg::CRC_BITS
) (
  input  logic clk_i,
  input  logic rst_ni,

  // Link state (from the LTSSM).
  input  logic l0_i,          // Send PAYLOAD and NOP flits.
  input  logic idle_i,        // Send IDLE flits (Configuration.Idle, Recovery.Idle).
  input  logic training_i,    // Send TRAINING flits carrying ts_record_i (DLL-6.3).
  input  logic [lc_pkg::TS_BYTES*8-1:0] ts_record_i,
  // Link up or down: reset sequence and credit state, empty the replay buffer (DLL-2.2, DLL-4.10).
  input  logic link_reset_i,
  input  logic replay_all_i,  // L0 re-entered from Recovery: replay what is outstanding (DLL-4.9).
  // Partner's INIT; every per-VC vector holds VC v at [v*W +: W].
  input  logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] credit_init_i,
  input  logic [15:0] replay_timeout_i,
  input  logic [3:0]  replay_limit_i,
  input  logic inject_crc_i,       // Arm ERR_INJECT.CRC_ERR (DLL-8.8).
  input  logic inject_seq_i,       // Arm ERR_INJECT.SEQ_ERR.
  input  logic inject_drop_ack_i,  // Arm ERR_INJECT.DROP_ACK.

  // A link control message's slot from the network side (DLL-11): it goes in the next flit in L0,
  // ahead of everything else (DLL-11.4).
  input  logic ctrl_valid_i,
  output logic ctrl_ready_o,
  input  logic [SlotBits-1:0] ctrl_slot_i,

  // Payload from the network side, one valid/ready stream per VC.
  input  logic [lc_pkg::NUM_VCS-1:0] tx_valid_i,
  output logic [lc_pkg::NUM_VCS-1:0] tx_ready_o,
  input  logic [lc_pkg::NUM_VCS*SlotBits-1:0] tx_slot_i,  // VC v at [v*SlotBits +: SlotBits].
  output logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] credit_avail_o,

  // Link information the partner sent, from good received flits (lc_rx).
  input  logic rx_cmd_valid_i,
  input  logic [1:0] rx_cmd_i,
  input  logic [lc_pkg::SEQ_BITS-1:0] rx_ack_seq_i,
  input  logic rx_credit_valid_i,
  input  logic [lc_pkg::VC_BITS-1:0] rx_credit_vc_i,
  input  logic [lc_pkg::CREDIT_BITS-1:0] rx_credit_count_i,

  // Link information for the partner, from the local receiver (lc_rx).
  input  logic [1:0] ack_cmd_i,
  input  logic [lc_pkg::SEQ_BITS-1:0] ack_seq_i,
  output logic ack_cmd_sent_o,  // ack_cmd_i went out in the NOP/PAYLOAD flit chosen this cycle.
  input  logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] freed_i,

  // Flit contents to the PHY.
  output logic phy_valid_o,
  input  logic phy_ready_i,
  output logic [ContentBits-1:0] phy_flit_o,

  // Events for counters and the LTSSM (one-cycle pulses).
  output logic flit_chosen_o,    // Any flit chosen (counts TS and IDLE flits sent).
  output logic payload_sent_o,   // TX_FLITS: a PAYLOAD flit (new or replayed) chosen.
  output logic replay_start_o,   // REPLAYS.
  output logic nak_received_o,   // NAKS_RECEIVED.
  output logic escalate_o,       // REPLAY_ESCALATION (DLL-4.7).
  output logic protocol_error_o,  // A stale or invalid ack_seq was ignored (DLL-4.2).
  output logic [lc_pkg::SEQ_BITS-1:0] outstanding_o  // Flits sent and not yet acknowledged.
);
  localparam int NumVcs = lc_pkg::NUM_VCS;
  localparam int SeqBits = lc_pkg::SEQ_BITS;
  localparam int CreditBits = lc_pkg::CREDIT_BITS;
  localparam int ReplayIdxBits = $clog2(ReplayFlits);
  localparam int EntryBits = lc_pkg::VC_BITS + SlotBits;
  localparam logic [SeqBits-1:0] SeqOne = 1;

  // ---------------------------------------------------------------------------------------------
  // State.
  logic [SeqBits-1:0] next_tx_seq_q, next_tx_seq_d;  // NEXT_TX_SEQ
  logic [SeqBits-1:0] ackd_seq_q, ackd_seq_d;        // ACKD_SEQ
  logic [SeqBits-1:0] replay_ptr_q, replay_ptr_d;    // Next flit a go-back replay resends.
  logic replaying_q, replaying_d;
  logic resend_q, resend_d;  // A selective resend of ACKD_SEQ + 1 waits (DLL-4.4).
  logic [3:0] replay_num_q, replay_num_d;            // REPLAY_NUM
  logic [15:0] timer_q, timer_d;
  logic timer_running_q, timer_running_d;
  logic [lc_pkg::VC_BITS-1:0] credit_rr_q, credit_rr_d;  // credit_vc of the next flit (DLL-5.5).
  logic [NumVcs*CreditBits-1:0] last_q, last_d;  // LAST(v) (DLL-5.6).
  logic crc_armed_q, crc_armed_d, seq_armed_q, seq_armed_d, drop_ack_armed_q, drop_ack_armed_d;
  logic out_valid_q, out_valid_d;
  localparam int BodyBits = SlotBits + lc_pkg::DLP_BITS;
  logic [BodyBits-1:0] out_body_q;              // The flit's slot and DLP.
  logic out_crc_bad_q, out_crc_bad_d;           // ERR_INJECT.CRC_ERR applies to it.
  logic out_loaded_q, out_loaded_d;             // A flit was chosen since reset.

  // ---------------------------------------------------------------------------------------------
  // Combinational signals.
  logic load, replay_pending, resend_pending, send_resend, send_replay, send_new, send_nop;
  logic send_control;
  logic send_idle, send_training, send_any, resends;
  logic [SeqBits-1:0] resend_seq, read_seq;
  logic [EntryBits-1:0] replay_entry;
  logic flit_time, sends_payload, cmd_in, ack_ok, progress, std_nak_in, sel_nak_in, timeout;
  logic trigger, limit_hit;
  logic [SeqBits-1:0] ack_dist, remaining;
  logic [3:0] replay_num_base;
  logic drop_ack_now;

  // ---------------------------------------------------------------------------------------------
  // Credits and the VC arbiter.
  logic [SeqBits-1:0] outstanding;
  logic room;
  logic [NumVcs-1:0] credit_nonzero, vc_req, vc_gnt, consume;
  logic [lc_pkg::VC_BITS-1:0] gnt_vc;

  assign outstanding = next_tx_seq_q - ackd_seq_q - SeqOne;
  assign room = outstanding < SeqBits'(ReplayFlits);

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    logic credit_return;
    assign credit_return = rx_credit_valid_i && (rx_credit_vc_i == v) && !link_reset_i;
    prim_credit_counter #(.Width(lc_pkg::CREDIT_BITS)) u_credit (
      .clk_i,
      .rst_ni,
      .load_i        (link_reset_i),
      .load_value_i  (credit_init_i[v*CreditBits +: CreditBits]),
      .consume_i     (consume[v]),
      .return_i      (credit_return),
      .return_count_i(rx_credit_count_i - last_q[v*CreditBits +: CreditBits]),
      .count_o       (credit_avail_o[v*CreditBits +: CreditBits]),
      .nonzero_o     (credit_nonzero[v])
    );
  end

  prim_rr_arbiter #(.N(NumVcs)) u_vc_arbiter (
    .clk_i,
    .rst_ni,
    .req_i    (vc_req),
    .gnt_o    (vc_gnt),
    .advance_i(send_new)
  );

  // The granted VC's slot, chosen by a constant select per VC rather than one at a variable
  // offset, which a simulator would shift bit by bit across the whole slot.
  logic [SlotBits-1:0] gnt_slot;
  always_comb begin
    gnt_vc = '0;
    gnt_slot = tx_slot_i[SlotBits-1:0];
    for (int v = 0; v < NumVcs; v++) begin
      if (vc_gnt[v]) begin
        gnt_vc = lc_pkg::VC_BITS'(v);
        gnt_slot = tx_slot_i[v*SlotBits +: SlotBits];
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Flit choice (DLL-4.8): control message, selective resend, go-back replay, new payload, NOP.
  // No flit is chosen in the link-reset cycle: its DLP would carry the receiver's FREED counts
  // of before the reset, which the partner, already reset, would take as new credits.
  assign load = (l0_i || idle_i || training_i) && (!out_valid_q || phy_ready_i) && !link_reset_i;
  assign resend_seq = ackd_seq_q + SeqOne;
  assign resend_pending = resend_q && outstanding != '0;
  assign replay_pending = replaying_q && (replay_ptr_q != next_tx_seq_q);
  assign vc_req = (l0_i && !ctrl_valid_i && !replay_pending && !resend_pending && room) ?
                  (tx_valid_i & credit_nonzero) : '0;
  assign send_control = load && l0_i && ctrl_valid_i;
  assign send_resend = load && l0_i && !ctrl_valid_i && resend_pending;
  assign send_replay = load && l0_i && !ctrl_valid_i && !resend_pending && replay_pending;
  assign send_new = load && l0_i && !ctrl_valid_i && !resend_pending && !replay_pending &&
                    (vc_gnt != '0);
  assign send_nop = load && l0_i && !send_control && !send_resend && !send_replay && !send_new;
  assign send_idle = load && !l0_i && idle_i;
  assign send_training = load && !l0_i && !idle_i && training_i;
  assign resends = send_resend || send_replay;
  assign send_any = resends || send_new || send_nop || send_control || send_idle || send_training;
  assign read_seq = resend_pending ? resend_seq : replay_ptr_q;
  assign tx_ready_o = send_new ? vc_gnt : '0;
  assign ctrl_ready_o = send_control;
  assign consume = tx_ready_o;

  lc_replay_buffer #(.Flits(ReplayFlits), .Width(EntryBits)) u_replay_buffer (
    .clk_i,
    .rst_ni,
    .wr_en_i  (send_new),
    .wr_idx_i (next_tx_seq_q[ReplayIdxBits-1:0]),
    .wr_data_i({gnt_vc, gnt_slot}),
    .rd_idx_i (read_seq[ReplayIdxBits-1:0]),
    .rd_data_o(replay_entry)
  );

  // The DLP is built afresh for every transmission (DLL-1.6).
  logic [lc_pkg::DLP_BITS-1:0] dlp;
  logic [2:0] flit_type, payload_vc, credit_vc;
  logic [SeqBits-1:0] flit_seq;
  logic [1:0] cmd;
  logic [lc_pkg::CRC_BITS-1:0] crc;

  always_comb begin
    cmd = ack_cmd_i;
    if (send_idle) begin
      cmd = lc_pkg::CMD_ACK;  // DLL-3.10
    end else if (drop_ack_armed_q && ack_cmd_i == lc_pkg::CMD_ACK) begin
      cmd = lc_pkg::CMD_NONE;  // DLL-8.8 DROP_ACK
    end
    flit_type = lc_pkg::FLIT_NOP;
    payload_vc = 3'd0;
    flit_seq = next_tx_seq_q - SeqOne;  // Watermark (DLL-2.4).
    credit_vc = {1'b0, credit_rr_q};
    if (resends) begin
      flit_type = lc_pkg::FLIT_PAYLOAD;
      payload_vc = {1'b0, replay_entry[SlotBits +: lc_pkg::VC_BITS]};
      flit_seq = read_seq;
    end else if (send_new) begin
      flit_type = lc_pkg::FLIT_PAYLOAD;
      payload_vc = {1'b0, gnt_vc};
      // DLL-8.8 SEQ_ERR: only the wire copy carries the wrong number.
      flit_seq = next_tx_seq_q ^ (seq_armed_q ? 10'h200 : 10'h000);
    end else if (send_control) begin
      // A NOP's link fields, but inside a go-back replay the watermark of what the replay has
      // resent so far (DLL-11.2).
      flit_type = lc_pkg::FLIT_CONTROL;
      if (replay_pending) flit_seq = replay_ptr_q - SeqOne;
    end else if (send_idle) begin
      flit_type = lc_pkg::FLIT_IDLE;
      flit_seq = '0;
    end
    dlp = lc_pkg::dlp_pack(flit_type, payload_vc, flit_seq, cmd,
                           (cmd == lc_pkg::CMD_NONE) ? '0 : ack_seq_i, credit_vc,
                           freed_i[credit_rr_q*CreditBits +: CreditBits]);
    if (send_training) begin
      // Every link field of a TRAINING flit is zero (DLL-1.5).
      dlp = lc_pkg::dlp_pack(lc_pkg::FLIT_TRAINING, 3'd0, '0, lc_pkg::CMD_NONE, '0, 3'd0, '0);
    end
  end

  // The flit CRC of the registered slot and DLP (PHY-2.3), inverted when ERR_INJECT.CRC_ERR was
  // armed as the flit was chosen (DLL-8.8). Until the first flit the content reads all zero.
  prim_crc64 #(.Bytes(SlotBytes + lc_pkg::DLP_BYTES)) u_crc (
    .data_i(out_body_q),
    .crc_o (crc)
  );

  // ---------------------------------------------------------------------------------------------
  // Sequence, replay and timer state (DLL-4.2 to DLL-4.7).
  assign flit_time = phy_valid_o && phy_ready_i && l0_i;
  assign sends_payload = resends || send_new;
  assign cmd_in = rx_cmd_valid_i && (rx_cmd_i != lc_pkg::CMD_NONE) && l0_i;
  assign ack_dist = rx_ack_seq_i - ackd_seq_q;
  assign ack_ok = cmd_in && (ack_dist <= outstanding);
  assign progress = ack_ok && (ack_dist != '0);
  assign std_nak_in = ack_ok && rx_cmd_i == lc_pkg::CMD_STD_NAK;
  assign sel_nak_in = ack_ok && rx_cmd_i == lc_pkg::CMD_SEL_NAK;
  assign timeout = timer_running_q && (timer_q >= replay_timeout_i) && l0_i;
  assign next_tx_seq_d = link_reset_i ? '0 : (send_new ? next_tx_seq_q + SeqOne : next_tx_seq_q);
  assign ackd_seq_d = link_reset_i ? '1 : (ack_ok ? rx_ack_seq_i : ackd_seq_q);
  assign remaining = next_tx_seq_d - ackd_seq_d - SeqOne;
  assign replay_num_base = progress ? 4'd0 : replay_num_q;
  assign trigger = (std_nak_in || sel_nak_in || timeout) && (remaining != '0) && !link_reset_i;
  assign limit_hit = replay_num_base == replay_limit_i;

  always_comb begin
    replay_ptr_d = replay_ptr_q;
    replaying_d = replaying_q;
    resend_d = resend_q && !send_resend;
    replay_num_d = replay_num_q;
    timer_d = timer_q;
    timer_running_d = timer_running_q;
    credit_rr_d = credit_rr_q;
    last_d = last_q;
    replay_start_o = 1'b0;
    escalate_o = 1'b0;

    if (send_replay) replay_ptr_d = replay_ptr_q + SeqOne;
    if (send_any && !send_training) credit_rr_d = credit_rr_q + 1'b1;
    for (int v = 0; v < NumVcs; v++) begin
      if (rx_credit_valid_i && rx_credit_vc_i == lc_pkg::VC_BITS'(v)) begin
        last_d[v*CreditBits +: CreditBits] = rx_credit_count_i;
      end
    end

    if (flit_time && timer_running_q) timer_d = timer_q + 16'd1;
    if (sends_payload && !timer_running_q) begin
      timer_running_d = 1'b1;
      timer_d = '0;
    end

    if (ack_ok) begin
      if (!lc_pkg::seq_is_after(replay_ptr_d, rx_ack_seq_i)) replay_ptr_d = rx_ack_seq_i + SeqOne;
    end
    if (progress) begin
      replay_num_d = '0;
      timer_d = '0;
    end
    if (replay_ptr_d == next_tx_seq_d) replaying_d = 1'b0;

    if (trigger) begin
      replay_start_o = !limit_hit;
      escalate_o = limit_hit;
      replay_num_d = limit_hit ? 4'd0 : replay_num_base + 4'd1;
      timer_d = '0;
      timer_running_d = 1'b0;  // Restarts with the first resent flit (DLL-4.5).
      if (sel_nak_in) begin
        // Only ACKD_SEQ + 1, next; a go-back replay in progress goes on after it (DLL-4.4).
        resend_d = !limit_hit;
        if (limit_hit) replaying_d = 1'b0;
      end else begin
        resend_d = 1'b0;
        replaying_d = !limit_hit;
        replay_ptr_d = ackd_seq_d + SeqOne;
      end
    end

    if (replay_all_i && remaining != '0) begin
      replaying_d = 1'b1;
      replay_ptr_d = ackd_seq_d + SeqOne;
    end

    if (remaining == '0) begin
      timer_running_d = 1'b0;
      timer_d = '0;
    end

    if (link_reset_i) begin
      replaying_d = 1'b0;
      resend_d = 1'b0;
      replay_num_d = '0;
      timer_d = '0;
      timer_running_d = 1'b0;
      credit_rr_d = '0;
      last_d = '0;
    end
  end

  // Error injection arms until the flit it applies to is chosen (DLL-8.8).
  assign drop_ack_now = (send_new || send_nop || send_control || resends) &&
                        ack_cmd_i == lc_pkg::CMD_ACK;
  assign crc_armed_d = (crc_armed_q && !send_any) || inject_crc_i;
  assign seq_armed_d = (seq_armed_q && !send_new) || inject_seq_i;
  assign drop_ack_armed_d = (drop_ack_armed_q && !drop_ack_now) || inject_drop_ack_i;

  always_comb begin
    out_valid_d = out_valid_q;
    out_crc_bad_d = out_crc_bad_q;
    out_loaded_d = out_loaded_q;
    if (phy_ready_i) out_valid_d = 1'b0;
    if (load) begin
      out_valid_d = 1'b1;
      out_crc_bad_d = crc_armed_q;
      out_loaded_d = 1'b1;
    end
  end

  // The chosen flit's slot, from its source, and DLP. A TRAINING flit carries the TS record in
  // its slot's first bytes (DLL-6.3); a NOP's or IDLE's slot is zero.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_body_q <= '0;
    end else if (load) begin
      if (resends) begin
        out_body_q <= {replay_entry[SlotBits-1:0], dlp};
      end else if (send_new) begin
        out_body_q <= {gnt_slot, dlp};
      end else if (send_control) begin
        out_body_q <= {ctrl_slot_i, dlp};
      end else if (send_training) begin
        out_body_q <= {ts_record_i, (SlotBits - lc_pkg::TS_BYTES * 8)'(0), dlp};
      end else begin
        out_body_q <= {SlotBits'(0), dlp};
      end
    end
  end

  assign phy_valid_o = out_valid_q;
  assign phy_flit_o = {out_body_q, out_loaded_q ? (out_crc_bad_q ? ~crc : crc) : '0};
  // IDLE always carries an ACK.
  assign ack_cmd_sent_o = resends || send_new || send_nop || send_control;
  assign flit_chosen_o = send_any;
  assign payload_sent_o = sends_payload;
  assign nak_received_o = cmd_in &&
                          (rx_cmd_i == lc_pkg::CMD_STD_NAK || rx_cmd_i == lc_pkg::CMD_SEL_NAK);
  assign protocol_error_o = cmd_in && !ack_ok;
  assign outstanding_o = outstanding;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      next_tx_seq_q <= '0;
      ackd_seq_q <= '1;
      replay_ptr_q <= '0;
      replaying_q <= 1'b0;
      resend_q <= 1'b0;
      replay_num_q <= '0;
      timer_q <= '0;
      timer_running_q <= 1'b0;
      credit_rr_q <= '0;
      last_q <= '0;
      crc_armed_q <= 1'b0;
      seq_armed_q <= 1'b0;
      drop_ack_armed_q <= 1'b0;
      out_valid_q <= 1'b0;
      out_crc_bad_q <= 1'b0;
      out_loaded_q <= 1'b0;
    end else begin
      next_tx_seq_q <= next_tx_seq_d;
      ackd_seq_q <= ackd_seq_d;
      replay_ptr_q <= replay_ptr_d;
      replaying_q <= replaying_d;
      resend_q <= resend_d;
      replay_num_q <= replay_num_d;
      timer_q <= timer_d;
      timer_running_q <= timer_running_d;
      credit_rr_q <= credit_rr_d;
      last_q <= last_d;
      crc_armed_q <= crc_armed_d;
      seq_armed_q <= seq_armed_d;
      drop_ack_armed_q <= drop_ack_armed_d;
      out_valid_q <= out_valid_d;
      out_crc_bad_q <= out_crc_bad_d;
      out_loaded_q <= out_loaded_d;
    end
  end

  `ASSERT(TxReplayBufferNeverOverflows, outstanding <= SeqBits'(ReplayFlits))
  // A named vector: Icarus 11's $onehot0 of a concatenation is wrong when every bit is 0.
  logic [5:0] choices;
  assign choices = {send_control, send_resend, send_replay, send_new, send_nop, send_idle};
  `ASSERT(TxOneFlitPerChoice, $onehot0(choices))
  `COVER(CovControl, send_control)
  `COVER(CovControlAheadOfReplay, send_control && (replay_pending || resend_pending))
  `COVER(CovSelectiveResend, send_resend)
  `COVER(CovSelectiveResendDuringReplay, send_resend && replay_pending)
  `COVER(CovGoBackReplay, trigger && !sel_nak_in && !limit_hit)
  `COVER(CovReplayTimeout, timeout && remaining != '0)
  `COVER(CovEscalation, escalate_o)
  `COVER(CovStaleAck, protocol_error_o)
  `ASSERT(TxNoPayloadWithoutCredit, !send_new || |(vc_gnt & credit_nonzero))
endmodule
