/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Hardware facts of the Intel RDMA engines (X722 = GEN_1, E810 = GEN_2):
 * field layouts, opcodes and limits. The driver and the simulator both
 * include this file, so every layout is written down exactly once.
 */
#ifndef IRDMA_HWDEFS_H
#define IRDMA_HWDEFS_H

#include <linux/bits.h>

/* Generations of the RDMA engine. */
enum irdma_hw_gen {
	IRDMA_GEN_1 = 1,	/* X722, iWARP only */
	IRDMA_GEN_2 = 2,	/* E810, iWARP or RoCEv2 */
};

/* CQP WQE: the header quadword (byte offset 24) of every CQP command. */
#define IRDMA_CQP_WQE_SIZE		64
#define IRDMA_CQP_WQE_HDR_OFFSET	24
#define IRDMA_CQPSQ_OPCODE		GENMASK_ULL(37, 32)
#define IRDMA_CQPSQ_WQEVALID		BIT_ULL(63)

/* CQP opcodes (header bits 37:32), by what they act on. */
enum irdma_cqpop_qp {	/* queue pairs */
	IRDMA_CQPOP_CREATE_QP = 0x00,
	IRDMA_CQPOP_MODIFY_QP = 0x01,
	IRDMA_CQPOP_DESTROY_QP = 0x02,
	IRDMA_CQPOP_SUSPEND_QP = 0x29,
	IRDMA_CQPOP_RESUME_QP = 0x2a,
};

enum irdma_cqpop_qp_work {	/* a queue pair's work and state */
	IRDMA_CQPOP_FLUSH_WQES = 0x22,
	IRDMA_CQPOP_GEN_AE = 0x22,	/* the same code */
	IRDMA_CQPOP_UPLOAD_CONTEXT = 0x13,
};

enum irdma_cqpop_cq {	/* completion queues */
	IRDMA_CQPOP_CREATE_CQ = 0x03,
	IRDMA_CQPOP_MODIFY_CQ = 0x04,
	IRDMA_CQPOP_DESTROY_CQ = 0x05,
};

enum irdma_cqpop_stag {	/* memory regions and windows */
	IRDMA_CQPOP_ALLOC_STAG = 0x09,
	IRDMA_CQPOP_REG_MR = 0x0a,
	IRDMA_CQPOP_QUERY_STAG = 0x0b,
	IRDMA_CQPOP_REG_SMR = 0x0c,
	IRDMA_CQPOP_DEALLOC_STAG = 0x0d,
};

enum irdma_cqpop_eq {	/* event queues */
	IRDMA_CQPOP_CREATE_CEQ = 0x16,
	IRDMA_CQPOP_DESTROY_CEQ = 0x18,
	IRDMA_CQPOP_CREATE_AEQ = 0x19,
	IRDMA_CQPOP_DESTROY_AEQ = 0x1b,
};

enum irdma_cqpop_hmc {	/* the HMC */
	IRDMA_CQPOP_QUERY_FPM_VAL = 0x20,
	IRDMA_CQPOP_COMMIT_FPM_VAL = 0x21,
	IRDMA_CQPOP_UPDATE_PE_SDS = 0x1f,
	IRDMA_CQPOP_SHMC_PAGES_ALLOCATED = 0x2b,
	IRDMA_CQPOP_MANAGE_HMC_PM_FUNC_TABLE = 0x15,
};

enum irdma_cqpop_vf {	/* virtual functions */
	IRDMA_CQPOP_MANAGE_VF_PBLE_BP = 0x10,
};

enum irdma_cqpop_ah {	/* address handles */
	IRDMA_CQPOP_CREATE_ADDR_HANDLE = 0x1c,
	IRDMA_CQPOP_MODIFY_ADDR_HANDLE = 0x1d,
	IRDMA_CQPOP_DESTROY_ADDR_HANDLE = 0x1e,
};

enum irdma_cqpop_l2 {	/* addresses and ports */
	IRDMA_CQPOP_MANAGE_ARP = 0x0f,
	IRDMA_CQPOP_MANAGE_LOC_MAC_TABLE = 0x0e,
	IRDMA_CQPOP_ALLOCATE_LOC_MAC_TABLE_ENTRY = 0x14,
	IRDMA_CQPOP_MANAGE_APBVT = 0x23,
	IRDMA_CQPOP_MANAGE_QUAD_HASH_TABLE_ENTRY = 0x25,
};

enum irdma_cqpop_mcast {	/* multicast groups */
	IRDMA_CQPOP_CREATE_MCAST_GRP = 0x26,
	IRDMA_CQPOP_MODIFY_MCAST_GRP = 0x27,
	IRDMA_CQPOP_DESTROY_MCAST_GRP = 0x28,
};

enum irdma_cqpop_qos {	/* scheduling and priorities */
	IRDMA_CQPOP_WORK_SCHED_NODE = 0x2c,
	IRDMA_CQPOP_UP_MAP = 0x2f,
};

enum irdma_cqpop_stats {	/* statistics */
	IRDMA_CQPOP_MANAGE_STATS = 0x2d,
	IRDMA_CQPOP_GATHER_STATS = 0x2e,
};

enum irdma_cqpop_dev {	/* the device */
	IRDMA_CQPOP_MANAGE_PUSH_PAGES = 0x11,
	IRDMA_CQPOP_QUERY_RDMA_FEATURES = 0x12,
	IRDMA_CQPOP_NOP = 0x24,
};

/* Work queue geometry: a WQE is 1 to 8 quanta of 32 bytes. */
#define IRDMA_WQE_QUANTUM_SIZE		32
#define IRDMA_MAX_QUANTA_PER_WR		8
#define IRDMA_SQ_RSVD			258	/* quanta the SQ keeps free */
#define IRDMA_RQ_RSVD			1
#define IRDMA_QP_SW_MAX_WQ_QUANTA	32768
#define IRDMA_QP_SW_MAX_RQ_QUANTA	32768

/* GEN_2 (E810) limits. */
#define IRDMA_GEN2_MAX_WQ_FRAGS		13
#define IRDMA_GEN2_MAX_READ_SGES	13
#define IRDMA_GEN2_MAX_INLINE		101
#define IRDMA_GEN2_MIN_WQ_SIZE		8	/* WQEs */
#define IRDMA_GEN2_MAX_IRD		127
#define IRDMA_GEN2_MAX_ORD		255
#define IRDMA_MIN_CQ_SIZE		1
#define IRDMA_MAX_CQ_SIZE		1048575

/* GEN_1 (X722) limits. */
#define IRDMA_GEN1_MAX_WQ_FRAGS		3
#define IRDMA_GEN1_MAX_READ_SGES	1
#define IRDMA_GEN1_MAX_INLINE		48
#define IRDMA_GEN1_MIN_WQ_SIZE		4	/* WQEs */
#define IRDMA_GEN1_MAX_QUANTA_PER_WR	2
#define IRDMA_GEN1_MAX_WQ_QUANTA	2048
#define IRDMA_GEN1_MAX_RQ_QUANTA	16384
#define IRDMA_GEN1_MAX_IRD		63
#define IRDMA_GEN1_MAX_ORD		127

/* Access rights as MR and MW contexts encode them, one bit each. */
#define IRDMA_MR_RIGHT_LOCAL_READ	BIT(0)
#define IRDMA_MR_RIGHT_LOCAL_WRITE	BIT(1)
#define IRDMA_MR_RIGHT_REMOTE_READ	BIT(2)
#define IRDMA_MR_RIGHT_REMOTE_WRITE	BIT(3)
#define IRDMA_MR_RIGHT_BIND_WINDOW	BIT(4)
#define IRDMA_MR_RIGHT_ZERO_BASED	BIT(5)

/* Minor error codes a CQE carries for flushed or failed work. */
enum irdma_flush_opcode {
	IRDMA_FLUSH_INVALID = 0,
	IRDMA_FLUSH_GENERAL_ERR,
	IRDMA_FLUSH_PROT_ERR,
	IRDMA_FLUSH_REM_ACCESS_ERR,
	IRDMA_FLUSH_LOC_QP_OP_ERR,
	IRDMA_FLUSH_REM_OP_ERR,
	IRDMA_FLUSH_LOC_LEN_ERR,
	IRDMA_FLUSH_FATAL_ERR,
	IRDMA_FLUSH_RETRY_EXC_ERR,
	IRDMA_FLUSH_MW_BIND_ERR,
	IRDMA_FLUSH_REM_INV_REQ_ERR,
};

/*
 * GEN_2 (E810) PF registers, as offsets into BAR0. All are 32 bits wide.
 */
#define IRDMA_GLPCI_LBARCTRL		0x0009de74
#define IRDMA_GLINT_RATE(v)		(0x0015a000 + 4 * (v))
#define IRDMA_GLINT_CEQCTL(ceq)		(0x0015c000 + 4 * (ceq))
#define IRDMA_GLINT_DYN_CTL(v)		(0x00160000 + 4 * (v))
#define IRDMA_PFINT_AEQCTL		0x0016cb00
#define IRDMA_VSIQF_PE_CTL1(vsi)	(0x00414000 + 4 * (vsi))
#define IRDMA_PFPE_CQPDB		0x00500800
#define IRDMA_PFPE_CQPTAIL		0x00500880
#define IRDMA_PFPE_CQARM		0x00502c00
#define IRDMA_PFPE_CQACK		0x00502c80
#define IRDMA_PFPE_AEQALLOC		0x00502d00
#define IRDMA_PFPE_WQEALLOC		0x00504400
#define IRDMA_PFPE_CCQPSTATUS		0x0050a000
#define IRDMA_PFPE_CCQPLOW		0x0050a080
#define IRDMA_PFPE_CCQPHIGH		0x0050a100
#define IRDMA_PFPE_CQPERRCODES		0x0050a200
#define IRDMA_GLPE_CPUSTATUS(n)		(0x0050ba5c + 4 * (n))	/* n = 0..2 */
#define IRDMA_PFHMC_PDINV		0x00520300
#define IRDMA_GLHMC_VFPDINV(vf)		(0x00528300 + 4 * (vf))
#define IRDMA_GLPE_CRITERR		0x00534000
/* The user-space doorbell page; push pages follow at 8 MiB. */
#define IRDMA_DB_ADDR_OFFSET		(8 * 1024 * 1024 - 64 * 1024)

/* Register fields. */
#define IRDMA_LBARCTRL_PE_DB_SIZE	GENMASK(5, 4)	/* 1: 4 MiB, 2: 8 MiB */
#define IRDMA_CPUSTATUS_PE_READY	0x80
#define IRDMA_CCQPSTATUS_DONE		BIT(0)
#define IRDMA_CCQPSTATUS_ERR		BIT(31)
#define IRDMA_CQPTAIL_WQTAIL		GENMASK(10, 0)
#define IRDMA_CQPTAIL_OP_ERR		BIT(31)
#define IRDMA_CQPERRCODES_MINOR		GENMASK(15, 0)
#define IRDMA_CQPERRCODES_MAJOR		GENMASK(31, 16)
#define IRDMA_DYN_CTL_INTENA		BIT(0)
#define IRDMA_DYN_CTL_CLEARPBA		BIT(1)
#define IRDMA_DYN_CTL_ITR_INDX		GENMASK(4, 3)
#define IRDMA_DYN_CTL_INTERVAL		GENMASK(16, 5)
#define IRDMA_INTCTL_MSIX_INDX		GENMASK(10, 0)	/* CEQCTL, AEQCTL */
#define IRDMA_INTCTL_ITR_INDX		GENMASK(12, 11)
#define IRDMA_INTCTL_CAUSE_ENA		BIT(30)
#define IRDMA_PDINV_PMSDIDX		GENMASK(11, 0)
#define IRDMA_PDINV_PMSDPARTSEL		BIT(15)
#define IRDMA_PDINV_PMPDIDX		GENMASK(24, 16)

/*
 * CQP host context: 64 bytes the driver fills and hands over through
 * CCQPHIGH/CCQPLOW to create the CQP.
 */
#define IRDMA_CQPHC_SIZE		64
#define IRDMA_CQPHC_DISABLE_PFPDUS	BIT_ULL(1)	/* qword 0 */
#define IRDMA_CQPHC_ROCEV2_RTO_POLICY	BIT_ULL(2)
#define IRDMA_CQPHC_PROTOCOL_USED	GENMASK_ULL(4, 3)
#define IRDMA_CQPHC_SQSIZE		GENMASK_ULL(11, 8)	/* log2(size / 4) + 1 */
#define IRDMA_CQPHC_SVER		GENMASK_ULL(31, 24)
#define IRDMA_CQPHC_CEQPERVF		GENMASK_ULL(39, 32)
#define IRDMA_CQPHC_HMC_PROFILE		GENMASK_ULL(2, 0)	/* qword 2 */
#define IRDMA_CQPHC_ENABLED_VFS		GENMASK_ULL(37, 32)
#define IRDMA_CQPHC_HW_MINVER		GENMASK_ULL(15, 0)	/* qword 4 */
#define IRDMA_CQPHC_HW_MAJVER		GENMASK_ULL(31, 16)
/* qword 1: SQ base address; qword 3: completion context, echoed in CQEs */

#define IRDMA_PROTOCOL_USED_ANY		0
#define IRDMA_PROTOCOL_USED_IWARP_ONLY	1
#define IRDMA_PROTOCOL_USED_ROCE_ONLY	2
#define IRDMA_HMC_PROFILE_DEFAULT	1
#define IRDMA_HW_MAJVER_GEN_2		1

#define IRDMA_CQP_SW_SQSIZE		2048	/* entries in the CQP SQ */
#define IRDMA_CQP_MIN_SQSIZE		4

/* A CQP WQE: byte 24 is the header, the others vary by opcode. */
#define IRDMA_CQPSQ_BUFSIZE		GENMASK_ULL(31, 0)	/* header */

/* CCQ completion (a 32-byte CQE on CQ 0). */
#define IRDMA_CQE_SIZE			32
#define IRDMA_CCQE_OPRETVAL		GENMASK_ULL(31, 0)	/* qword 2 */
#define IRDMA_CCQE_MINERR		GENMASK_ULL(15, 0)	/* qword 3 */
#define IRDMA_CCQE_MAJERR		GENMASK_ULL(31, 16)
#define IRDMA_CCQE_WQEIDX		GENMASK_ULL(46, 32)
#define IRDMA_CCQE_ERROR		BIT_ULL(55)
#define IRDMA_CQE_VALID			BIT_ULL(63)
/* qword 1 of a CCQE: the CQP completion context */

/*
 * A completion on a data CQ: 32 bytes, followed in the next ring slot by
 * 32 more when the extended bit is set (immediate data, UD source MAC and
 * VLAN). qword 1 echoes the QP's completion context.
 */
#define IRDMA_CQE_PAYLDLEN		GENMASK_ULL(31, 0)	/* qword 0 */
#define IRDMA_CQE_TCPSEQ		GENMASK_ULL(63, 32)
#define IRDMA_CQE_INVSTAG		GENMASK_ULL(31, 0)	/* qword 2 */
#define IRDMA_CQE_UDSRCQPN		GENMASK_ULL(31, 0)	/* (UD QPs) */
#define IRDMA_CQE_QPID			GENMASK_ULL(55, 32)
#define IRDMA_CQE_MINERR		GENMASK_ULL(15, 0)	/* qword 3 */
#define IRDMA_CQE_MAJERR		GENMASK_ULL(31, 16)
#define IRDMA_CQE_WQEIDX		GENMASK_ULL(46, 32)
#define IRDMA_CQE_EXTENDED		BIT_ULL(50)
#define IRDMA_CQE_PSHDROP		BIT_ULL(51)
#define IRDMA_CQE_STAG			BIT_ULL(53)	/* RQ: stag invalidated */
#define IRDMA_CQE_IPV4			BIT_ULL(53)	/* UD: IPv4 header */
#define IRDMA_CQE_SOEVENT		BIT_ULL(54)
#define IRDMA_CQE_ERROR			BIT_ULL(55)
#define IRDMA_CQE_OPTYPE		GENMASK_ULL(61, 56)
#define IRDMA_CQE_SQ			BIT_ULL(62)
#define IRDMA_CQE_EXT_IMMDATA		GENMASK_ULL(31, 0)	/* ext qword 0 */
#define IRDMA_CQE_EXT_UDSMAC		GENMASK_ULL(47, 0)	/* ext qword 2 */
#define IRDMA_CQE_EXT_UDVLAN		GENMASK_ULL(63, 48)
#define IRDMA_CQE_EXT_UDVLANVALID	BIT_ULL(60)		/* ext qword 3 */
#define IRDMA_CQE_EXT_UDSMACVALID	BIT_ULL(61)
#define IRDMA_CQE_EXT_IMMVALID		BIT_ULL(62)
#define IRDMA_CQE_MAJ_FLUSH		1	/* minor: enum irdma_flush_opcode */

/* Work request opcodes: a SQ WQE's and its CQE's op type. */
enum irdma_wqe_op {
	IRDMA_WQEOP_RDMA_WRITE = 0x00,
	IRDMA_WQEOP_RDMA_READ = 0x01,
	IRDMA_WQEOP_SEND = 0x03,
	IRDMA_WQEOP_SEND_INV = 0x04,
	IRDMA_WQEOP_SEND_SOL = 0x05,
	IRDMA_WQEOP_SEND_SOL_INV = 0x06,
	IRDMA_WQEOP_RDMA_WRITE_SOL = 0x0d,
	IRDMA_WQEOP_BIND_MW = 0x08,
	IRDMA_WQEOP_FAST_REG_NSMR = 0x09,
	IRDMA_WQEOP_INV_STAG = 0x0a,
	IRDMA_WQEOP_RDMA_READ_INV_STAG = 0x0b,
	IRDMA_WQEOP_NOP = 0x0c,
	IRDMA_WQEOP_REC = 0x3e,
	IRDMA_WQEOP_REC_IMM = 0x3f,
};

/* CQ shadow area (64 bytes): consumer index and arm word. */
#define IRDMA_CQ_SHADOW_SIZE		64
#define IRDMA_CQ_DBSA_CQEIDX		GENMASK_ULL(19, 0)	/* qword 0 */
#define IRDMA_CQ_DBSA_SW_CQ_SELECT	GENMASK_ULL(13, 0)	/* qword 4 */
#define IRDMA_CQ_DBSA_ARM_NEXT		BIT_ULL(14)
#define IRDMA_CQ_DBSA_ARM_NEXT_SE	BIT_ULL(15)
#define IRDMA_CQ_DBSA_ARM_SEQ_NUM	GENMASK_ULL(17, 16)

/* CREATE_CQ / MODIFY_CQ / DESTROY_CQ */
#define IRDMA_CQCMD_SHADOW_READ_THRESHOLD GENMASK_ULL(17, 0)	/* qword 2 */
#define IRDMA_CQCMD_CQID		GENMASK_ULL(18, 0)	/* header */
#define IRDMA_CQCMD_CEQID		GENMASK_ULL(31, 22)
#define IRDMA_CQCMD_CQRESIZE		BIT_ULL(43)
#define IRDMA_CQCMD_LPBLSIZE		GENMASK_ULL(45, 44)
#define IRDMA_CQCMD_CHKOVERFLOW	BIT_ULL(46)
#define IRDMA_CQCMD_VIRTMAP		BIT_ULL(47)
#define IRDMA_CQCMD_ENCEQEMASK	BIT_ULL(48)
#define IRDMA_CQCMD_CEQIDVALID	BIT_ULL(49)
#define IRDMA_CQPSQ_TPHEN		BIT_ULL(60)
#define IRDMA_CQCMD_AVOIDMEMCNFLCT	BIT_ULL(61)
#define IRDMA_CQPSQ_FIRSTPMPBLIDX	GENMASK_ULL(27, 0)	/* qword 6 */
#define IRDMA_CQPSQ_TPHVAL		GENMASK_ULL(7, 0)	/* qword 7 */
#define IRDMA_CQPSQ_VSIIDX		GENMASK_ULL(17, 8)
#define IRDMA_CCQ_SIZE			(IRDMA_CQP_SW_SQSIZE + 1)
#define IRDMA_CQ_TYPE_CQP		4

/* CREATE_CEQ / DESTROY_CEQ, CREATE_AEQ / DESTROY_AEQ */
#define IRDMA_CQPSQ_CEQ_CEQID		GENMASK_ULL(9, 0)	/* header */
#define IRDMA_CQPSQ_CEQ_ITRNOEXPIRE	BIT_ULL(46)
#define IRDMA_CQPSQ_EQ_VMAP		BIT_ULL(47)
#define IRDMA_CEQE_SIZE			8
#define IRDMA_CEQE_CQCTX		GENMASK_ULL(62, 0)
#define IRDMA_CEQE_VALID		BIT_ULL(63)
#define IRDMA_MAX_CEQ_ENTRIES		262143
#define IRDMA_AEQE_SIZE			16
#define IRDMA_AEQE_QPCQID_LOW		GENMASK_ULL(17, 0)	/* qword 1 */
#define IRDMA_AEQE_WQDESCIDX		GENMASK_ULL(32, 18)
#define IRDMA_AEQE_OVERFLOW		BIT_ULL(33)
#define IRDMA_AEQE_AECODE		GENMASK_ULL(45, 34)
#define IRDMA_AEQE_QPCQID_HI		BIT_ULL(46)
#define IRDMA_AEQE_AESRC		GENMASK_ULL(53, 50)
#define IRDMA_AEQE_IWSTATE		GENMASK_ULL(56, 54)
#define IRDMA_AEQE_TCPSTATE		GENMASK_ULL(60, 57)
#define IRDMA_AEQE_Q2DATA		GENMASK_ULL(62, 61)
#define IRDMA_AEQE_VALID		BIT_ULL(63)
#define IRDMA_MAX_AEQ_ENTRIES		524287

/*
 * QUERY_FPM_VAL / COMMIT_FPM_VAL: qword 2 carries the HMC function id,
 * qword 4 the buffer's address. Both buffers have one qword per object.
 */
#define IRDMA_FPM_BUF_SIZE		176
#define IRDMA_CQPSQ_HMCFNID		GENMASK_ULL(5, 0)
#define IRDMA_QUERY_FPM_FIRST_PE_SD_INDEX GENMASK_ULL(13, 0)	/* qword 0 */
#define IRDMA_QUERY_FPM_MAX_PE_SDS	GENMASK_ULL(45, 32)
#define IRDMA_QUERY_FPM_MAX_QPS		GENMASK_ULL(18, 0)
#define IRDMA_QUERY_FPM_MAX_CQS		GENMASK_ULL(19, 0)
#define IRDMA_QUERY_FPM_COUNT		GENMASK_ULL(31, 0)
#define IRDMA_QUERY_FPM_SIZE_SHIFT	GENMASK_ULL(63, 32)	/* or block size */
#define IRDMA_QUERY_FPM_MAX_CEQS	GENMASK_ULL(9, 0)	/* qword 15 */
#define IRDMA_QUERY_FPM_HTMULTIPLIER	GENMASK_ULL(19, 16)
#define IRDMA_QUERY_FPM_TIMERBUCKET	GENMASK_ULL(47, 32)
#define IRDMA_COMMIT_FPM_QPCNT		GENMASK_ULL(18, 0)
#define IRDMA_COMMIT_FPM_CQCNT		GENMASK_ULL(19, 0)
#define IRDMA_COMMIT_FPM_COUNT		GENMASK_ULL(31, 0)
#define IRDMA_COMMIT_FPM_BASE		GENMASK_ULL(63, 32)	/* 512-byte units */
#define IRDMA_FPM_BASE_UNIT		512

/* HMC objects, in the order of their qwords in the FPM buffers. */
enum irdma_hmc_obj {
	IRDMA_HMC_QP,
	IRDMA_HMC_CQ,
	IRDMA_HMC_RSRVD,
	IRDMA_HMC_HTE,
	IRDMA_HMC_ARP,
	IRDMA_HMC_APBVT,
	IRDMA_HMC_MR,
	IRDMA_HMC_XF,
	IRDMA_HMC_XFFL,
	IRDMA_HMC_Q1,
	IRDMA_HMC_Q1FL,
	IRDMA_HMC_TIMER,
	IRDMA_HMC_FSIMC,
	IRDMA_HMC_FSIAV,
	IRDMA_HMC_PBLE,
	IRDMA_HMC_RRF,
	IRDMA_HMC_RRFFL,
	IRDMA_HMC_HDR,
	IRDMA_HMC_MD,
	IRDMA_HMC_OOISC,
	IRDMA_HMC_OOISCFFL,
	IRDMA_HMC_OBJ_COUNT
};

/*
 * Where each object's qword sits in the two FPM buffers. The query buffer
 * opens with the segment qword and has no APBVT slot; both have the misc
 * (query) or a reserved (commit) qword between the PBLEs and the RRFs.
 */
#define IRDMA_QUERY_FPM_MISC_QWORD	15

static inline unsigned int irdma_fpm_query_qword(enum irdma_hmc_obj obj)
{
	if (obj < IRDMA_HMC_APBVT || obj > IRDMA_HMC_PBLE)
		return obj + 1;
	return obj;	/* APBVT has none: MR..PBLE close up */
}

static inline unsigned int irdma_fpm_commit_qword(enum irdma_hmc_obj obj)
{
	return obj > IRDMA_HMC_PBLE ? obj + 1 : obj;
}

#define IRDMA_APBVT_SIZE		8192
#define IRDMA_FL_OBJ_SIZE		4	/* the free-list objects */
#define IRDMA_PBLE_SIZE			8

/* Segment descriptors: 2 MiB of FPM space each, in 4 KiB pages. */
#define IRDMA_HMC_SD_SIZE		0x200000
#define IRDMA_HMC_PD_SIZE		4096
#define IRDMA_HMC_PDS_PER_SD		512
#define IRDMA_HMC_MAX_SD_PER_CMD	11
#define IRDMA_SD_CMD_IDX		GENMASK(14, 0)
#define IRDMA_SD_CMD_PARTSEL		BIT(15)
#define IRDMA_SD_CMD_WRITE		BIT(31)
#define IRDMA_SD_DATA_VALID		BIT_ULL(0)
#define IRDMA_SD_DATA_DIRECT		BIT_ULL(1)	/* else paged */
#define IRDMA_SD_DATA_BPCOUNT		GENMASK_ULL(11, 2)
#define IRDMA_SD_DATA_ADDR		GENMASK_ULL(63, 12)
#define IRDMA_PD_VALID			BIT_ULL(0)
/* UPDATE_PE_SDS: entries 0..2 in the WQE, the rest in a buffer */
#define IRDMA_CQPSQ_UPESD_ENTRY_COUNT	GENMASK_ULL(3, 0)	/* header */
#define IRDMA_CQPSQ_UPESD_ENTRY_VALID	BIT_ULL(63)	/* qwords 4, 6 */
#define IRDMA_CQPSQ_UPESD_SDCMD		GENMASK_ULL(31, 0)
#define IRDMA_UPESD_BUF_SIZE		128	/* per CQP WQE */

/* QUERY_RDMA_FEATURES: one qword per feature, the count in qword 0. */
#define IRDMA_FEATURE_BUF_ENTRIES	27
#define IRDMA_FEATURE_TYPE		GENMASK_ULL(63, 48)
#define IRDMA_FEATURE_CNT		GENMASK_ULL(47, 32)
#define IRDMA_FEATURE_INFO		GENMASK_ULL(47, 0)
#define IRDMA_FW_VER_MINOR		GENMASK_ULL(15, 0)
#define IRDMA_FW_VER_MAJOR		GENMASK_ULL(31, 16)
#define IRDMA_FEATURE_FW_INFO		0
#define IRDMA_FEATURE_HW_VERSION_INFO	1

/* MANAGE_ARP: an entry of the ARP table; qword 1 reach max, 2 the MAC. */
#define IRDMA_CQPSQ_ARP_INDEX		GENMASK_ULL(11, 0)	/* header */
#define IRDMA_CQPSQ_ARP_ENTRYVALID	BIT_ULL(42)
#define IRDMA_CQPSQ_ARP_PERMANENT	BIT_ULL(43)
#define IRDMA_CQPSQ_ARP_QUERY		BIT_ULL(44)
#define IRDMA_CQPSQ_ARP_MACADDR		GENMASK_ULL(47, 0)

/* GATHER_STATS: the engine writes its counters to the buffer in qword 4. */
#define IRDMA_STATS_BUF_SIZE		1024
#define IRDMA_CQPSQ_STATS_INST_INDEX	GENMASK_ULL(6, 0)	/* header */
#define IRDMA_CQPSQ_STATS_USE_HMC_FCN	BIT_ULL(60)
#define IRDMA_CQPSQ_STATS_USE_INST	BIT_ULL(61)
#define IRDMA_CQPSQ_STATS_ALLOC_INST	BIT_ULL(62)

/* CQP completion error codes. */
#define IRDMA_CQP_MAJ_NO_ERROR		0x0000
#define IRDMA_CQP_MAJ_OBJCACHE_ERROR	0xf000
#define IRDMA_CQP_MAJ_CNTXTCACHE_ERROR	0xf001
#define IRDMA_CQP_MAJ_ERROR		0xffff
#define IRDMA_CQP_MIN_INVALID_STATE	0x8002

#endif /* IRDMA_HWDEFS_H */
