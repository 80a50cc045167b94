// SPDX-License-Identifier: Apache-2.0
/* rdma_demo: connects node n with node n ^ 1 through one reliable-connection
 * queue pair of each card's transport engine: the even node (the writer)
 * RDMA-WRITEs a pattern into its partner's memory and SENDs a message with
 * immediate data; the odd node (the reader) checks both, READs the pattern
 * back, FETCH_ADDs a counter in the writer's memory and SENDs a reply that
 * lets the writer finish. Links and routes are polled; between completions
 * the MCU sleeps (WFI) until the engine's completion interrupt or the
 * wait's deadline timer wakes it. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lq/board_info.h"
#include "lq/clint.h"
#include "lq/irq.h"
#include "lq/lc.h"
#include "lq/plic.h"
#include "lq/router.h"
#include "lq/transport.h"
#include "lq/trap.h"

/* Simulated time allowed for every port to reach L0 (-D to change);
   full-scale training takes about 12 ms. */
#ifndef RDMA_DEMO_LINK_TIMEOUT_US
#define RDMA_DEMO_LINK_TIMEOUT_US 200000
#endif
/* Simulated time allowed for each completion the demo waits for: the
   partner may bring its links up later and is slowed by its own checks. */
#ifndef RDMA_DEMO_WAIT_US
#define RDMA_DEMO_WAIT_US 100000
#endif

#define kBufferBytes 4096u
#define kMessageBytes 32u
/* Both nodes run this image, so both create one QP and register one region
   first: the partner's QPN (TRN-5.4) and R_Key (TRN-6.14) are our own. */
#define kQpn 2u
#define kRkey 0x100u
#define kPmtuBytes 1024u
/* 4.096 us x 2^6 = 262 us instead of the default 1.05 ms: a request that
   reaches the partner before it has switched in its routes is dropped
   (stale routing epoch) and should be retried soon, while 7 retries still
   cover about 2 ms of skew between the two cards' bring-ups. */
#define kAckTimeoutCode 6u
#define kImmediateTag 0xc0de0000u
/* Each node's counter starts at kCounterBase + its node ID. */
#define kCounterBase 1000u
#define kAddend 5u

/* Work request IDs, which name the step a completion ends; 0 is unused, as
   the CQE registers read 0 when the queue is empty. */
#define kWrWrite 1u
#define kWrSend 2u
#define kWrRead 3u
#define kWrFetchAdd 4u
#define kWrReceive 5u
#define kWrIdCount 6u

/* All that the engine reaches, in the one memory region each node
   registers. Being the same image, both nodes have each buffer at the same
   address: our address of a buffer is also the partner's. */
static struct {
  uint8_t source[kBufferBytes];      /* own pattern: WRITE sends, READ takes */
  uint8_t destination[kBufferBytes]; /* reader: the writer's WRITE lands here */
  uint8_t read_back[kBufferBytes];   /* reader: its READ lands here */
  uint64_t counter;  /* the FETCH_ADD target (8-byte aligned, TRN-6.13) */
  uint64_t original; /* reader: the counter's value FETCH_ADD returns */
  char outgoing[kMessageBytes];
  char incoming[kMessageBytes];
} demo;

static uint32_t node;
static uint32_t partner;

/* Completions taken from the queue, by work request ID: each wait keeps
   what it polls that belongs to another. */
static lq_transport_completion_t completions[kWrIdCount];
static bool completed[kWrIdCount];

/* Byte `offset` of node `owner`'s pattern; each 256-byte block differs, so a
   packet placed at the wrong offset shows. */
static uint8_t pattern_byte(uint32_t owner, uint32_t offset) {
  return (uint8_t)(31u * offset + (offset >> 8) + 101u * owner + 1u);
}

static void make_message(char* message, uint32_t from) {
  snprintf(message, kMessageBytes, "hello from node %lu", (unsigned long)from);
}

/* The completion interrupt is a level: the handler masks it (CQ_IRQ.ENABLE
   = 0) and main unmasks it before it sleeps again, once it has taken what
   is queued. */
static void on_completion_irq(uint32_t source) {
  (void)source;
  lq_transport_set_irq(false);
}

/* The deadline timer only has to wake the MCU. */
static void on_deadline(void) { lq_clint_disarm(); }

static void enable_interrupts(void) {
  lq_trap_set_timer_handler(on_deadline);
  lq_plic_set_threshold(0);
  lq_plic_attach(LQ_IRQ_TRANSPORT_COMPLETION, on_completion_irq);
  lq_irq_enable(LQ_MIE_MEIE | LQ_MIE_MTIE);
  lq_irq_global_enable();
}

/* Sleeps until a completion waits or `deadline` passes. With interrupts
   off between the engine's unmasking and WFI, a completion that arrives in
   between still wakes it (WFI ends on a pending enabled interrupt). */
static void sleep_until_completion(uint64_t deadline) {
  uint32_t mie = lq_irq_global_disable();
  lq_clint_set_mtimecmp(deadline);
  lq_transport_set_irq(true); /* raised at once if one already waits */
  lq_wfi();
  lq_irq_global_restore(mie); /* the handler runs here */
}

static bool command_ok(uint32_t result, const char* what) {
  if (result != TRANSPORT_CMD_RESULT_OK) {
    printf("rdma: %s: %s\n", what, transport_cmd_result_name(result));
    return false;
  }
  return true;
}

/* Takes completions, sleeping between them, until work request wr_id has
   completed; false after RDMA_DEMO_WAIT_US of simulated time, saying which
   completion is missing. */
static bool await(uint32_t wr_id, const char* what,
                  lq_transport_completion_t* completion) {
  uint64_t deadline = lq_clint_mtime() + lq_us_to_ticks(RDMA_DEMO_WAIT_US);
  while (!completed[wr_id]) {
    lq_transport_completion_t polled;
    if (lq_transport_poll(&polled)) {
      if (polled.wr_id < kWrIdCount && !completed[polled.wr_id]) {
        completions[polled.wr_id] = polled;
        completed[polled.wr_id] = true;
      } else {
        printf("rdma: unexpected completion of work request %llu\n",
               (unsigned long long)polled.wr_id);
      }
    } else if (lq_clint_mtime() >= deadline) {
      printf("rdma: timed out after %u us waiting for %s\n", RDMA_DEMO_WAIT_US,
             what);
      return false;
    } else {
      sleep_until_completion(deadline);
    }
  }
  *completion = completions[wr_id];
  return true;
}

static bool post(const lq_transport_send_wr_t* wr) {
  uint32_t result = lq_transport_post_send(kQpn, wr);
  if (result != TRANSPORT_CMD_RESULT_OK) {
    printf("rdma: posting %s: %s\n", transport_wr_kind_name(wr->kind),
           transport_cmd_result_name(result));
    return false;
  }
  return true;
}

/* Waits for wr's completion and prints "rdma: KIND N bytes to node P:
   STATUS"; true on SUCCESS. */
static bool finish(const lq_transport_send_wr_t* wr) {
  const char* kind = transport_wr_kind_name(wr->kind);
  char what[32];
  snprintf(what, sizeof what, "the %s completion", kind);
  lq_transport_completion_t completion;
  if (!await((uint32_t)wr->wr_id, what, &completion)) {
    return false;
  }
  const char* direction = "to";
  if (wr->kind == TRANSPORT_WR_KIND_READ) {
    direction = "from";
  } else if (wr->kind == TRANSPORT_WR_KIND_FETCH_ADD ||
             wr->kind == TRANSPORT_WR_KIND_COMPARE_SWAP) {
    direction = "at";
  }
  printf("rdma: %s %lu bytes %s node %lu: %s\n", kind,
         (unsigned long)wr->length, direction, (unsigned long)partner,
         transport_wc_status_name(completion.status));
  return completion.status == TRANSPORT_WC_STATUS_SUCCESS;
}

/* The SEND both roles make: demo.outgoing with the node as immediate. */
static lq_transport_send_wr_t message_wr(void) {
  lq_transport_send_wr_t wr = {
      .wr_id = kWrSend,
      .kind = TRANSPORT_WR_KIND_SEND,
      .length = kMessageBytes,
      .local = (uintptr_t)demo.outgoing,
      .with_imm = true,
      .imm = kImmediateTag | node,
  };
  return wr;
}

/* Prints whether buffer holds the partner's pattern, and where not. */
static bool check_pattern(const uint8_t* buffer, const char* how) {
  for (uint32_t offset = 0; offset < kBufferBytes; offset++) {
    uint8_t expected = pattern_byte(partner, offset);
    if (buffer[offset] != expected) {
      printf(
          "rdma: %u bytes from node %lu %s: byte %lu is 0x%02x, "
          "expected 0x%02x\n",
          kBufferBytes, (unsigned long)partner, how, (unsigned long)offset,
          (unsigned)buffer[offset], (unsigned)expected);
      return false;
    }
  }
  printf("rdma: %u bytes from node %lu %s intact\n", kBufferBytes,
         (unsigned long)partner, how);
  return true;
}

/* Fills what the partner will take from this node's memory; before the
   links come up, so the partner cannot see it half-made. */
static void prepare_memory(void) {
  for (uint32_t offset = 0; offset < kBufferBytes; offset++) {
    demo.source[offset] = pattern_byte(node, offset);
  }
  demo.counter = kCounterBase + node;
  make_message(demo.outgoing, node);
}

/* TRN-5.6 with the partner's part known in advance: QP to RTS, the region
   registered, and the receive WR for the partner's SEND posted. */
static bool set_up_queue_pair(void) {
  uint32_t qpn = 0;
  if (!command_ok(lq_transport_qp_create(&qpn), "create QP")) {
    return false;
  }
  if (qpn != kQpn) {
    printf("rdma: created QP %lu, expected %u (TRN-5.4)\n", (unsigned long)qpn,
           kQpn);
    return false;
  }
  if (!command_ok(lq_transport_qp_to_init(kQpn, LQ_TRANSPORT_REMOTE_ALL),
                  "QP to INIT")) {
    return false;
  }
  uint32_t rkey = 0;
  if (!command_ok(lq_transport_mr_register((uintptr_t)&demo, sizeof demo,
                                           LQ_TRANSPORT_REMOTE_ALL, &rkey),
                  "register memory")) {
    return false;
  }
  if (rkey != kRkey) {
    printf("rdma: memory region has R_Key 0x%lx, expected 0x%x (TRN-6.14)\n",
           (unsigned long)rkey, kRkey);
    return false;
  }
  if (!command_ok(
          lq_transport_post_recv(kQpn, kWrReceive, (uintptr_t)demo.incoming,
                                 sizeof demo.incoming),
          "post receive")) {
    return false;
  }
  lq_transport_rtr_t rtr = lq_transport_rtr_defaults(partner, kQpn);
  rtr.pmtu_bytes = kPmtuBytes;
  rtr.congestion = TRANSPORT_CONGESTION_NONE;
  if (!command_ok(lq_transport_qp_to_rtr(kQpn, &rtr), "QP to RTR")) {
    return false;
  }
  lq_transport_rts_t rts = lq_transport_rts_defaults();
  rts.timeout_code = kAckTimeoutCode;
  if (!command_ok(lq_transport_qp_to_rts(kQpn, &rts), "QP to RTS")) {
    return false;
  }
  printf(
      "rdma: QP %u in %s, connected to node %lu QP %u, PMTU %u; region "
      "0x%08lx+%u has R_Key 0x%x\n",
      kQpn, transport_state_name(lq_transport_qp_state(kQpn)),
      (unsigned long)partner, kQpn, kPmtuBytes, (unsigned long)(uintptr_t)&demo,
      (unsigned)sizeof demo, kRkey);
  return true;
}

/* Brings every link up (polled), then switches in the router's strapped
   routes. */
static bool bring_up_links(void) {
  return lq_lc_bring_up_polled("rdma", RDMA_DEMO_LINK_TIMEOUT_US) &&
         lq_router_switch_in_routes();
}

/* Writer: the pattern into the partner's destination, then the message;
   both completions are awaited after both posts. */
static bool write_and_send(void) {
  lq_transport_send_wr_t write = {
      .wr_id = kWrWrite,
      .kind = TRANSPORT_WR_KIND_WRITE,
      .length = kBufferBytes,
      .local = (uintptr_t)demo.source,
      .remote = (uintptr_t)demo.destination,
      .rkey = kRkey,
  };
  lq_transport_send_wr_t send = message_wr();
  return post(&write) && post(&send) && finish(&write) && finish(&send);
}

/* Both roles: the partner's SEND, with its node as immediate data. */
static bool receive_message(void) {
  lq_transport_completion_t completion;
  if (!await(kWrReceive, "the partner's SEND", &completion)) {
    return false;
  }
  printf(
      "rdma: SEND from node %lu: %lu bytes, immediate 0x%08lx, \"%.*s\": "
      "%s\n",
      (unsigned long)partner, (unsigned long)completion.byte_len,
      (unsigned long)completion.imm, (int)sizeof demo.incoming, demo.incoming,
      transport_wc_status_name(completion.status));
  if (completion.status != TRANSPORT_WC_STATUS_SUCCESS) {
    return false;
  }
  char expected[kMessageBytes] = {0};
  make_message(expected, partner);
  if (completion.byte_len != kMessageBytes || !completion.with_imm ||
      completion.imm != (kImmediateTag | partner) ||
      memcmp(demo.incoming, expected, kMessageBytes) != 0) {
    printf("rdma: expected %u bytes, immediate 0x%08lx, \"%s\"\n",
           kMessageBytes, (unsigned long)(kImmediateTag | partner), expected);
    return false;
  }
  return true;
}

/* Reader: the WRITE came before the SEND on the same connection, so its
   bytes are in place by now. */
static bool check_written_data(void) {
  return check_pattern(demo.destination, "arrived");
}

static bool read_back(void) {
  lq_transport_send_wr_t read = {
      .wr_id = kWrRead,
      .kind = TRANSPORT_WR_KIND_READ,
      .length = kBufferBytes,
      .local = (uintptr_t)demo.read_back,
      .remote = (uintptr_t)demo.source,
      .rkey = kRkey,
  };
  return post(&read) && finish(&read) &&
         check_pattern(demo.read_back, "read back");
}

static bool fetch_add(void) {
  demo.original = UINT64_MAX; /* a value the partner's counter never holds */
  lq_transport_send_wr_t fetch_add = {
      .wr_id = kWrFetchAdd,
      .kind = TRANSPORT_WR_KIND_FETCH_ADD,
      .length = sizeof demo.counter,
      .local = (uintptr_t)&demo.original,
      .remote = (uintptr_t)&demo.counter,
      .rkey = kRkey,
      .swap_add = kAddend,
  };
  if (!post(&fetch_add) || !finish(&fetch_add)) {
    return false;
  }
  uint64_t expected = kCounterBase + partner;
  printf("rdma: counter at node %lu was %llu, expected %llu\n",
         (unsigned long)partner, (unsigned long long)demo.original,
         (unsigned long long)expected);
  return demo.original == expected;
}

/* Reader: the reply that tells the writer it may stop serving memory. */
static bool send_reply(void) {
  lq_transport_send_wr_t send = message_wr();
  return post(&send) && finish(&send);
}

/* Writer, after the reply: the partner's FETCH_ADD reached the counter. */
static bool check_counter(void) {
  uint64_t expected = kCounterBase + node + kAddend;
  printf("rdma: counter %llu after node %lu's FETCH_ADD, expected %llu\n",
         (unsigned long long)demo.counter, (unsigned long)partner,
         (unsigned long long)expected);
  return demo.counter == expected;
}

typedef struct {
  const char* name;
  bool (*run)(void); /* prints what it did, or why it failed */
} step_t;

static const step_t kWriterSteps[] = {
    {"queue pair set-up", set_up_queue_pair},
    {"link bring-up", bring_up_links},
    {"WRITE and SEND", write_and_send},
    {"reply", receive_message},
    {"counter", check_counter},
};

static const step_t kReaderSteps[] = {
    {"queue pair set-up", set_up_queue_pair},
    {"link bring-up", bring_up_links},
    {"SEND", receive_message},
    {"WRITE data", check_written_data},
    {"READ", read_back},
    {"FETCH_ADD", fetch_add},
    {"reply", send_reply},
};

/* The others' routes may lead through a node without a partner: its links
   come up all the same. */
static const step_t kLoneSteps[] = {
    {"link bring-up", bring_up_links},
};

static int run_steps(const step_t* steps, uint32_t count) {
  for (uint32_t i = 0; i < count; i++) {
    if (!steps[i].run()) {
      printf("rdma demo: FAILED at %s\n", steps[i].name);
      return 1;
    }
  }
  printf("rdma demo: ok\n");
  return 0;
}

int main(void) {
  if (!lq_board_info_present()) {
    printf("rdma demo: no board information block: not an lqemu board\n");
    return 1;
  }
  if (!lq_router_present()) {
    printf("rdma demo: no router: this card is not part of a fabric\n");
    return 1;
  }
  if (!lq_transport_present()) {
    printf("rdma demo: no transport engine on this card\n");
    return 1;
  }
  node = lq_board_node_id();
  partner = node ^ 1u;
  bool writer = (node & 1u) == 0;
  uint32_t nodes =
      router_endpoints_count_get(lq_router_read(ROUTER_ENDPOINTS_OFFSET));
  if (partner >= nodes) {
    printf(
        "rdma demo: node %lu has no partner: node %lu does not exist "
        "(%lu nodes)\n",
        (unsigned long)node, (unsigned long)partner, (unsigned long)nodes);
    return run_steps(kLoneSteps, sizeof kLoneSteps / sizeof kLoneSteps[0]);
  }
  printf("rdma demo: node %lu (%s), partner node %lu\n", (unsigned long)node,
         writer ? "writer" : "reader", (unsigned long)partner);
  prepare_memory();
  enable_interrupts();
  if (writer) {
    return run_steps(kWriterSteps,
                     sizeof kWriterSteps / sizeof kWriterSteps[0]);
  }
  return run_steps(kReaderSteps, sizeof kReaderSteps / sizeof kReaderSteps[0]);
}
