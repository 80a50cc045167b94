// SPDX-License-Identifier: Apache-2.0
/* The C side of trap handling: dispatches interrupts to the timer, software and
 * PLIC handlers and exceptions to the registered handler or the default report.
 */
#include "lq/trap.h"

#include <stddef.h>

#include "lq/clint.h"
#include "lq/console.h"
#include "lq/csr.h"
#include "lq/finisher.h"
#include "lq/plic.h"
#include "lq/uart.h"

static lq_exception_handler_t exception_handler;
static lq_interrupt_handler_t timer_handler;
static lq_interrupt_handler_t software_handler;

lq_exception_handler_t lq_trap_set_exception_handler(
    lq_exception_handler_t handler) {
  lq_exception_handler_t previous = exception_handler;
  exception_handler = handler;
  return previous;
}

lq_interrupt_handler_t lq_trap_set_timer_handler(
    lq_interrupt_handler_t handler) {
  lq_interrupt_handler_t previous = timer_handler;
  timer_handler = handler;
  return previous;
}

lq_interrupt_handler_t lq_trap_set_software_handler(
    lq_interrupt_handler_t handler) {
  lq_interrupt_handler_t previous = software_handler;
  software_handler = handler;
  return previous;
}

uint32_t lq_instruction_length(uint32_t pc) {
  /* Only the low two bits matter, and a halfword read never crosses into a
     page or window the instruction itself did not occupy. */
  uint16_t low_half = *(const volatile uint16_t*)pc;
  return (low_half & 3u) == 3u ? 4u : 2u;
}

void lq_trap_skip_instruction(lq_trap_frame_t* frame) {
  frame->mepc += lq_instruction_length(frame->mepc);
}

/* Reports a trap nobody handles and ends the run. It writes to the UART
   directly: the trap may have come from inside printf. */
static void report_and_exit(const char* what, const lq_trap_frame_t* frame) {
  lq_uart_puts(what);
  lq_uart_puts(": mcause=");
  lq_console_put_hex32(frame->mcause);
  lq_uart_puts(" mepc=");
  lq_console_put_hex32(frame->mepc);
  lq_uart_puts(" mtval=");
  lq_console_put_hex32(frame->mtval);
  lq_uart_puts("\n");
  lq_exit_unhandled_trap();
}

static void dispatch_interrupt(lq_trap_frame_t* frame) {
  uint32_t code = frame->mcause & ~LQ_MCAUSE_INTERRUPT;
  if (code == LQ_IRQ_M_TIMER && timer_handler != NULL) {
    timer_handler();
  } else if (code == LQ_IRQ_M_SOFTWARE && software_handler != NULL) {
    software_handler();
  } else if (code == LQ_IRQ_M_EXTERNAL) {
    lq_plic_dispatch();
  } else {
    /* An enabled interrupt without a handler would fire again at once. */
    report_and_exit("trap: unexpected interrupt", frame);
  }
}

void lq_trap_dispatch(lq_trap_frame_t* frame) {
  if ((frame->mcause & LQ_MCAUSE_INTERRUPT) != 0) {
    dispatch_interrupt(frame);
    return;
  }
  if (exception_handler != NULL && exception_handler(frame)) {
    return;
  }
  report_and_exit("trap", frame);
}
