// SPDX-License-Identifier: Apache-2.0
/* C side of the isa_* framework (isa_test.h): pass/fail reports and the trap
 * recorder that lets a check expect an exception or interrupt. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lq/clint.h"
#include "lq/csr.h"
#include "lq/finisher.h"
#include "lq/trap.h"

/* Field order and offsets are ISA_TRAP_* in isa_test.h. */
struct lq_isa_trap_record {
  uint32_t armed; /* 1: the next trap is expected; cleared when it comes */
  uint32_t count; /* traps recorded so far */
  uint32_t mcause;
  uint32_t mepc;
  uint32_t mtval;
  uint32_t mstatus;
};

struct lq_isa_trap_record lq_isa_trap;

static void record(uint32_t mcause, uint32_t mepc, uint32_t mtval,
                   uint32_t mstatus) {
  lq_isa_trap.armed = 0;
  lq_isa_trap.count++;
  lq_isa_trap.mcause = mcause;
  lq_isa_trap.mepc = mepc;
  lq_isa_trap.mtval = mtval;
  lq_isa_trap.mstatus = mstatus;
}

static bool record_exception(lq_trap_frame_t* frame) {
  if (!lq_isa_trap.armed) {
    return false; /* unexpected: the default handler reports it, exit 3 */
  }
  record(frame->mcause, frame->mepc, frame->mtval, frame->mstatus);
  if (frame->mcause == LQ_EXC_INSN_ACCESS_FAULT ||
      frame->mcause == LQ_EXC_INSN_MISALIGNED) {
    /* Nothing to skip at an address that cannot be fetched: the check
       jumped there with jalr ra, so go back to ra. */
    frame->mepc = frame->x[1];
  } else {
    lq_trap_skip_instruction(frame);
  }
  return true;
}

/* The interrupt checks raise one interrupt at a time and expect it. */
static void record_software_interrupt(void) {
  lq_clint_set_msip(false);
  record(LQ_MCAUSE_INTERRUPT | LQ_IRQ_M_SOFTWARE, lq_csr_read(mepc), 0,
         lq_csr_read(mstatus));
}

static void record_timer_interrupt(void) {
  lq_clint_disarm();
  record(LQ_MCAUSE_INTERRUPT | LQ_IRQ_M_TIMER, lq_csr_read(mepc), 0,
         lq_csr_read(mstatus));
}

void lq_isa_init(void) {
  lq_trap_set_exception_handler(record_exception);
  lq_trap_set_software_handler(record_software_interrupt);
  lq_trap_set_timer_handler(record_timer_interrupt);
}

void lq_isa_pass(const char* image, uint32_t passed) {
  printf("%s: %lu checks passed\n", image, (unsigned long)passed);
  lq_exit(0);
}

void lq_isa_fail(const char* image, uint32_t test, uint32_t got,
                 uint32_t expected) {
  printf("%s: test %lu failed: got 0x%08lx, expected 0x%08lx\n", image,
         (unsigned long)test, (unsigned long)got, (unsigned long)expected);
  lq_fail((int)test);
}
