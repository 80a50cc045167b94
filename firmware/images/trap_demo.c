// SPDX-License-Identifier: Apache-2.0
/* trap_demo: the smallest unhandled trap, a load from an address no device
 * decodes. No handler takes the load access fault, so the runtime's default
 * prints it and ends the run with lq_exit_unhandled_trap(): lqemu names the
 * trap (cause, pc, mtval) and exits 1, or first shows an attached GDB a
 * SIGSEGV whose backtrace leads to read_word(). */
#include <stdint.h>
#include <stdio.h>

#define NOTHING_THERE 0x60000000u /* between the devices and RAM */

static __attribute__((noinline)) uint32_t read_word(uintptr_t address) {
  return *(volatile const uint32_t*)address;
}

int main(void) {
  printf("reading 0x%08lx, where nothing answers\n",
         (unsigned long)NOTHING_THERE);
  uint32_t value = read_word(NOTHING_THERE);
  printf("read 0x%08lx: not reached\n", (unsigned long)value);
  return 0;
}
