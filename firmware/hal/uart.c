// SPDX-License-Identifier: Apache-2.0
/* Polled 16550 transmit: wait for THRE in LSR, write THR. */
#include "lq/uart.h"

#include <stdint.h>

#include "lq/board_map.h"

static volatile uint8_t* const uart = (volatile uint8_t*)LQ_UART_BASE;

void lq_uart_putc(char c) {
  while ((uart[LQ_UART_LSR] & LQ_UART_LSR_THRE) == 0) {
  }
  uart[LQ_UART_THR] = (uint8_t)c;
}

void lq_uart_puts(const char* s) {
  while (*s != '\0') {
    lq_uart_putc(*s++);
  }
}
