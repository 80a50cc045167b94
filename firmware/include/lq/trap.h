// SPDX-License-Identifier: Apache-2.0
/* Trap handling: the register frame trap.S saves, and the handlers the C
 * dispatcher calls for interrupts and exceptions. */
#ifndef LQ_TRAP_H_
#define LQ_TRAP_H_

#include <stdbool.h>
#include <stdint.h>

/* What trap.S saves; x[2] is sp before the trap, x[0] reads 0. A handler
   may change x[] (except x[2]) and mepc; trap.S restores them. */
typedef struct {
  uint32_t x[32];
  uint32_t mepc;
  uint32_t mcause;
  uint32_t mtval;
  uint32_t mstatus; /* as it was in the handler, i.e. after trap entry */
} lq_trap_frame_t;

/* Returns true if it handled the exception (typically after moving mepc
   past the faulting instruction); false falls through to the default,
   which prints "trap: mcause=0x... mepc=0x... mtval=0x..." and ends the
   run with lq_exit_unhandled_trap(). */
typedef bool (*lq_exception_handler_t)(lq_trap_frame_t* frame);
typedef void (*lq_interrupt_handler_t)(void);

/* Each setter returns the handler it replaces; NULL restores the default. */
lq_exception_handler_t lq_trap_set_exception_handler(
    lq_exception_handler_t handler);
lq_interrupt_handler_t lq_trap_set_timer_handler(
    lq_interrupt_handler_t handler);
lq_interrupt_handler_t lq_trap_set_software_handler(
    lq_interrupt_handler_t handler);

/* Length in bytes (2 or 4) of the instruction at address pc. */
uint32_t lq_instruction_length(uint32_t pc);

/* Moves frame->mepc past the instruction that trapped. */
void lq_trap_skip_instruction(lq_trap_frame_t* frame);

/* Called by trap.S only. */
void lq_trap_dispatch(lq_trap_frame_t* frame);

/* The start of trap.S, which start.S installs in mtvec. */
void lq_trap_entry(void);

#endif /* LQ_TRAP_H_ */
