// SPDX-License-Identifier: Apache-2.0
// Self-checking back-to-back smoke test of two lc_top link controllers joined by a lossy channel.
//
// Runs unchanged under Icarus Verilog (iverilog -g2012) and Verilator (--binary --timing), so
// that what the controller does is not an artefact of one simulator; scripts/rtl-smoke builds and
// runs it. Each side sends SlotsPerVc numbered slots on every VC. The channel delays every flit
// by LatencyCycles and stalls the transmitters from the start; once both links are up it also
// drops flits, flips one wire bit (CRC mismatch), marks flits FEC-uncorrectable or
// FEC-corrected. The scoreboard requires every slot to arrive once, in order on its VC, intact.
// At the end the counters read through the register port must match what the channel did
// (DLL-8.6), and every credit must be back (DLL-5.7). Each side also sends ControlsPerSide link
// control messages (DLL-11) through the same channel: those that arrive must be intact, from the
// partner, in order and never twice, since a CONTROL flit is never replayed (DLL-11.1). Random choices are a hash of the cycle
// number rather than a simulator's generator, so both simulators run the same cycles.
module lc_b2b_smoke_tb #(
  parameter int SlotBytes = 16,        // A small slot: the flit CRCs dominate simulation time.
  parameter int ReplayFlits = 16,
  parameter int RxBufferFlits = 32,    // Split evenly into CREDIT_INIT per VC.
  parameter int MsCycles = 100,        // LTSSM cycles per ms, as in lc_top_test (DLL-6.2).
  parameter int SlotsPerVc = 100,
  parameter int ControlsPerSide = 20,
  parameter int ControlOneIn = 32,     // Chance per cycle that a side offers its next control.
  parameter int LatencyCycles = 8,     // One-way channel delay.
  // Channel events, each with a chance of 1 in N per flit carried while errors are on (0: never).
  parameter int DropOneIn = 128,
  parameter int BadOneIn = 128,        // FEC uncorrectable (phy_rx_bad_i).
  parameter int CorruptOneIn = 64,     // One wire bit flipped: the flit CRC fails.
  parameter int FecCorrectedOneIn = 32,
  // Back-pressure, each with a chance of 1 in N per cycle (0: never).
  parameter int PhyStallOneIn = 16,    // The PHY refuses a flit (phy_tx_ready_i low).
  parameter int DrainStallOneIn = 8,   // The network side refuses a slot (rx_ready_i low).
  parameter int SourcePauseOneIn = 4,  // A VC source has no new slot ready.
  parameter int MaxCycles = 20000,     // About 6 times what the defaults take.
  parameter int ProgressCycles = 3000, // Longest wait for the next delivered slot.
  parameter int Seed = 1
);
  localparam int NumSides = 2;
  localparam int NumVcs = lc_pkg::NUM_VCS;
  localparam int VcBits = lc_pkg::VC_BITS;
  localparam int SlotBits = SlotBytes * 8;
  localparam int ContentBits = SlotBits + lc_pkg::DLP_BITS + lc_pkg::CRC_BITS;
  localparam int AddrBits = lc_reg_pkg::LC_ADDR_WIDTH;
  localparam int CreditsPerVc = RxBufferFlits / NumVcs;
  localparam int SlotsPerSide = SlotsPerVc * NumVcs;
  localparam int ResetCycles = 4;
  localparam int HalfPeriod = 5;  // Time units; a register access samples 1 unit after driving.
  // Longer than one replay timeout: a flit left unacknowledged would be replayed, and caught as a
  // duplicate, before the end.
  localparam int DrainCycles = 2 * lc_reg_pkg::LC_REPLAY_TIMEOUT_RESET;
  localparam int HeadBits = 48;  // Slot bytes 0-5: sending side, VC, slot number.
  localparam int NumLanes = lc_pkg::MAX_LANES;  // pcie6 x16, the CTRL.PROFILE reset value.
  localparam logic [31:0] CtrlRun = lc_reg_pkg::LC_CTRL_RESET;
  localparam logic [31:0] CtrlHeld = CtrlRun & ~lc_reg_pkg::LC_CTRL_ENABLE_MASK;
  localparam logic [2:0] LtssmL0 = 3'd3;  // lc_reg_pkg::LtssmL0
  localparam logic [4:0] WidthX16 = 5'd16;  // lc_reg_pkg::WidthX16

  // Streams of random choices, one per purpose.
  localparam int StreamSource = 0;
  localparam int StreamDrain = 1;
  localparam int StreamStall = 2;
  localparam int StreamDrop = 3;
  localparam int StreamBad = 4;
  localparam int StreamCorrupt = 5;
  localparam int StreamBitPos = 6;
  localparam int StreamFec = 7;
  localparam int StreamControl = 8;
  localparam logic [7:0] ControlTag = 8'hC0;  // In the VC field of a control slot's head.

  initial begin
    if (SlotBytes < HeadBits / 8 || RxBufferFlits < NumVcs || LatencyCycles < 1) begin
      $fatal(1, "lc_b2b_smoke: SlotBytes >= 6, RxBufferFlits >= 4 and LatencyCycles >= 1 needed");
    end
  end

  // -------------------------------------------------------------------------------------------
  // Random choices and the slot pattern.

  // lowbias32 (Wellons): a cheap 32-bit integer hash with good avalanche.
  function automatic logic [31:0] mix32(input logic [31:0] value);
    logic [31:0] x;
    x = value;
    x = x ^ (x >> 16);
    x = x * 32'h7feb352d;
    x = x ^ (x >> 15);
    x = x * 32'h846ca68b;
    x = x ^ (x >> 16);
    mix32 = x;
  endfunction

  // A random word for one cycle, purpose and index (side or VC): the same in every simulator.
  function automatic logic [31:0] draw(input logic [31:0] cycle, input int stream,
                                       input int index);
    draw = mix32(mix32(mix32(cycle ^ Seed) ^ stream) ^ index);
  endfunction

  function automatic logic one_in(input logic [31:0] word, input int n);
    one_in = n > 0 && word % n == 0;
  endfunction

  // Slot `number` of `vc` sent by `side`: a readable head, then bytes derived from the head, so
  // that a corrupted, misrouted, lost or duplicated slot never matches the expected one.
  function automatic logic [SlotBits-1:0] slot_pattern(input logic [7:0] side,
                                                        input logic [7:0] vc,
                                                        input logic [31:0] number);
    logic [SlotBits-1:0] slot;
    logic [31:0] word;
    word = {side[3:0], vc[3:0], number[23:0]};
    for (int b = 0; b < SlotBytes; b++) begin
      if (b % 4 == 0) word = mix32(word + b);
      slot[(SlotBytes - 1 - b) * 8 +: 8] = word[(b % 4) * 8 +: 8];
    end
    slot[SlotBits-1 -: HeadBits] = {side, vc, number};
    slot_pattern = slot;
  endfunction

  // -------------------------------------------------------------------------------------------
  // Signals, side s at [s*W +: W]; the channel into side r carries what side 1 - r sends.

  logic clk = 1'b0;
  logic rst_n;
  logic [31:0] cycle_q;

  logic [NumSides-1:0] reg_req, reg_we;
  logic [NumSides*AddrBits-1:0] reg_addr;
  logic [NumSides*32-1:0] reg_wdata;
  wire [NumSides*32-1:0] reg_rdata;
  wire [NumSides-1:0] reg_ready, reg_error, irq;

  logic [NumSides*NumVcs-1:0] tx_valid;
  wire [NumSides*NumVcs-1:0] tx_ready;
  logic [NumSides*NumVcs*SlotBits-1:0] tx_slot;
  wire [NumSides-1:0] rx_valid;
  logic [NumSides-1:0] rx_ready;
  wire [NumSides*VcBits-1:0] rx_vc;
  wire [NumSides*SlotBits-1:0] rx_slot;
  wire [NumSides-1:0] link_up;
  logic [NumSides-1:0] ctrl_tx_valid;
  wire [NumSides-1:0] ctrl_tx_ready, ctrl_rx_valid;
  logic [NumSides*SlotBits-1:0] ctrl_tx_slot;
  wire [NumSides*SlotBits-1:0] ctrl_rx_slot;

  wire [NumSides-1:0] phy_tx_valid;
  logic [NumSides-1:0] phy_tx_ready;
  wire [NumSides*ContentBits-1:0] phy_tx_flit;
  wire [NumSides*8-1:0] phy_tx_corrupt_bytes;
  wire [NumSides-1:0] phy_rx_valid, phy_rx_bad, phy_rx_fec_corrected;
  wire [NumSides*ContentBits-1:0] phy_rx_flit;

  logic errors_on;  // Channel errors, once both links are up and until all slots arrived.

  // The initial block below drives inputs at falling edges and reads outputs one time unit
  // later, so that no read or write of it races with a rising edge in any simulator.
  always #(HalfPeriod) clk <= ~clk;

  always @(posedge clk) begin
    if (!rst_n) cycle_q <= '0;
    else cycle_q <= cycle_q + 32'd1;
  end

  // -------------------------------------------------------------------------------------------
  // The two link controllers.

  // PHY lane status (DLL-6.4, DLL-6.5): every lane sees a receiver and keeps its lock, and the
  // flits arriving at a side come in on lanes 0, 1, ..., 15, 0, ... in turn, so that training
  // locks every lane and the link trains at x16.
  localparam int LaneBits = lc_pkg::LANE_BITS;
  logic [NumSides*LaneBits-1:0] phy_rx_lane;
  wire [NumSides*5-1:0] width;
  always @(posedge clk) begin
    for (int r = 0; r < NumSides; r++) begin
      if (!rst_n) phy_rx_lane[r*LaneBits +: LaneBits] <= '0;
      else if (phy_rx_valid[r]) phy_rx_lane[r*LaneBits +: LaneBits] <=
          phy_rx_lane[r*LaneBits +: LaneBits] + 1'b1;
    end
  end

  for (genvar s = 0; s < NumSides; s++) begin : gen_side
    lc_top #(
      .SlotBytes    (SlotBytes),
      .ReplayFlits  (ReplayFlits),
      .RxBufferFlits(RxBufferFlits),
      .MsCycles     (MsCycles)
    ) u_lc (
      .clk_i                 (clk),
      .rst_ni                (rst_n),
      .reg_req_i             (reg_req[s]),
      .reg_we_i              (reg_we[s]),
      .reg_addr_i            (reg_addr[s*AddrBits +: AddrBits]),
      .reg_wdata_i           (reg_wdata[s*32 +: 32]),
      .reg_rdata_o           (reg_rdata[s*32 +: 32]),
      .reg_ready_o           (reg_ready[s]),
      .reg_error_o           (reg_error[s]),
      .irq_o                 (irq[s]),
      .tx_valid_i            (tx_valid[s*NumVcs +: NumVcs]),
      .tx_ready_o            (tx_ready[s*NumVcs +: NumVcs]),
      .tx_slot_i             (tx_slot[s*NumVcs*SlotBits +: NumVcs*SlotBits]),
      .rx_valid_o            (rx_valid[s]),
      .rx_ready_i            (rx_ready[s]),
      .rx_vc_o               (rx_vc[s*VcBits +: VcBits]),
      .rx_slot_o             (rx_slot[s*SlotBits +: SlotBits]),
      .ctrl_tx_valid_i       (ctrl_tx_valid[s]),
      .ctrl_tx_ready_o       (ctrl_tx_ready[s]),
      .ctrl_tx_slot_i        (ctrl_tx_slot[s*SlotBits +: SlotBits]),
      .ctrl_rx_valid_o       (ctrl_rx_valid[s]),
      .ctrl_rx_slot_o        (ctrl_rx_slot[s*SlotBits +: SlotBits]),
      .link_up_o             (link_up[s]),
      .phy_tx_valid_o        (phy_tx_valid[s]),
      .phy_tx_ready_i        (phy_tx_ready[s]),
      .phy_tx_flit_o         (phy_tx_flit[s*ContentBits +: ContentBits]),
      .phy_tx_corrupt_bytes_o(phy_tx_corrupt_bytes[s*8 +: 8]),
      .phy_rx_valid_i        (phy_rx_valid[s]),
      .phy_rx_bad_i          (phy_rx_bad[s]),
      .phy_rx_fec_corrected_i(phy_rx_fec_corrected[s]),
      .phy_rx_lane_i         (phy_rx_lane[s*LaneBits +: LaneBits]),
      .phy_rx_flit_i         (phy_rx_flit[s*ContentBits +: ContentBits]),
      .phy_receiver_i        ({NumLanes{1'b1}}),
      .phy_lock_lost_i       ({NumLanes{1'b0}}),
      .width_o               (width[s*5 +: 5])
    );
  end

  // -------------------------------------------------------------------------------------------
  // Sources: each VC offers its slots in number order and holds one until it is taken.

  logic [31:0] sent_q [NumSides*NumVcs];

  always @(posedge clk) begin
    for (int i = 0; i < NumSides * NumVcs; i++) begin
      if (!rst_n) begin
        sent_q[i] <= '0;
        tx_valid[i] <= 1'b0;
        tx_slot[i*SlotBits +: SlotBits] <= '0;
      end else begin
        if (tx_valid[i] && tx_ready[i]) sent_q[i] <= sent_q[i] + 32'd1;
        if (!tx_valid[i] || tx_ready[i]) begin
          tx_valid[i] <= sent_q[i] + 32'(tx_valid[i]) < SlotsPerVc &&
                         !one_in(draw(cycle_q, StreamSource, i), SourcePauseOneIn);
          tx_slot[i*SlotBits +: SlotBits] <=
              slot_pattern(8'(i / NumVcs), 8'(i % NumVcs), sent_q[i] + 32'(tx_valid[i]));
        end
      end
    end
  end

  // Control sources: once both links are up, each side offers its control slots in number order
  // at random times and holds one until it is taken.
  logic [31:0] ctrl_sent_q [NumSides];

  always @(posedge clk) begin
    for (int s = 0; s < NumSides; s++) begin
      if (!rst_n) begin
        ctrl_sent_q[s] <= '0;
        ctrl_tx_valid[s] <= 1'b0;
        ctrl_tx_slot[s*SlotBits +: SlotBits] <= '0;
      end else if (ctrl_tx_valid[s]) begin
        if (ctrl_tx_ready[s]) begin
          ctrl_sent_q[s] <= ctrl_sent_q[s] + 32'd1;
          ctrl_tx_valid[s] <= 1'b0;
        end
      end else if (link_up == '1 && ctrl_sent_q[s] < ControlsPerSide &&
                   one_in(draw(cycle_q, StreamControl, s), ControlOneIn)) begin
        ctrl_tx_valid[s] <= 1'b1;
        ctrl_tx_slot[s*SlotBits +: SlotBits] <= slot_pattern(8'(s), ControlTag, ctrl_sent_q[s]);
      end
    end
  end

  // -------------------------------------------------------------------------------------------
  // Channel: a delay line per direction, with stalls, drops, bad flits and bit flips.

  logic [ContentBits-1:0] line_flit_q [NumSides*LatencyCycles];
  logic [NumSides*LatencyCycles-1:0] line_valid_q, line_bad_q, line_fec_q;
  // What the channel did to the flits it carried into side r.
  logic [31:0] carried_q [NumSides], dropped_q [NumSides], bad_q [NumSides];
  logic [31:0] corrupted_q [NumSides], fec_q [NumSides];
  logic [31:0] payload_q [NumSides], payload_lost_q [NumSides];  // PAYLOAD flits; destroyed.

  // The choice per flit into side r: drop it, mark it bad, flip a bit, or mark it corrected.
  logic [NumSides-1:0] carry, drop, mark_bad, corrupt, mark_fec, payload;
  logic [NumSides*ContentBits-1:0] flip;
  for (genvar r = 0; r < NumSides; r++) begin : gen_channel
    localparam int Src = NumSides - 1 - r;
    assign carry[r] = phy_tx_valid[Src] && phy_tx_ready[Src];
    assign payload[r] = phy_tx_flit[Src*ContentBits + lc_pkg::CRC_BITS + lc_pkg::DLP_TYPE_LSB +: 3]
                        == lc_pkg::FLIT_PAYLOAD;
    assign drop[r] = errors_on && one_in(draw(cycle_q, StreamDrop, r), DropOneIn);
    assign mark_bad[r] = errors_on && !drop[r] && one_in(draw(cycle_q, StreamBad, r), BadOneIn);
    assign corrupt[r] = errors_on && !drop[r] && !mark_bad[r] &&
                        one_in(draw(cycle_q, StreamCorrupt, r), CorruptOneIn);
    assign mark_fec[r] = errors_on && !drop[r] && !mark_bad[r] && !corrupt[r] &&
                         one_in(draw(cycle_q, StreamFec, r), FecCorrectedOneIn);
    assign flip[r*ContentBits +: ContentBits] =
        corrupt[r] ? ContentBits'(1) << (draw(cycle_q, StreamBitPos, r) % ContentBits) : '0;

    localparam int Last = r * LatencyCycles + LatencyCycles - 1;
    assign phy_rx_valid[r] = line_valid_q[Last];
    assign phy_rx_bad[r] = line_bad_q[Last];
    assign phy_rx_fec_corrected[r] = line_fec_q[Last];
    assign phy_rx_flit[r*ContentBits +: ContentBits] = line_flit_q[Last];
  end

  always @(posedge clk) begin
    for (int r = 0; r < NumSides; r++) begin
      if (!rst_n) begin
        phy_tx_ready[r] <= 1'b0;
        carried_q[r] <= '0;
        dropped_q[r] <= '0;
        bad_q[r] <= '0;
        corrupted_q[r] <= '0;
        fec_q[r] <= '0;
        payload_q[r] <= '0;
        payload_lost_q[r] <= '0;
        for (int i = 0; i < LatencyCycles; i++) begin
          line_valid_q[r*LatencyCycles + i] <= 1'b0;
          line_bad_q[r*LatencyCycles + i] <= 1'b0;
          line_fec_q[r*LatencyCycles + i] <= 1'b0;
          line_flit_q[r*LatencyCycles + i] <= '0;
        end
      end else begin
        // phy_tx_ready of side r gates what side r sends.
        phy_tx_ready[r] <= !one_in(draw(cycle_q, StreamStall, r), PhyStallOneIn);
        for (int i = LatencyCycles - 1; i > 0; i--) begin
          line_valid_q[r*LatencyCycles + i] <= line_valid_q[r*LatencyCycles + i - 1];
          line_bad_q[r*LatencyCycles + i] <= line_bad_q[r*LatencyCycles + i - 1];
          line_fec_q[r*LatencyCycles + i] <= line_fec_q[r*LatencyCycles + i - 1];
          line_flit_q[r*LatencyCycles + i] <= line_flit_q[r*LatencyCycles + i - 1];
        end
        line_valid_q[r*LatencyCycles] <= carry[r] && !drop[r];
        line_bad_q[r*LatencyCycles] <= carry[r] && mark_bad[r];
        line_fec_q[r*LatencyCycles] <= carry[r] && mark_fec[r];
        line_flit_q[r*LatencyCycles] <= phy_tx_flit[(NumSides-1-r)*ContentBits +: ContentBits] ^
                                        flip[r*ContentBits +: ContentBits];
        if (carry[r]) begin
          carried_q[r] <= carried_q[r] + 32'd1;
          dropped_q[r] <= dropped_q[r] + 32'(drop[r]);
          bad_q[r] <= bad_q[r] + 32'(mark_bad[r]);
          corrupted_q[r] <= corrupted_q[r] + 32'(corrupt[r]);
          fec_q[r] <= fec_q[r] + 32'(mark_fec[r]);
          payload_q[r] <= payload_q[r] + 32'(payload[r]);
          payload_lost_q[r] <= payload_lost_q[r] +
                               32'(payload[r] && (drop[r] || mark_bad[r] || corrupt[r]));
          // The PHY would corrupt these bytes (ERR_INJECT.CORRUPT), which this test never arms.
          if (phy_tx_corrupt_bytes[(NumSides-1-r)*8 +: 8] != 8'd0) begin
            $fatal(1, "lc_b2b_smoke: FAIL side %0d asked the PHY to corrupt a flit", 1 - r);
          end
        end
      end
    end
  end

  // -------------------------------------------------------------------------------------------
  // Scoreboard: side r must receive exactly slots 0, 1, ... of each VC from side 1 - r.

  logic [31:0] expected_q [NumSides*NumVcs];
  logic [31:0] delivered_q [NumSides];

  always @(posedge clk) begin
    for (int r = 0; r < NumSides; r++) begin
      if (!rst_n) begin
        rx_ready[r] <= 1'b0;
        delivered_q[r] <= '0;
        for (int v = 0; v < NumVcs; v++) expected_q[r*NumVcs + v] <= '0;
      end else begin
        rx_ready[r] <= !one_in(draw(cycle_q, StreamDrain, r), DrainStallOneIn);
        if (rx_valid[r] && rx_ready[r]) begin
          check_slot(r, rx_vc[r*VcBits +: VcBits], rx_slot[r*SlotBits +: SlotBits],
                     expected_q[r*NumVcs + 32'(rx_vc[r*VcBits +: VcBits])]);
          expected_q[r*NumVcs + 32'(rx_vc[r*VcBits +: VcBits])] <=
              expected_q[r*NumVcs + 32'(rx_vc[r*VcBits +: VcBits])] + 32'd1;
          delivered_q[r] <= delivered_q[r] + 32'd1;
        end
      end
    end
  end

  // Stops the run unless `slot` is the next slot expected on `vc` at side `r`.
  task automatic check_slot(input int r, input logic [VcBits-1:0] vc,
                            input logic [SlotBits-1:0] slot, input logic [31:0] expected);
    logic [7:0] got_side, got_vc;
    logic [31:0] got_number;
    {got_side, got_vc, got_number} = slot[SlotBits-1 -: HeadBits];
    if (expected >= SlotsPerVc) begin
      $fatal(1, "lc_b2b_smoke: FAIL side %0d VC %0d got a slot after all %0d (number %0d)", r,
             vc, SlotsPerVc, got_number);
    end else if (slot !== slot_pattern(8'(1 - r), 8'(vc), expected)) begin
      $fatal(1, "lc_b2b_smoke: FAIL side %0d VC %0d expected slot %0d, got %s slot %0d/%0d/%0d",
             r, vc, expected,
             slot !== slot_pattern(got_side, got_vc, got_number) ? "a corrupted" :
             (got_side != 8'(1 - r) || got_vc != 8'(vc)) ? "a misrouted" :
             got_number < expected ? "a duplicated" : "a later (lost or reordered)",
             got_side, got_vc, got_number);
    end
  endtask

  // Control scoreboard: side r may miss some of side 1 - r's control slots, but each one it gets
  // must be intact and later than the last.
  logic [31:0] ctrl_expected_q [NumSides], ctrl_received_q [NumSides];

  always @(posedge clk) begin
    for (int r = 0; r < NumSides; r++) begin
      if (!rst_n) begin
        ctrl_expected_q[r] <= '0;
        ctrl_received_q[r] <= '0;
      end else if (ctrl_rx_valid[r]) begin
        check_control(r, ctrl_rx_slot[r*SlotBits +: SlotBits], ctrl_expected_q[r]);
        ctrl_expected_q[r] <= ctrl_rx_slot[r*SlotBits + SlotBits - HeadBits +: 32] + 32'd1;
        ctrl_received_q[r] <= ctrl_received_q[r] + 32'd1;
      end
    end
  end

  task automatic check_control(input int r, input logic [SlotBits-1:0] slot,
                               input logic [31:0] expected);
    logic [7:0] got_side, got_tag;
    logic [31:0] got_number;
    {got_side, got_tag, got_number} = slot[SlotBits-1 -: HeadBits];
    if (slot !== slot_pattern(8'(1 - r), ControlTag, got_number) ||
        got_number >= ControlsPerSide) begin
      $fatal(1, "lc_b2b_smoke: FAIL side %0d got a corrupted control slot %0d/%0h/%0d", r,
             got_side, got_tag, got_number);
    end else if (got_number < expected) begin
      $fatal(1, "lc_b2b_smoke: FAIL side %0d got control %0d again or out of order (next %0d)",
             r, got_number, expected);
    end
  endtask

  // -------------------------------------------------------------------------------------------
  // Watchdogs: no link-down once the links are up, steady progress, and a cycle limit.

  logic both_up_q;
  logic [31:0] waiting_q;  // Cycles since a slot was last delivered, once the links are up.

  always @(posedge clk) begin
    if (!rst_n) begin
      both_up_q <= 1'b0;
      waiting_q <= '0;
    end else begin
      if (link_up == '1) both_up_q <= 1'b1;
      if (both_up_q && link_up != '1) begin
        $fatal(1, "lc_b2b_smoke: FAIL link went down at cycle %0d (link_up_o %b)", cycle_q,
               link_up);
      end
      if (!both_up_q || (rx_valid & rx_ready) != '0 ||
          (delivered_q[0] == SlotsPerSide && delivered_q[1] == SlotsPerSide)) begin
        waiting_q <= '0;
      end else begin
        waiting_q <= waiting_q + 32'd1;
      end
      if (waiting_q >= ProgressCycles || cycle_q >= MaxCycles) begin
        $fatal(1, "lc_b2b_smoke: FAIL stuck at cycle %0d: link_up_o %b, delivered %0d, %0d of %0d",
               cycle_q, link_up, delivered_q[0], delivered_q[1], SlotsPerSide);
      end
    end
  end

  // -------------------------------------------------------------------------------------------
  // Register port: one access per call, answered in the request cycle.

  task automatic csr_access(input int side, input logic write, input logic [AddrBits-1:0] addr,
                            input logic [31:0] wdata, output logic [31:0] rdata);
    @(negedge clk);
    reg_req[side] = 1'b1;
    reg_we[side] = write;
    reg_addr[side*AddrBits +: AddrBits] = addr;
    reg_wdata[side*32 +: 32] = wdata;
    #1;
    if (!reg_ready[side] || reg_error[side]) begin
      $fatal(1, "lc_b2b_smoke: FAIL side %0d: bus error on %s of offset 0x%0h", side,
             write ? "write" : "read", addr);
    end
    rdata = reg_rdata[side*32 +: 32];
    @(negedge clk);  // The rising edge in between took the access.
    reg_req[side] = 1'b0;
    reg_we[side] = 1'b0;
  endtask

  task automatic csr_write(input int side, input logic [AddrBits-1:0] addr,
                           input logic [31:0] wdata);
    logic [31:0] unused_rdata;
    csr_access(side, 1'b1, addr, wdata, unused_rdata);
  endtask

  task automatic csr_read(input int side, input logic [AddrBits-1:0] addr,
                          output logic [31:0] rdata);
    csr_access(side, 1'b0, addr, 32'd0, rdata);
  endtask

  // Stops the run with `what` unless `ok`.
  task automatic expect_that(input logic ok, input int side, input string what);
    if (!ok) $fatal(1, "lc_b2b_smoke: FAIL side %0d: %s", side, what);
  endtask

  // -------------------------------------------------------------------------------------------
  // The run: program, train, carry the traffic, drain, then check the registers.

  logic [31:0] status [NumSides], crc_errors [NumSides], fec_corrected [NumSides];
  logic [31:0] replays [NumSides], retrains [NumSides], link_downs [NumSides];
  logic [31:0] naks_sent [NumSides], tx_flits [NumSides], rx_flits [NumSides];
  logic [31:0] irq_status [NumSides], credit_avail [NumSides*NumVcs];
  logic [31:0] total_sent, total_delivered, total_crc_errors, total_replays;

  initial begin
    rst_n = 1'b0;
    reg_req = '0;
    reg_we = '0;
    reg_addr = '0;
    reg_wdata = '0;
    errors_on = 1'b0;
    repeat (ResetCycles) @(negedge clk);
    rst_n = 1'b1;

    // CREDIT_INIT takes effect at the next training (DLL-8.7): hold the link in Disabled while
    // the receive buffer is shared out, so that training advertises no more than it holds.
    for (int s = 0; s < NumSides; s++) begin
      csr_write(s, lc_reg_pkg::LC_CTRL_OFFSET, CtrlHeld);
      for (int v = 0; v < NumVcs; v++) begin
        csr_write(s, lc_reg_pkg::LC_CREDIT_INIT_VC0_OFFSET + AddrBits'(4 * v), CreditsPerVc);
      end
    end
    for (int s = 0; s < NumSides; s++) csr_write(s, lc_reg_pkg::LC_CTRL_OFFSET, CtrlRun);

    while (link_up != '1) @(negedge clk);
    $display("lc_b2b_smoke: links up at cycle %0d", cycle_q);
    errors_on = 1'b1;
    while (delivered_q[0] != SlotsPerSide || delivered_q[1] != SlotsPerSide ||
           ctrl_sent_q[0] != ControlsPerSide || ctrl_sent_q[1] != ControlsPerSide) begin
      @(negedge clk);
    end
    errors_on = 1'b0;
    repeat (DrainCycles) @(negedge clk);

    for (int s = 0; s < NumSides; s++) begin
      csr_read(s, lc_reg_pkg::LC_STATUS_OFFSET, status[s]);
      csr_read(s, lc_reg_pkg::LC_CRC_ERRORS_OFFSET, crc_errors[s]);
      csr_read(s, lc_reg_pkg::LC_FEC_CORRECTED_OFFSET, fec_corrected[s]);
      csr_read(s, lc_reg_pkg::LC_NAKS_SENT_OFFSET, naks_sent[s]);
      csr_read(s, lc_reg_pkg::LC_REPLAYS_OFFSET, replays[s]);
      csr_read(s, lc_reg_pkg::LC_RETRAINS_OFFSET, retrains[s]);
      csr_read(s, lc_reg_pkg::LC_LINK_DOWNS_OFFSET, link_downs[s]);
      csr_read(s, lc_reg_pkg::LC_TX_FLITS_LO_OFFSET, tx_flits[s]);
      csr_read(s, lc_reg_pkg::LC_RX_FLITS_LO_OFFSET, rx_flits[s]);
      csr_read(s, lc_reg_pkg::LC_IRQ_STATUS_OFFSET, irq_status[s]);
      for (int v = 0; v < NumVcs; v++) begin
        csr_read(s, lc_reg_pkg::LC_CREDIT_AVAIL_VC0_OFFSET + AddrBits'(4 * v),
                 credit_avail[s*NumVcs + v]);
      end
    end

    total_sent = '0;
    total_delivered = '0;
    total_crc_errors = '0;
    total_replays = '0;
    for (int s = 0; s < NumSides; s++) begin
      // Counters of side s against the channel into s and the slots side 1 - s sent.
      $display("lc_b2b_smoke: side %0d: %0d flits in: %0d dropped, %0d bad, %0d flipped, %0d %s",
               s, carried_q[s], dropped_q[s], bad_q[s], corrupted_q[s], fec_q[s], "FEC-corrected");
      $display("lc_b2b_smoke: side %0d: CRC_ERRORS %0d NAKS_SENT %0d REPLAYS %0d RETRAINS %0d", s,
               crc_errors[s], naks_sent[s], replays[s], retrains[s]);
      expect_that(link_up[s] && status[s][lc_reg_pkg::LC_STATUS_LINK_UP_LSB] &&
                  status[s][lc_reg_pkg::LC_STATUS_LTSSM_LSB +: 3] == LtssmL0,
                  s, "STATUS is not LINK_UP in L0 after the run");
      expect_that(status[s][lc_reg_pkg::LC_STATUS_WIDTH_LSB +: 5] == WidthX16, s,
                  "STATUS.WIDTH is not x16 (TARGET_WIDTH reset value, pcie6)");
      expect_that(width[s*5 +: 5] == WidthX16, s, "width_o is not x16 with every lane usable");
      expect_that(link_downs[s] == 0, s, "LINK_DOWNS is not 0");
      expect_that(irq_status[s][lc_reg_pkg::LC_IRQ_STATUS_LINK_UP_LSB], s,
                  "IRQ_STATUS.LINK_UP was not raised");
      expect_that(!irq[s], s, "irq_o raised with IRQ_ENABLE 0");
      expect_that(fec_corrected[s] == fec_q[s], s,
                  "FEC_CORRECTED differs from the flits the PHY marked corrected");
      expect_that(crc_errors[s] != 0 || bad_q[s] + corrupted_q[s] == 0, s,
                  "CRC_ERRORS is 0 although bad flits were received");
      expect_that(irq_status[s][lc_reg_pkg::LC_IRQ_STATUS_CRC_ERROR_LSB] == (crc_errors[s] != 0),
                  s, "IRQ_STATUS.CRC_ERROR disagrees with CRC_ERRORS");
      expect_that(replays[1-s] != 0 || payload_lost_q[s] == 0, 1 - s,
                  "REPLAYS is 0 although PAYLOAD flits it sent were destroyed");
      // Without a retrain every bad flit arrives in L0, and every PAYLOAD flit sent arrives good
      // or destroyed (DLL-8.6).
      if (retrains[s] == 0 && retrains[1-s] == 0) begin
        expect_that(crc_errors[s] == bad_q[s] + corrupted_q[s], s,
                    "CRC_ERRORS differs from the bad and bit-flipped flits received");
        expect_that(tx_flits[1-s] == payload_q[s], 1 - s,
                    "TX_FLITS differs from the PAYLOAD flits it handed to the PHY");
        expect_that(rx_flits[s] == payload_q[s] - payload_lost_q[s], s,
                    "RX_FLITS differs from the good PAYLOAD flits that reached it");
      end
      for (int v = 0; v < NumVcs; v++) begin
        expect_that(credit_avail[s*NumVcs + v] == CreditsPerVc, s,
                    "CREDIT_AVAIL is not back to the partner's CREDIT_INIT after the drain");
      end
      for (int v = 0; v < NumVcs; v++) begin
        expect_that(sent_q[s*NumVcs + v] == SlotsPerVc && expected_q[s*NumVcs + v] == SlotsPerVc,
                    s, "a VC did not send or receive all its slots");
      end
      $display("lc_b2b_smoke: side %0d: %0d of %0d control messages arrived", s,
               ctrl_received_q[s], ControlsPerSide);
      expect_that(ctrl_received_q[s] != 0 && ctrl_received_q[s] <= ControlsPerSide, s,
                  "no control message arrived, or more than were sent");
      for (int v = 0; v < NumVcs; v++) total_sent = total_sent + sent_q[s*NumVcs + v];
      total_delivered = total_delivered + delivered_q[s];
      total_crc_errors = total_crc_errors + crc_errors[s];
      total_replays = total_replays + replays[s];
    end
    expect_that(total_crc_errors != 0 && total_replays != 0, 0,
                "the run injected no error that needed a replay: the test proves too little");

    $display("lc_b2b_smoke: PASS sent=%0d delivered=%0d crc_errors=%0d replays=%0d cycles=%0d",
             total_sent, total_delivered, total_crc_errors, total_replays, cycle_q);
    $finish;
  end
endmodule
