// SPDX-License-Identifier: Apache-2.0
/* The console: picolibc's stdout on the UART (so printf works), plus output
 * helpers that use no stdio, for trap paths. */
#ifndef LQ_CONSOLE_H_
#define LQ_CONSOLE_H_

#include <stdint.h>

/* Writes "0x" and value as 8 hex digits without going through stdio. */
void lq_console_put_hex32(uint32_t value);

#endif /* LQ_CONSOLE_H_ */
