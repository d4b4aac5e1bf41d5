/*
 * startup.c: the device benchmark under QEMU's mps2-an500 (Cortex-M7).
 *
 * Output goes through semihosting (SYS_WRITE0) and the program ends with
 * SYS_EXIT. Time is the SysTick counter on the processor clock: run under
 * "-icount shift=0" QEMU advances the clock by exactly one nanosecond per
 * instruction, so SysTick counts instructions, deterministically. The
 * instructions per tick are measured at start on a loop of known length.
 */
#include <stdint.h>
#include "../device.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
void Reset_Handler(void);
static void Default_Handler(void);
int main(void);

__attribute__((section(".vectors"), used))
static void (*const vectors[16])(void) = {
	(void (*)(void))&_estack, Reset_Handler, Default_Handler, Default_Handler,
	Default_Handler, Default_Handler, Default_Handler, 0, 0, 0, 0,
	Default_Handler, Default_Handler, 0, Default_Handler, Default_Handler,
};

#define REG(a) (*(volatile uint32_t *)(a))
#define SYST_CSR REG(0xE000E010)
#define SYST_RVR REG(0xE000E014)
#define SYST_CVR REG(0xE000E018)
#define CPACR REG(0xE000ED88)

static int
semihost(int op, const void *arg)
{
	register int r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

static void
sh_exit(int ok)
{
	/* ADP_Stopped_ApplicationExit, or ADP_Stopped_RunTimeErrorUnknown */
	semihost(0x18, (const void *)(uintptr_t)(ok ? 0x20026 : 0x20023));
	for (;;)
		;
}

static void
Default_Handler(void)
{
	semihost(0x04, "# fault\n");
	sh_exit(0);
}

static void
put_line(const char *s)
{
	static char buf[300];
	int n = 0;
	while (s[n] && n < 297) {
		buf[n] = s[n];
		n++;
	}
	buf[n++] = '\n';
	buf[n] = 0;
	semihost(0x04, buf);
}

/* SysTick is 24 bits and counts down; fold it into a 64-bit count. */
static uint64_t total;
static uint32_t last;
static uint32_t per_tick = 1;

static uint64_t
raw_ticks(void)
{
	uint32_t now = SYST_CVR;
	total += (last - now) & 0xFFFFFFu;
	last = now;
	return total;
}

static uint64_t
instructions(void)
{
	return raw_ticks() * per_tick;
}

/* A loop of 2 instructions per turn, 4,000,000 turns: 8,000,000 instructions. */
static void
calibrate(void)
{
	uint64_t t0 = raw_ticks();
	uint32_t n = 4000000;
	__asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
	uint64_t dt = raw_ticks() - t0;
	per_tick = dt ? (uint32_t)((8000000 + dt / 2) / dt) : 1;
}

void
Reset_Handler(void)
{
	for (uint32_t *s = &_sidata, *d = &_sdata; d < &_edata;)
		*d++ = *s++;
	for (uint32_t *d = &_sbss; d < &_ebss;)
		*d++ = 0;
	CPACR |= 0xFu << 20; /* CP10 and CP11: the FPU */
	__asm__ volatile("dsb\n\tisb");
	SYST_RVR = 0xFFFFFF;
	SYST_CVR = 0;
	SYST_CSR = 5; /* enable, processor clock, no interrupt */
	last = SYST_CVR;
	sh_exit(main() == 0);
}

#ifndef BENCH_SIZES
#define BENCH_SIZES 40, 60, 80, 100, 120
#endif
#ifndef BENCH_UPDATES
#define BENCH_UPDATES 20
#endif

int
main(void)
{
	static const int sizes[] = { BENCH_SIZES, 0 };
	calibrate();
	char msg[64] = "# instructions per SysTick tick: ";
	int n = 33;
	uint32_t v = per_tick, d = 1;
	while (v / d >= 10)
		d *= 10;
	for (; d; d /= 10)
		msg[n++] = (char)('0' + v / d % 10);
	msg[n] = 0;
	put_line(msg);
	bench_device_config c = {
		.target = "qemu-mps2-an500", .puts = put_line, .ticks = instructions,
		.tick_unit = "instructions", .updates = BENCH_UPDATES, .sizes = sizes, .seed = 1,
	};
	return bench_device_run(&c);
}
