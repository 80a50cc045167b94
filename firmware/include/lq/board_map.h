// SPDX-License-Identifier: Apache-2.0
/* The virtual board's address map and interrupt numbers (docs/board.md): the
 * one place firmware takes them from. */
#ifndef LQ_BOARD_MAP_H_
#define LQ_BOARD_MAP_H_

/* Plain integer constants (no casts), so that assembly can include this too. */

/* SiFive-test compatible finisher: 0x5555 = exit 0, 0x3333 | code << 16 = exit
 * code. */
#define LQ_FINISHER_BASE 0x00100000u
#define LQ_FINISHER_SIZE 0x1000u

/* Board information block (docs/registers/board.md, generated board_regs.h). */
#define LQ_BOARD_INFO_BASE 0x00101000u
#define LQ_BOARD_INFO_SIZE 0x1000u

/* CLINT: msip, mtimecmp and mtime of hart 0; mtime counts at 10 MHz. */
#define LQ_CLINT_BASE 0x02000000u
#define LQ_CLINT_SIZE 0x10000u
#define LQ_CLINT_MSIP_OFFSET 0x0u
#define LQ_CLINT_MTIMECMP_OFFSET 0x4000u
#define LQ_CLINT_MTIME_OFFSET 0xbff8u
#define LQ_MTIME_HZ 10000000u

/* PLIC: sources 1-31, one context (hart 0, M-mode). */
#define LQ_PLIC_BASE 0x0c000000u
#define LQ_PLIC_SIZE 0x400000u
#define LQ_PLIC_PRIORITY_OFFSET 0x0u /* + 4 * source */
#define LQ_PLIC_PENDING_OFFSET 0x1000u
#define LQ_PLIC_ENABLE_OFFSET 0x2000u
#define LQ_PLIC_THRESHOLD_OFFSET 0x200000u
#define LQ_PLIC_CLAIM_OFFSET 0x200004u
#define LQ_PLIC_SOURCES 32u /* source 0 means "none" */

/* 16550-compatible UART, byte registers, transmit only. */
#define LQ_UART_BASE 0x10000000u
#define LQ_UART_SIZE 0x100u

/* Flash: read and execute only; text and read-only data live here. */
#define LQ_FLASH_BASE 0x20000000u
#define LQ_FLASH_SIZE 0x100000u

/* Link controller of port p at LQ_LC_BASE + LQ_LC_STRIDE * p. */
#define LQ_LC_BASE 0x40000000u
#define LQ_LC_STRIDE 0x1000u
#define LQ_LC_MAX_PORTS 8u

/* The router (docs/registers/router.md); only on a card of a fabric. */
#define LQ_ROUTER_BASE 0x40010000u

/* Reserved windows of the upper layers. */
#define LQ_TRANSPORT_BASE 0x40020000u
#define LQ_LOGICAL_UNIT_BASE 0x40030000u
#define LQ_RESERVED_WINDOW_SIZE 0x10000u

/* RAM: read, write, execute. */
#define LQ_RAM_BASE 0x80000000u
#define LQ_RAM_SIZE 0x100000u

/* The logical unit's window onto global addresses (LOG-3.8): offset o
   reaches GA GW_BASE + o. Only with a logical unit (DEVICES.LOGICAL). */
#define LQ_GLOBAL_WINDOW_BASE 0xc0000000u
#define LQ_GLOBAL_WINDOW_SIZE 0x10000000u

/* PLIC interrupt sources. */
#define LQ_IRQ_LC(port) (1u + (port)) /* link controller of port 0-7 */
#define LQ_IRQ_UART 10u
#define LQ_IRQ_LOGICAL_PAGE_FAULT 16u
#define LQ_IRQ_TRANSPORT_COMPLETION 17u

/* An address inside no window: a read of it is an access fault (mcause 5). */
#define LQ_UNMAPPED_ADDRESS 0x30000000u

#endif /* LQ_BOARD_MAP_H_ */
