// SPDX-License-Identifier: Apache-2.0
/* picolibc's stdout (and stderr) as a stream that writes to the UART, and hex
 * output without stdio. */
#include "lq/console.h"

#include <stdio.h>

#include "lq/uart.h"

/* "\n" is sent alone: the board's console and QEMU's -nographic both take
   it as a line end, and the ISS differential test compares lines. */
static int console_put(char c, FILE* stream) {
  (void)stream;
  lq_uart_putc(c);
  return (unsigned char)c;
}

static FILE console =
    FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);

FILE* const stdout = &console;
FILE* const stderr = &console;

void lq_console_put_hex32(uint32_t value) {
  static const char kDigits[] = "0123456789abcdef";
  lq_uart_puts("0x");
  for (int shift = 28; shift >= 0; shift -= 4) {
    lq_uart_putc(kDigits[(value >> shift) & 0xfu]);
  }
}
