// SPDX-License-Identifier: Apache-2.0
// Types, constants and DLP pack/unpack functions of the link controller (docs/spec/dll.md §1-§2).
package lc_pkg;

  // Flit content per profile (docs/spec/phy.md PHY-2.1): payload slot, 6-byte DLP, 8-byte CRC.
  localparam int SLOT_BYTES_PCIE6 = 236;
  localparam int SLOT_BYTES_IB = 628;
  localparam int DLP_BYTES = 6;
  localparam int CRC_BYTES = 8;
  localparam int DLP_BITS = DLP_BYTES * 8;
  localparam int CRC_BITS = CRC_BYTES * 8;

  localparam int NUM_VCS = 4;  // DLL-1.4
  localparam int VC_BITS = 2;  // Internal VC index; the DLP field is 3 bits wide.
  localparam int SEQ_BITS = 10;  // DLL-2.1
  localparam int CREDIT_BITS = 12;  // DLL-5.5
  // At most this many flits unacknowledged, so that "after" is unambiguous (DLL-2.3).
  localparam int SEQ_HALF_WINDOW = 512;
  localparam int MAX_REPLAY_FLITS = 511;

  // Receiver rules with fixed values (dll.md §9).
  localparam int ACK_COALESCE_FLITS = 8;
  localparam int ACK_TIMEOUT_FLITS = 16;
  localparam int RX_BAD_FLIT_LIMIT = 16;

  // Training-set record at the head of a TRAINING flit's slot (DLL-6.3); the rest of the slot is 0.
  localparam int TS_BYTES = 15;
  localparam logic [7:0] TS_KIND_TS1 = 8'd1;
  localparam logic [7:0] TS_KIND_TS2 = 8'd2;
  localparam int TS_SENT_TO_EXIT = 16;  // TS or IDLE flits sent before a state may exit (§9).
  localparam int TS_RECEIVED_TO_EXIT = 8;  // Consecutive ones received (§9).
  localparam int MAX_LANES = 16;  // pcie6 x16 (PHY-1.1); ib uses lanes 0-3.
  localparam int LANE_BITS = 4;
  localparam logic [15:0] LANE_MASK_PCIE6 = 16'hffff;
  localparam logic [15:0] LANE_MASK_IB = 16'h000f;

  // DLL-1.1 flit_type codes (5-7 reserved) and replay_cmd codes. Constants rather than enums:
  // yosys 0.23 does not resolve enum members inside package functions.
  localparam logic [2:0] FLIT_IDLE = 3'd0;
  localparam logic [2:0] FLIT_NOP = 3'd1;
  localparam logic [2:0] FLIT_PAYLOAD = 3'd2;
  localparam logic [2:0] FLIT_TRAINING = 3'd3;
  localparam logic [2:0] FLIT_CONTROL = 3'd4;  // DLL-11
  localparam logic [1:0] CMD_NONE = 2'd0;
  localparam logic [1:0] CMD_ACK = 2'd1;
  localparam logic [1:0] CMD_STD_NAK = 2'd2;
  localparam logic [1:0] CMD_SEL_NAK = 2'd3;

  // DLP field positions in the 48-bit DLP vector (DLL-1.2): bit 47 is DLP byte 0 bit 7, so the
  // DLP concatenated after the slot is the flit content in transmission order. Plain vectors
  // rather than a packed struct, because Icarus 11 cannot use a package struct type without an
  // import, which yosys 0.23 rejects.
  localparam int DLP_TYPE_LSB = 45;   // 3 bits
  localparam int DLP_PVC_LSB = 42;    // 3 bits
  localparam int DLP_SEQ_LSB = 32;    // 10 bits
  localparam int DLP_CMD_LSB = 30;    // 2 bits
  localparam int DLP_RSV2_LSB = 26;   // 4 bits: byte 2 bits 5-2, reserved
  localparam int DLP_ACK_LSB = 16;    // 10 bits
  localparam int DLP_CVC_LSB = 13;    // 3 bits
  localparam int DLP_RSV4_BIT = 12;   // byte 4 bit 4, reserved
  localparam int DLP_COUNT_LSB = 0;   // 12 bits

  // Builds a DLP with its reserved bits zero (DLL-1.3).
  function automatic logic [47:0] dlp_pack(logic [2:0] flit_type, logic [2:0] payload_vc,
                                           logic [9:0] flit_seq, logic [1:0] replay_cmd,
                                           logic [9:0] ack_seq, logic [2:0] credit_vc,
                                           logic [11:0] credit_count);
    dlp_pack = {flit_type, payload_vc, flit_seq, replay_cmd, 4'b0000, ack_seq, credit_vc, 1'b0,
                credit_count};
  endfunction

  // DLL-1.3 to DLL-1.5: no reserved bit or code, VCs in range, and the fields that do not apply
  // to the flit type left zero.
  function automatic logic dlp_valid(logic [47:0] dlp);
    logic valid;
    logic [2:0] flit_type;
    flit_type = dlp[DLP_TYPE_LSB +: 3];
    valid = (dlp[DLP_RSV2_LSB +: 4] == 4'b0000) && !dlp[DLP_RSV4_BIT] &&
            (flit_type <= FLIT_CONTROL) && !dlp[DLP_PVC_LSB + 2] && !dlp[DLP_CVC_LSB + 2];
    if (flit_type != FLIT_PAYLOAD && dlp[DLP_PVC_LSB +: 3] != 3'd0) valid = 1'b0;
    if (flit_type == FLIT_IDLE && dlp[DLP_SEQ_LSB +: 10] != 10'd0) valid = 1'b0;
    if (dlp[DLP_CMD_LSB +: 2] == CMD_NONE && dlp[DLP_ACK_LSB +: 10] != 10'd0) valid = 1'b0;
    if (flit_type == FLIT_TRAINING && dlp[DLP_SEQ_LSB +: 10] != 10'd0) valid = 1'b0;
    if (flit_type == FLIT_TRAINING && dlp[DLP_CMD_LSB +: 2] != CMD_NONE) valid = 1'b0;
    if (flit_type == FLIT_TRAINING && dlp[DLP_CVC_LSB +: 3] != 3'd0) valid = 1'b0;
    if (flit_type == FLIT_TRAINING && dlp[DLP_COUNT_LSB +: 12] != 12'd0) valid = 1'b0;
    dlp_valid = valid;
  endfunction

  // Number of lanes set in a lane mask.
  function automatic logic [4:0] lane_count(logic [MAX_LANES-1:0] lanes);
    logic [4:0] count;
    count = '0;
    for (int l = 0; l < MAX_LANES; l++) count = count + 5'(lanes[l]);
    lane_count = count;
  endfunction

  // DLL-2.3: true when seq lies 1..511 steps after reference (modulo 1024).
  function automatic logic seq_is_after(logic [SEQ_BITS-1:0] seq, logic [SEQ_BITS-1:0] reference);
    logic [SEQ_BITS-1:0] distance;
    distance = seq - reference;
    seq_is_after = (distance != '0) && (distance < SEQ_BITS'(SEQ_HALF_WINDOW));
  endfunction

endpackage
