// SPDX-License-Identifier: Apache-2.0
// Receive path of the link controller: flit checks, sequence, delivery, ACK/NAK, credits (DLL-3).
//
// The PHY delivers one flit content per beat and cannot be stalled; a flit it could not correct
// arrives with phy_bad_i. Flits are registered once, then checked. A flit that arrives ahead of
// a gap waits in the reorder window while a selective NAK asks for the missing one (DLL-3.5);
// once the gap is filled the window drains in order, one flit per cycle, and while it holds
// anything every in-sequence flit goes through it too. Accepted slots wait in one FIFO in
// sequence order, which DLL-3.8 requires; per-VC occupancy is bounded by the VC's INIT.
`include "prim_assert.svh"

module lc_rx #(
  parameter int SlotBytes = lc_pkg::SLOT_BYTES_PCIE6,
  parameter int RxBufferFlits = 256,  // At least the sum of CREDIT_INIT over the VCs.
  parameter int RxReorderFlits = 64,  // RX_REORDER_FLITS: a power of two; 0 disables (DLL-3.5).
  localparam int SlotBits = SlotBytes * 8,
  localparam int ContentBits = SlotBits + lc_pkg::DLP_BITS + lc_pkg::CRC_BITS
) (
  input  logic clk_i,
  input  logic rst_ni,

  // Link state (from the LTSSM).
  input  logic l0_i,
  input  logic idle_i,        // Configuration.Idle or Recovery.Idle.
  // Link up or down: NEXT_RCV_SEQ = 0, FREED = 0 (DLL-2.2, DLL-5.5, DLL-5.9).
  input  logic link_reset_i,
  input  logic flit_time_i,   // One transmit flit time passed (ACK_TIMEOUT).
  input  logic sel_nak_en_i,  // CTRL.SEL_NAK_EN
  input  logic profile_i,     // Profile latched at Polling, for training-set checks.
  input  logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] credit_init_i,  // Own INIT (DLL-5.8).

  // Flit contents from the PHY.
  input  logic phy_valid_i,
  input  logic phy_bad_i,
  input  logic [lc_pkg::LANE_BITS-1:0] phy_lane_i,  // Lane of a TRAINING flit (PHY-4.7).
  input  logic [ContentBits-1:0] phy_flit_i,

  // Accepted payload to the network side, in sequence order.
  output logic rx_valid_o,
  input  logic rx_ready_i,
  output logic [lc_pkg::VC_BITS-1:0] rx_vc_o,
  output logic [SlotBits-1:0] rx_slot_o,
  // A good CONTROL flit's slot in L0 or an Idle substate (DLL-11.3), for one cycle; the network
  // side checks its form.
  output logic ctrl_valid_o,
  output logic [SlotBits-1:0] ctrl_slot_o,

  // Link information the partner sent, for the local transmitter (lc_tx).
  output logic rx_cmd_valid_o,
  output logic [1:0] rx_cmd_o,
  output logic [lc_pkg::SEQ_BITS-1:0] rx_ack_seq_o,
  output logic rx_credit_valid_o,
  output logic [lc_pkg::VC_BITS-1:0] rx_credit_vc_o,
  output logic [lc_pkg::CREDIT_BITS-1:0] rx_credit_count_o,

  // Link information for the partner, carried by the local transmitter.
  output logic [1:0] ack_cmd_o,
  output logic [lc_pkg::SEQ_BITS-1:0] ack_seq_o,
  input  logic ack_cmd_sent_i,
  output logic [lc_pkg::NUM_VCS*lc_pkg::CREDIT_BITS-1:0] freed_o,

  // Events for counters and the LTSSM (one-cycle pulses).
  output logic flit_seen_o,  // A flit was checked this cycle, good or bad.
  output logic [lc_pkg::LANE_BITS-1:0] flit_lane_o,  // The lane it came on.
  output logic good_flit_o,
  output logic [lc_pkg::TS_BYTES*8-1:0] good_record_o,  // Slot head: a training-set record.
  output logic [2:0] good_type_o,
  output logic bad_flit_o,       // CRC_ERRORS (in L0 and the Idle substates).
  output logic bad_limit_o,      // RX_BAD_FLIT_LIMIT consecutive bad flits in L0 (DLL-3.2).
  output logic payload_rx_o,     // RX_FLITS: a good PAYLOAD flit, duplicates included.
  output logic nak_sent_o,       // NAKS_SENT: standard or selective.
  output logic overflow_o        // A flit for a full VC buffer was discarded (DLL-5.8).
);
  localparam int NumVcs = lc_pkg::NUM_VCS;
  localparam int SeqBits = lc_pkg::SEQ_BITS;
  localparam int CreditBits = lc_pkg::CREDIT_BITS;
  localparam int EntryBits = lc_pkg::VC_BITS + SlotBits;
  localparam int CountBits = $clog2(lc_pkg::ACK_COALESCE_FLITS + 1);
  localparam int AckTimerBits = $clog2(lc_pkg::ACK_TIMEOUT_FLITS + 1);
  localparam int BadBits = $clog2(lc_pkg::RX_BAD_FLIT_LIMIT + 1);
  localparam logic [SeqBits-1:0] SeqOne = 1;

  // ---------------------------------------------------------------------------------------------
  // State.
  logic in_valid_q, in_bad_q;
  logic [lc_pkg::LANE_BITS-1:0] in_lane_q;
  logic [ContentBits-1:0] in_flit_q;
  logic [SeqBits-1:0] next_rcv_q, next_rcv_d;  // NEXT_RCV_SEQ
  logic nak_scheduled_q, nak_scheduled_d;      // NakScheduled state (DLL-3.7).
  logic nak_pending_q, nak_pending_d;          // A standard NAK waits for a flit to carry it.
  logic sel_pending_q, sel_pending_d;          // A selective NAK waits for a flit to carry it.
  logic sel_done_q, sel_done_d;                // ...and was scheduled for NEXT_RCV_SEQ = sel_for.
  logic [SeqBits-1:0] sel_for_q, sel_for_d;
  logic dup_q, dup_d;                          // A duplicate asks for a re-ACK (DLL-3.4).
  logic [CountBits-1:0] accepted_q, accepted_d;  // Accepted since the last ACK/NAK sent.
  logic [AckTimerBits-1:0] ack_timer_q, ack_timer_d;
  logic [BadBits-1:0] bad_run_q, bad_run_d;
  logic [NumVcs*CreditBits-1:0] freed_q, freed_d, occupancy_q, occupancy_d;
  // Slots accepted before the last link reset and still buffered: their delivery frees buffer
  // space but returns no credit, since the partner's credit state started afresh (DLL-5.9).
  logic [NumVcs*CreditBits-1:0] stale_q, stale_d;

  // ---------------------------------------------------------------------------------------------
  // Checks in the order of PHY-2.7: FEC (phy_bad_i), CRC, DLP, slot.
  logic [SlotBits-1:0] slot;
  logic [lc_pkg::DLP_BITS-1:0] dlp;
  logic [2:0] flit_type;
  logic [SeqBits-1:0] flit_seq;
  logic [lc_pkg::CRC_BITS-1:0] crc_rx, crc_calc;
  logic slot_zero, slot_ok, ts_ok, good, bad, active;

  assign {slot, dlp, crc_rx} = in_flit_q;
  assign flit_type = dlp[lc_pkg::DLP_TYPE_LSB +: 3];
  assign flit_seq = dlp[lc_pkg::DLP_SEQ_LSB +: SeqBits];

  prim_crc64 #(.Bytes(SlotBytes + lc_pkg::DLP_BYTES)) u_crc (
    .data_i({slot, dlp}),
    .crc_o (crc_calc)
  );

  lc_ts_check u_ts_check (
    .record_i   (slot[SlotBits-1 -: lc_pkg::TS_BYTES*8]),
    .tail_zero_i(slot[SlotBits-lc_pkg::TS_BYTES*8-1:0] == '0),
    .profile_i,
    .valid_o    (ts_ok)
  );

  assign slot_zero = slot == '0;
  // PHY-2.6: only PAYLOAD, TRAINING and CONTROL flits carry a slot; a TRAINING flit's slot is a
  // valid training-set record (DLL-6.3).
  assign slot_ok = (flit_type == lc_pkg::FLIT_TRAINING) ? ts_ok :
                   (slot_zero || flit_type == lc_pkg::FLIT_PAYLOAD ||
                    flit_type == lc_pkg::FLIT_CONTROL);
  assign active = l0_i || idle_i;
  assign good = in_valid_q && !in_bad_q && crc_calc == crc_rx && lc_pkg::dlp_valid(dlp) && slot_ok;
  assign bad = in_valid_q && !good;

  // ---------------------------------------------------------------------------------------------
  // Sequence check (DLL-3.3 to DLL-3.7).
  logic is_payload, is_nop, link_flit, expected, duplicate, ahead, watermark_ahead, lost, accept;
  logic vc_room, buffer_room, fifo_in_ready, fifo_out_valid, deliver;
  logic accept_direct, drain, hold, already_held, in_window, holding, beyond;
  logic [lc_pkg::VC_BITS-1:0] accept_vc;
  logic [EntryBits-1:0] accept_entry;
  // Accepted slots and the partner's link fields leave through flops: this keeps the wide
  // received flit out of every assertion downstream (Verilator 5.006 miscompiles $sampled of
  // wide signals) and costs one cycle of latency.
  logic push_q;
  logic [EntryBits-1:0] push_entry_q;
  logic cmd_valid_q, credit_valid_q, ctrl_valid_q;
  logic [SlotBits-1:0] ctrl_slot_q;
  logic [1:0] cmd_q;
  logic [SeqBits-1:0] ack_seq_q;
  logic [lc_pkg::VC_BITS-1:0] credit_vc_q;
  logic [CreditBits-1:0] credit_count_q;
  logic [lc_pkg::VC_BITS-1:0] vc;
  logic [EntryBits-1:0] fifo_out;
  logic [SeqBits-1:0] last_in_order;
  logic [$clog2(RxBufferFlits+1)-1:0] fifo_count;
  logic [CreditBits+1:0] occupancy_sum;

  assign vc = dlp[lc_pkg::DLP_PVC_LSB +: lc_pkg::VC_BITS];
  assign last_in_order = next_rcv_q - SeqOne;
  assign is_payload = good && active && flit_type == lc_pkg::FLIT_PAYLOAD;
  // A CONTROL flit's link fields are a NOP's, its watermark included (DLL-11.2).
  assign is_nop = good && active &&
                  (flit_type == lc_pkg::FLIT_NOP || flit_type == lc_pkg::FLIT_CONTROL);
  assign link_flit = good && active && flit_type != lc_pkg::FLIT_TRAINING;

  // Reorder window (DLL-3.5): slots held by sequence number, modulo its size.
  localparam bit Reorder = RxReorderFlits > 0;
  localparam int WindowFlits = Reorder ? RxReorderFlits : 1;
  localparam int WindowIdxBits = Reorder ? $clog2(RxReorderFlits) : 1;
  logic [WindowFlits-1:0] held_q, held_d;
  logic [SeqBits-1:0] newest_q, newest_d;  // The newest held number.
  logic [EntryBits-1:0] window_entry;
  logic [lc_pkg::VC_BITS-1:0] window_vc;
  logic [WindowIdxBits-1:0] flit_idx, next_idx;
  logic [SeqBits-1:0] distance;
  assign flit_idx = WindowIdxBits'(flit_seq);
  assign next_idx = WindowIdxBits'(next_rcv_q);
  assign distance = flit_seq - next_rcv_q;
  assign in_window = Reorder && distance < SeqBits'(WindowFlits);
  assign holding = held_q != '0;
  assign already_held = in_window && held_q[flit_idx];

  assign expected = is_payload && flit_seq == next_rcv_q && !already_held;
  assign duplicate = is_payload && (!lc_pkg::seq_is_after(flit_seq, last_in_order) || already_held);
  assign ahead = is_payload && !expected && !duplicate;
  // Held: a flit after a gap while selective NAK is on, or any flit in the window while the
  // window drains, so that sequence order is kept.
  assign hold = is_payload && !duplicate && !nak_scheduled_q && in_window &&
                ((ahead && sel_nak_en_i) || (expected && holding));
  assign beyond = ahead && !hold;
  logic after_newest, after_last;
  assign after_newest = lc_pkg::seq_is_after(flit_seq, newest_q);
  assign after_last = lc_pkg::seq_is_after(flit_seq, last_in_order);
  assign watermark_ahead = is_nop && (holding ? after_newest : after_last);
  assign lost = (beyond || watermark_ahead) && !nak_scheduled_q;
  // A VC has room while its slots of this link stay below its INIT. A partner within its credits
  // always finds room: RxBufferFlits is at least the sum of the INITs, and stale slots only
  // occupy the buffer until the network side drains them.
  logic [NumVcs-1:0] room_per_vc;
  for (genvar v = 0; v < NumVcs; v++) begin : gen_room
    assign room_per_vc[v] = occupancy_q[v*CreditBits +: CreditBits] -
                            stale_q[v*CreditBits +: CreditBits] <
                            credit_init_i[v*CreditBits +: CreditBits];
  end
  assign vc_room = room_per_vc[vc];
  assign buffer_room = occupancy_sum < (CreditBits+2)'(RxBufferFlits);
  assign accept_direct = expected && !holding && vc_room && buffer_room && !link_reset_i;

  // The window drains into the receive buffer when its oldest flit is next, as the VC has room.
  logic window_room;
  assign window_vc = window_entry[SlotBits +: lc_pkg::VC_BITS];
  assign window_room = room_per_vc[window_vc];
  assign drain = holding && held_q[next_idx] && window_room && buffer_room && !link_reset_i;
  assign accept = accept_direct || drain;
  assign accept_vc = drain ? window_vc : vc;
  assign accept_entry = drain ? window_entry : {vc, slot};

  if (Reorder) begin : gen_window
    lc_replay_buffer #(.Flits(RxReorderFlits), .Width(EntryBits)) u_window (
      .clk_i,
      .rst_ni,
      .wr_en_i  (hold),
      .wr_idx_i (flit_idx),
      .wr_data_i({vc, slot}),
      .rd_idx_i (next_idx),
      .rd_data_o(window_entry)
    );
  end else begin : gen_no_window
    assign window_entry = '0;
  end

  prim_fifo #(.Width(EntryBits), .Depth(RxBufferFlits)) u_rx_buffer (
    .clk_i,
    .rst_ni,
    .in_valid_i (push_q),
    .in_ready_o (fifo_in_ready),
    .in_data_i  (push_entry_q),
    .out_valid_o(fifo_out_valid),
    .out_ready_i(rx_ready_i),
    .out_data_o (fifo_out),
    .count_o    (fifo_count)
  );

  assign rx_valid_o = fifo_out_valid;
  assign {rx_vc_o, rx_slot_o} = fifo_out;
  assign deliver = fifo_out_valid && rx_ready_i;

  // ---------------------------------------------------------------------------------------------
  // ACK/NAK scheduling (DLL-3.9) and next state.
  logic ack_due, sent;

  assign ack_due = accepted_q >= CountBits'(lc_pkg::ACK_COALESCE_FLITS) ||
                   ack_timer_q >= AckTimerBits'(lc_pkg::ACK_TIMEOUT_FLITS) || dup_q;
  assign ack_cmd_o = nak_pending_q ? lc_pkg::CMD_STD_NAK :
                     sel_pending_q ? lc_pkg::CMD_SEL_NAK :
                     (ack_due ? lc_pkg::CMD_ACK : lc_pkg::CMD_NONE);
  assign ack_seq_o = last_in_order;
  assign sent = ack_cmd_sent_i && ack_cmd_o != lc_pkg::CMD_NONE;

  always_comb begin
    next_rcv_d = next_rcv_q;
    nak_scheduled_d = nak_scheduled_q;
    nak_pending_d = nak_pending_q;
    sel_pending_d = sel_pending_q;
    sel_done_d = sel_done_q;
    sel_for_d = sel_for_q;
    held_d = held_q;
    newest_d = newest_q;
    dup_d = dup_q;
    accepted_d = accepted_q;
    ack_timer_d = ack_timer_q;
    bad_run_d = bad_run_q;
    freed_d = freed_q;
    occupancy_d = occupancy_q;
    stale_d = stale_q;
    bad_limit_o = 1'b0;

    // A sent command covers everything accepted before this cycle.
    if (sent) begin
      if (nak_pending_q) nak_pending_d = 1'b0;
      else sel_pending_d = 1'b0;
      dup_d = 1'b0;
      accepted_d = '0;
      ack_timer_d = '0;
    end else if (accepted_q != '0 && flit_time_i &&
                 ack_timer_q < AckTimerBits'(lc_pkg::ACK_TIMEOUT_FLITS)) begin
      ack_timer_d = ack_timer_q + 1'b1;
    end

    if (accept) begin
      next_rcv_d = next_rcv_q + SeqOne;
      nak_scheduled_d = 1'b0;
      if (accepted_d < CountBits'(lc_pkg::ACK_COALESCE_FLITS)) accepted_d = accepted_d + 1'b1;
    end
    if (duplicate) dup_d = 1'b1;
    if (hold) begin
      held_d[flit_idx] = 1'b1;
      if (!holding || lc_pkg::seq_is_after(flit_seq, newest_q)) newest_d = flit_seq;
    end
    if (drain) held_d[next_idx] = 1'b0;
    // A gap at NEXT_RCV_SEQ with flits held after it: one selective NAK per value (DLL-3.3).
    if (holding && !held_q[next_idx] && !nak_scheduled_q &&
        !(sel_done_q && sel_for_q == next_rcv_q)) begin
      sel_pending_d = 1'b1;
      sel_done_d = 1'b1;
      sel_for_d = next_rcv_q;
    end
    if (lost) begin
      nak_pending_d = 1'b1;
      nak_scheduled_d = 1'b1;
      sel_pending_d = 1'b0;
      held_d = '0;  // The go-back replay brings the held flits again (DLL-3.5).
    end

    for (int v = 0; v < NumVcs; v++) begin
      if (accept && accept_vc == lc_pkg::VC_BITS'(v)) begin
        occupancy_d[v*CreditBits +: CreditBits] = occupancy_d[v*CreditBits +: CreditBits] + 1'b1;
      end
      if (deliver && rx_vc_o == lc_pkg::VC_BITS'(v)) begin
        if (stale_q[v*CreditBits +: CreditBits] != '0) begin
          stale_d[v*CreditBits +: CreditBits] = stale_q[v*CreditBits +: CreditBits] - 1'b1;
        end else begin
          freed_d[v*CreditBits +: CreditBits] = freed_d[v*CreditBits +: CreditBits] + 1'b1;
        end
        occupancy_d[v*CreditBits +: CreditBits] = occupancy_d[v*CreditBits +: CreditBits] - 1'b1;
      end
    end

    if (good) bad_run_d = '0;
    if (bad && l0_i) begin
      if (bad_run_q == BadBits'(lc_pkg::RX_BAD_FLIT_LIMIT - 1)) begin
        bad_run_d = '0;
        bad_limit_o = 1'b1;
      end else begin
        bad_run_d = bad_run_q + 1'b1;
      end
    end

    if (link_reset_i) begin
      next_rcv_d = '0;
      nak_scheduled_d = 1'b0;
      nak_pending_d = 1'b0;
      sel_pending_d = 1'b0;
      sel_done_d = 1'b0;
      held_d = '0;  // DLL-4.10: the reorder window is emptied.
      dup_d = 1'b0;
      accepted_d = '0;
      ack_timer_d = '0;
      freed_d = '0;
      stale_d = occupancy_d;
    end
  end

  assign ctrl_valid_o = ctrl_valid_q;
  assign ctrl_slot_o = ctrl_slot_q;
  assign rx_cmd_valid_o = cmd_valid_q;
  assign rx_cmd_o = cmd_q;
  assign rx_ack_seq_o = ack_seq_q;
  assign rx_credit_valid_o = credit_valid_q;
  assign rx_credit_vc_o = credit_vc_q;
  assign rx_credit_count_o = credit_count_q;
  assign freed_o = freed_q;
  assign flit_seen_o = in_valid_q;
  assign flit_lane_o = in_lane_q;
  assign good_flit_o = good;
  assign good_record_o = slot[SlotBits-1 -: lc_pkg::TS_BYTES*8];
  assign good_type_o = flit_type;
  assign bad_flit_o = bad && active;
  assign payload_rx_o = is_payload;
  assign nak_sent_o = ack_cmd_sent_i && (nak_pending_q || sel_pending_q);
  assign overflow_o = expected && !holding && !(vc_room && buffer_room) && !link_reset_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_valid_q <= 1'b0;
      in_bad_q <= 1'b0;
      in_lane_q <= '0;
      in_flit_q <= '0;
      next_rcv_q <= '0;
      nak_scheduled_q <= 1'b0;
      nak_pending_q <= 1'b0;
      sel_pending_q <= 1'b0;
      sel_done_q <= 1'b0;
      sel_for_q <= '0;
      held_q <= '0;
      newest_q <= '0;
      dup_q <= 1'b0;
      accepted_q <= '0;
      ack_timer_q <= '0;
      bad_run_q <= '0;
      freed_q <= '0;
      occupancy_q <= '0;
      stale_q <= '0;
      push_q <= 1'b0;
      push_entry_q <= '0;
      cmd_valid_q <= 1'b0;
      cmd_q <= lc_pkg::CMD_NONE;
      ack_seq_q <= '0;
      credit_valid_q <= 1'b0;
      credit_vc_q <= '0;
      credit_count_q <= '0;
      ctrl_valid_q <= 1'b0;
      ctrl_slot_q <= '0;
    end else begin
      ctrl_valid_q <= good && active && flit_type == lc_pkg::FLIT_CONTROL;
      if (good && active && flit_type == lc_pkg::FLIT_CONTROL) ctrl_slot_q <= slot;
      push_q <= accept;
      push_entry_q <= accept_entry;
      cmd_valid_q <= link_flit && dlp[lc_pkg::DLP_CMD_LSB +: 2] != lc_pkg::CMD_NONE;
      cmd_q <= dlp[lc_pkg::DLP_CMD_LSB +: 2];
      ack_seq_q <= dlp[lc_pkg::DLP_ACK_LSB +: SeqBits];
      credit_valid_q <= link_flit;
      credit_vc_q <= dlp[lc_pkg::DLP_CVC_LSB +: lc_pkg::VC_BITS];
      credit_count_q <= dlp[lc_pkg::DLP_COUNT_LSB +: CreditBits];
      in_valid_q <= phy_valid_i;
      in_bad_q <= phy_bad_i;
      in_lane_q <= phy_lane_i;
      in_flit_q <= phy_flit_i;
      next_rcv_q <= next_rcv_d;
      nak_scheduled_q <= nak_scheduled_d;
      nak_pending_q <= nak_pending_d;
      sel_pending_q <= sel_pending_d;
      sel_done_q <= sel_done_d;
      sel_for_q <= sel_for_d;
      held_q <= held_d;
      newest_q <= newest_d;
      dup_q <= dup_d;
      accepted_q <= accepted_d;
      ack_timer_q <= ack_timer_d;
      bad_run_q <= bad_run_d;
      freed_q <= freed_d;
      occupancy_q <= occupancy_d;
      stale_q <= stale_d;
    end
  end

  always_comb begin
    occupancy_sum = '0;
    for (int v = 0; v < NumVcs; v++) begin
      occupancy_sum = occupancy_sum + (CreditBits+2)'(occupancy_q[v*CreditBits +: CreditBits]);
    end
  end

  // Assertions use only narrow signals: Verilator 5.006 miscompiles $sampled of wide ones.
  `ASSERT(RxOccupancyMatchesBuffer, occupancy_sum == (CreditBits+2)'(fifo_count) +
                                    (CreditBits+2)'(push_q))
  `ASSERT(RxBufferNeverOverflows, !push_q || fifo_in_ready)
  `ASSERT(RxNothingHeldWhileNakScheduled, !(nak_scheduled_q && holding))
  `COVER(CovHold, hold && ahead)
  `COVER(CovHoldWhileDraining, hold && expected)
  `COVER(CovDrain, drain)
  `COVER(CovSelectiveNakScheduled, !sel_pending_q && sel_pending_d)
  `COVER(CovStandardNakBeyondWindow, lost && beyond && in_window == 1'b0)
  `COVER(CovStandardNakWatermark, lost && watermark_ahead)
  `COVER(CovDuplicateHeld, is_payload && already_held)
  `COVER(CovVcOverfill, overflow_o)
  `COVER(CovControlReceived, ctrl_valid_q)
  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc_assert
    `ASSERT(RxVcWithinInit, occupancy_q[v*CreditBits +: CreditBits] -
                            stale_q[v*CreditBits +: CreditBits] <=
                            credit_init_i[v*CreditBits +: CreditBits])
    `ASSERT(RxStaleWithinOccupancy, stale_q[v*CreditBits +: CreditBits] <=
                                    occupancy_q[v*CreditBits +: CreditBits])
  end
endmodule
