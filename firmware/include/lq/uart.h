// SPDX-License-Identifier: Apache-2.0
/* Polled transmit on the board's 16550-compatible UART at 0x1000_0000. */
#ifndef LQ_UART_H_
#define LQ_UART_H_

#define LQ_UART_THR 0x0u       /* transmit holding register */
#define LQ_UART_LSR 0x5u       /* line status register */
#define LQ_UART_LSR_THRE 0x20u /* transmit holding register empty */

/* Sends one byte, waiting while the transmitter is busy. */
void lq_uart_putc(char c);

/* Sends a string as is (no "\r" is added before "\n"). */
void lq_uart_puts(const char* s);

#endif /* LQ_UART_H_ */
