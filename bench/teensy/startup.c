/*
 * startup.c: the device benchmark on a Teensy 4.1 (i.MX RT1062, Cortex-M7).
 *
 * The boot ROM jumps to Reset_Handler (the IVT's entry) with the core
 * clock the ROM left; nothing here changes the clocks, and time is counted
 * in core cycles with the DWT cycle counter, so the figures do not depend on
 * the clock. Results go out as CSV lines on LPUART6, Teensy pins 1 (TX) and
 * 0 (RX), 115200 8N1, clocked from the 24 MHz oscillator.
 *
 * Register addresses are from the i.MX RT1060 reference manual. This image
 * is checked for its boot header layout here, not run on a board: see the
 * README before trusting a board's figures.
 */
#include <stdint.h>
#include "../device.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
void Reset_Handler(void);
void startup(void);
static void Fault_Handler(void);
int main(void);

__attribute__((section(".vectors"), used, aligned(512)))
static void (*const vectors[16])(void) = {
	(void (*)(void))&_estack, Reset_Handler, Fault_Handler, Fault_Handler,
	Fault_Handler, Fault_Handler, Fault_Handler, 0, 0, 0, 0,
	Fault_Handler, Fault_Handler, 0, Fault_Handler, Fault_Handler,
};

#define REG32(a) (*(volatile uint32_t *)(a))
#define REG16(a) (*(volatile uint16_t *)(a))
/* core */
#define SCB_VTOR REG32(0xE000ED08)
#define SCB_CCR REG32(0xE000ED14)
#define SCB_CPACR REG32(0xE000ED88)
#define SCB_ICIALLU REG32(0xE000EF50)
#define DEMCR REG32(0xE000EDFC)
#define DWT_CTRL REG32(0xE0001000)
#define DWT_CYCCNT REG32(0xE0001004)
#define DWT_LAR REG32(0xE0001FB0)
/* watchdogs */
#define WDOG1_WMCR REG16(0x400B8008)
#define WDOG2_WMCR REG16(0x400D0008)
#define RTWDOG_CS REG32(0x400BC000)
#define RTWDOG_CNT REG32(0x400BC004)
#define RTWDOG_TOVAL REG32(0x400BC008)
/* LPUART6 on GPIO_AD_B0_02 (TX, pin 1) and GPIO_AD_B0_03 (RX, pin 0) */
#define CCM_CSCDR1 REG32(0x400FC024)
#define CCM_CCGR3 REG32(0x400FC074)
#define MUX_AD_B0_02 REG32(0x401F80C4)
#define MUX_AD_B0_03 REG32(0x401F80C8)
#define LPUART6_RX_SELECT REG32(0x401F8550)
#define LPUART6_TX_SELECT REG32(0x401F8554)
#define LPUART6_BAUD REG32(0x40198010)
#define LPUART6_STAT REG32(0x40198014)
#define LPUART6_CTRL REG32(0x40198018)
#define LPUART6_DATA REG32(0x4019801C)

/* The ROM may enter with any stack: set ours first, then run C. */
__attribute__((naked, used)) void
Reset_Handler(void)
{
	__asm__ volatile(
	    "ldr r0, =_estack\n\t"
	    "mov sp, r0\n\t"
	    "bl startup\n\t"
	    "b .\n\t");
}

static void
uart_init(void)
{
	CCM_CSCDR1 = (CCM_CSCDR1 & ~0x7Fu) | (1u << 6); /* UART clock: 24 MHz oscillator, /1 */
	CCM_CCGR3 |= 3u << 6;                           /* LPUART6 clock gate on */
	MUX_AD_B0_02 = 2;                               /* ALT2: LPUART6_TX */
	MUX_AD_B0_03 = 2;                               /* ALT2: LPUART6_RX */
	LPUART6_TX_SELECT = 1;
	LPUART6_RX_SELECT = 1;
	/* 24 MHz / (13 x 16) = 115385 baud, 0.16 % from 115200 */
	LPUART6_BAUD = (12u << 24) | 16u;
	LPUART6_CTRL = 1u << 19;                        /* transmitter on */
}

static void
uart_puts(const char *s)
{
	for (;; s++) {
		char c = *s ? *s : '\n';
		while (!(LPUART6_STAT & (1u << 23)))       /* TDRE */
			;
		LPUART6_DATA = (uint32_t)(unsigned char)c;
		if (!*s)
			break;
	}
}

static void
Fault_Handler(void)
{
	uart_puts("# fault");
	for (;;)
		;
}

/* DWT_CYCCNT wraps every 2^32 cycles (about 7 s at 600 MHz): fold it. */
static uint64_t cycles_total;
static uint32_t cycles_last;

static uint64_t
cycles(void)
{
	uint32_t now = DWT_CYCCNT;
	cycles_total += now - cycles_last;
	cycles_last = now;
	return cycles_total;
}

void
startup(void)
{
	/* The watchdogs' power-down counter and RTWDOG would reset a long run. */
	WDOG1_WMCR = 0;
	WDOG2_WMCR = 0;
	RTWDOG_CNT = 0xD928C520u;                       /* unlock */
	RTWDOG_TOVAL = 0xFFFF;
	RTWDOG_CS = (RTWDOG_CS & ~(1u << 7)) | (1u << 5); /* disable, allow update */

	for (uint32_t *s = &_sidata, *d = &_sdata; d < &_edata;)
		*d++ = *s++;
	for (uint32_t *d = &_sbss; d < &_ebss;)
		*d++ = 0;
	SCB_VTOR = (uint32_t)vectors;
	SCB_CPACR |= 0xFu << 20;                        /* FPU */
	__asm__ volatile("dsb\n\tisb");
	SCB_ICIALLU = 0;                                /* instruction cache on */
	__asm__ volatile("dsb\n\tisb");
	SCB_CCR |= 1u << 17;
	__asm__ volatile("dsb\n\tisb");
	DEMCR |= 1u << 24;                              /* trace: DWT */
	DWT_LAR = 0xC5ACCE55u;
	DWT_CYCCNT = 0;
	DWT_CTRL |= 1u;
	uart_init();
	main();
	for (;;)
		;
}

int
main(void)
{
	static const int sizes[] = { 40, 60, 80, 100, 120, 0 };
	bench_device_config c = {
		.target = "teensy41", .puts = uart_puts, .ticks = cycles, .tick_unit = "cycles",
		.updates = 20, .sizes = sizes, .seed = 1,
	};
	return bench_device_run(&c);
}
