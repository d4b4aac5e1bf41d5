/*
 * boot.c: what the i.MX RT1062 boot ROM reads to start an image from FlexSPI
 * NOR flash (reference manual, chapter "System Boot"):
 *
 *   0x60000000  FlexSPI configuration block (512 bytes): how to talk to the
 *               Teensy 4.1's 8 MiB quad-SPI NOR flash (Winbond W25Q64JV):
 *               quad I/O fast read 0xEB, 24-bit addresses, 6 dummy cycles,
 *               60 MHz, read sample clock looped back from the SCK pad
 *   0x60001000  image vector table (IVT): header, entry point, boot data
 *   0x60001020  boot data: where the image starts and how long it is
 *
 * The layout below follows the documented field offsets; a test checks the
 * bytes of the built image.
 */
#include <stdint.h>

/* LUT instruction: opcode (6 bits), pads (2 bits), operand (8 bits), two
 * per 32-bit word. */
#define LUT(op0, pads0, arg0, op1, pads1, arg1) \
	((uint32_t)(arg0) | (uint32_t)(pads0) << 8 | (uint32_t)(op0) << 10 | \
	 (uint32_t)(arg1) << 16 | (uint32_t)(pads1) << 24 | (uint32_t)(op1) << 26)
enum { STOP = 0x00, CMD_SDR = 0x01, RADDR_SDR = 0x02, WRITE_SDR = 0x08, READ_SDR = 0x09,
	DUMMY_SDR = 0x0c };
enum { PAD1 = 0, PAD4 = 2 };

typedef struct {
	uint32_t tag;                 /* 0x000 "FCFB" */
	uint32_t version;             /* 0x004 */
	uint32_t reserved0;           /* 0x008 */
	uint8_t read_sample_clk_src;  /* 0x00c */
	uint8_t cs_hold_time;
	uint8_t cs_setup_time;
	uint8_t column_address_width;
	uint8_t device_mode_cfg_enable; /* 0x010 */
	uint8_t device_mode_type;
	uint16_t wait_time_cfg_commands;
	uint32_t device_mode_seq;     /* 0x014 */
	uint32_t device_mode_arg;     /* 0x018 */
	uint8_t config_cmd_enable;    /* 0x01c */
	uint8_t config_mode_type[3];
	uint32_t config_cmd_seqs[3];  /* 0x020 */
	uint32_t reserved1;           /* 0x02c */
	uint32_t config_cmd_args[3];  /* 0x030 */
	uint32_t reserved2;           /* 0x03c */
	uint32_t controller_misc_option; /* 0x040 */
	uint8_t device_type;          /* 0x044: 1 serial NOR */
	uint8_t sflash_pad_type;      /* 0x045: 4 pads */
	uint8_t serial_clk_freq;      /* 0x046: 3 = 60 MHz */
	uint8_t lut_custom_seq_enable;
	uint32_t reserved3[2];        /* 0x048 */
	uint32_t sflash_a1_size;      /* 0x050 */
	uint32_t sflash_a2_size, sflash_b1_size, sflash_b2_size;
	uint32_t pad_setting_override[4]; /* 0x060: cs, sclk, data, dqs */
	uint32_t timeout_ms;          /* 0x070 */
	uint32_t command_interval;    /* 0x074 */
	uint16_t data_valid_time[2];  /* 0x078 */
	uint16_t busy_offset;         /* 0x07c */
	uint16_t busy_bit_polarity;
	uint32_t lut[64];             /* 0x080: 16 sequences of 4 words */
	uint32_t lut_custom_seq[12];  /* 0x180 */
	uint32_t reserved4[4];        /* 0x1b0 */
	uint32_t page_size;           /* 0x1c0: serial NOR part */
	uint32_t sector_size;         /* 0x1c4 */
	uint8_t ipcmd_serial_clk_freq; /* 0x1c8 */
	uint8_t is_uniform_block_size;
	uint8_t reserved5[2];
	uint8_t serial_nor_type;      /* 0x1cc */
	uint8_t need_exit_nocmd_mode;
	uint8_t half_clk_for_non_read_cmd;
	uint8_t need_restore_nocmd_mode;
	uint32_t block_size;          /* 0x1d0 */
	uint32_t reserved6[11];       /* to 0x200 */
} flexspi_nor_config;

_Static_assert(sizeof(flexspi_nor_config) == 512, "the FlexSPI block is 512 bytes");

__attribute__((section(".boot_hdr.conf"), used))
static const flexspi_nor_config flexspi_config = {
	.tag = 0x42464346,            /* "FCFB" */
	.version = 0x56010400,        /* 1.4.0 */
	.read_sample_clk_src = 2,     /* loop back from the SCK pad */
	.cs_hold_time = 3,
	.cs_setup_time = 3,
	.device_type = 1,
	.sflash_pad_type = 4,
	.serial_clk_freq = 3,
	.sflash_a1_size = 8u << 20,
	.lut = {
		/* 0: read, quad I/O fast read */
		[0] = LUT(CMD_SDR, PAD1, 0xeb, RADDR_SDR, PAD4, 24),
		[1] = LUT(DUMMY_SDR, PAD4, 6, READ_SDR, PAD4, 4),
		/* 1: read status register */
		[4] = LUT(CMD_SDR, PAD1, 0x05, READ_SDR, PAD1, 4),
		/* 3: write enable */
		[12] = LUT(CMD_SDR, PAD1, 0x06, STOP, PAD1, 0),
		/* 5: erase 4 KiB sector */
		[20] = LUT(CMD_SDR, PAD1, 0x20, RADDR_SDR, PAD1, 24),
		/* 8: erase 64 KiB block */
		[32] = LUT(CMD_SDR, PAD1, 0xd8, RADDR_SDR, PAD1, 24),
		/* 9: page program */
		[36] = LUT(CMD_SDR, PAD1, 0x02, RADDR_SDR, PAD1, 24),
		[37] = LUT(WRITE_SDR, PAD1, 4, STOP, PAD1, 0),
		/* 11: chip erase */
		[44] = LUT(CMD_SDR, PAD1, 0x60, STOP, PAD1, 0),
	},
	.page_size = 256,
	.sector_size = 4096,
	.block_size = 65536,
};

extern void Reset_Handler(void);
extern const uint32_t _image_end[];

typedef struct {
	uint32_t start, size, plugin, reserved;
} boot_data_t;

__attribute__((section(".boot_hdr.boot_data"), used))
static const boot_data_t boot_data = {
	0x60000000u, (uint32_t)_image_end - 0x60000000u, 0, 0xffffffffu,
};

/* header: tag 0xD1, length 0x0020 (big-endian), version 0x41 */
__attribute__((section(".boot_hdr.ivt"), used))
static const uint32_t image_vector_table[8] = {
	0x412000d1u,
	(uint32_t)Reset_Handler,      /* entry: the first instruction (Thumb) */
	0,                            /* reserved */
	0,                            /* no device configuration data */
	(uint32_t)&boot_data,
	(uint32_t)image_vector_table, /* self */
	0,                            /* no signature (CSF) */
	0,
};
