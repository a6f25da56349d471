// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Compare two drivers' traces of one workload on the simulated E810
 * (tests/vm/trace-workload.sh): the irdma_sim tracepoints' CQP commands,
 * WQEs, QP contexts and ice calls, phase by phase.
 *
 * Each event becomes a record in which every field that names memory
 * (addresses, PBLE indices), a random value (keys, PSNs) or an object
 * number is masked: a masked field reads as its class (ADDR, STAG, QP,
 * ...), the rest as the hex value of its qword without it. Object numbers
 * are compared separately, as the set of each class a phase used (the
 * order in which two processes number their objects is a race). A few
 * commands whose count follows the clock (GATHER_STATS) count once.
 *
 * The records of a phase are compared as multisets; a difference the
 * list of explained ones (Documentation/infiniband/irdma_sim.rst) matches
 * is reported as explained, any other as a failure.
 *
 *   trace-diff STOCK-TRACE OURS-TRACE EXPLAINED
 *
 * EXPLAINED holds lines "SIDE PHASES REGEX": SIDE is -, + or * (the
 * stock driver's surplus, ours, either), PHASES phase names separated by
 * commas or *, REGEX a POSIX extended expression the record must match.
 *
 * Exit: 0 when every difference is explained, 1 otherwise, 2 on errors.
 */
#include <ctype.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#define MAX_Q		64
#define MAX_PHASES	32
#define REC_LEN		1536
#define GENMASK(h, l)	(((~0ULL) >> (63 - (h))) & ~((1ULL << (l)) - 1))
#define BIT(n)		(1ULL << (n))

enum cls { C_ADDR, C_STAG, C_PBLE, C_RING, C_PSN, C_CQCTX, C_VMAP, C_DATA,
	   C_FLOW, C_ARP, C_PORT, C_SEQ, C_QP, C_CQ, C_PD, C_AH, C_MCG, C_NCLS };

static const char *const cls_name[C_NCLS] = {
	"ADDR", "STAG", "PBLE", "RING", "PSN", "CQCTX", "VMAP", "DATA",
	"FLOW", "ARP", "PORT", "SEQ", "QP", "CQ", "PD", "AH", "MCG",
};

/* Classes whose numbers are compared as sets. */
#define FIRST_ID_CLASS	C_QP

struct mask {
	int q;		/* qword; -1 ends a list */
	__u64 bits;
	enum cls cls;
};

struct ids {
	__u64 *v;
	int n, cap;
};

struct phase {
	char name[32];
	char **rec;
	int n, cap;
	struct ids ids[C_NCLS];
	int cqps, wqes, ctxs, ices;
};

struct trace {
	struct phase ph[MAX_PHASES];
	int nph;
};

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void *grow(void *p, int *cap, size_t size)
{
	*cap = *cap ? 2 * *cap : 64;
	p = realloc(p, *cap * size);
	if (!p)
		die("realloc");
	return p;
}

static void add_id(struct phase *ph, enum cls c, __u64 v)
{
	struct ids *s = &ph->ids[c];
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return;
	if (s->n == s->cap)
		s->v = grow(s->v, &s->cap, sizeof(*s->v));
	s->v[s->n++] = v;
}

static void add_rec(struct phase *ph, const char *rec)
{
	if (ph->n == ph->cap)
		ph->rec = grow(ph->rec, &ph->cap, sizeof(*ph->rec));
	ph->rec[ph->n] = strdup(rec);
	if (!ph->rec[ph->n++])
		die("strdup");
}

static void cat(char *buf, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + len, REC_LEN - len, fmt, ap);
	va_end(ap);
}

static __u64 field(__u64 v, __u64 bits)
{
	return (v & bits) >> __builtin_ctzll(bits);
}

/*
 * Print qwords with their masked fields taken out and named; object
 * numbers go to the phase's sets.
 */
static void put_qwords(char *buf, struct phase *ph, const __u64 *q, int n,
		       const struct mask *m, const char *const *names)
{
	int i, j;

	for (i = 0; i < n; i++) {
		__u64 v = q[i], masked = 0;
		char tags[128] = "";

		for (j = 0; m && m[j].q >= 0; j++) {
			__u64 f;

			if (m[j].q != i || !(v & m[j].bits))
				continue;
			f = field(v, m[j].bits);
			masked |= m[j].bits;
			if (m[j].cls >= FIRST_ID_CLASS)
				add_id(ph, m[j].cls, f);
			/*
			 * Whether a list is used follows the pages' layout;
			 * inline data is the application's.
			 */
			if (m[j].cls == C_VMAP || m[j].cls == C_PBLE ||
			    m[j].cls == C_RING || m[j].cls == C_DATA)
				continue;
			snprintf(tags + strlen(tags), sizeof(tags) - strlen(tags),
				 "+%s", cls_name[m[j].cls]);
		}
		v &= ~masked;
		if (names)
			cat(buf, " %s=", names[i]);
		else
			cat(buf, " q%d=", i);
		if (v || !tags[0])
			cat(buf, "%#llx", v);
		cat(buf, "%s", tags[0] == '+' && !v ? tags + 1 : tags);
	}
}

/* CQP commands: names and the fields masked in each. */
struct cqp_op {
	int op;
	const char *name;
	struct mask m[12];
	int once;	/* counted once per phase */
};

#define END { -1, 0, 0 }
/* A CQ command's virtual map and PBL size (bit 46, the overflow check, is compared). */
#define CQ_VMAP (BIT(47) | GENMASK(45, 44))

static const struct cqp_op cqp_ops[] = {
	{ 0x00, "CREATE_QP", { { 3, GENMASK(23, 0), C_QP }, { 3, BIT(45), C_VMAP },
			{ 2, ~0ULL, C_ADDR }, { 5, ~0ULL, C_ADDR }, END } },
	{ 0x01, "MODIFY_QP", { { 3, GENMASK(23, 0), C_QP }, { 3, BIT(45), C_VMAP },
			{ 2, ~0ULL, C_ADDR }, { 5, ~0ULL, C_ADDR }, END } },
	{ 0x02, "DESTROY_QP", { { 3, GENMASK(23, 0), C_QP }, { 3, BIT(45), C_VMAP },
			{ 2, ~0ULL, C_ADDR }, { 5, ~0ULL, C_ADDR }, END } },
	{ 0x22, "FLUSH_WQES", { { 3, GENMASK(23, 0), C_QP }, { 3, BIT(45), C_VMAP },
			{ 2, ~0ULL, C_ADDR }, END } },
	{ 0x29, "SUSPEND_QP", { { 3, GENMASK(23, 0), C_QP }, { 3, BIT(45), C_VMAP },
			END } },
	{ 0x2a, "RESUME_QP", { { 3, GENMASK(23, 0), C_QP }, { 3, BIT(45), C_VMAP },
			END } },
	{ 0x03, "CREATE_CQ", { { 3, GENMASK(18, 0), C_CQ }, { 3, CQ_VMAP, C_VMAP },
			       { 1, ~0ULL, C_CQCTX }, { 4, ~0ULL, C_RING },
			       { 5, ~0ULL, C_ADDR }, { 6, ~0ULL, C_PBLE }, END } },
	{ 0x04, "MODIFY_CQ", { { 3, GENMASK(18, 0), C_CQ }, { 3, CQ_VMAP, C_VMAP },
			       { 1, ~0ULL, C_CQCTX }, { 4, ~0ULL, C_RING },
			       { 5, ~0ULL, C_ADDR }, { 6, ~0ULL, C_PBLE }, END } },
	{ 0x05, "DESTROY_CQ", { { 3, GENMASK(18, 0), C_CQ }, { 3, CQ_VMAP, C_VMAP },
				{ 1, ~0ULL, C_CQCTX }, { 4, ~0ULL, C_RING },
				{ 5, ~0ULL, C_ADDR }, { 6, ~0ULL, C_PBLE }, END } },
	{ 0x09, "ALLOC_STAG", { { 1, GENMASK(63, 46), C_PD }, { 2, GENMASK(31, 0), C_STAG },
				{ 0, ~0ULL, C_ADDR }, { 3, GENMASK(45, 44), C_VMAP },
				{ 6, ~0ULL, C_PBLE }, END } },
	{ 0x0a, "REG_MR", { { 1, GENMASK(63, 46), C_PD }, { 2, GENMASK(31, 0), C_STAG },
			    { 0, ~0ULL, C_ADDR }, { 3, GENMASK(45, 44), C_VMAP },
			    { 4, ~0ULL, C_PBLE }, { 5, ~0ULL, C_ADDR }, { 6, ~0ULL, C_PBLE },
			    END } },
	{ 0x0c, "REG_SMR", { { 1, GENMASK(63, 46), C_PD }, { 2, GENMASK(31, 0), C_STAG },
			     { 0, ~0ULL, C_ADDR }, { 4, ~0ULL, C_ADDR }, END } },
	{ 0x0d, "DEALLOC_STAG", { { 1, GENMASK(63, 46), C_PD }, { 2, GENMASK(31, 0), C_STAG },
				  END } },
	{ 0x0f, "MANAGE_ARP", { { 3, GENMASK(11, 0), C_ARP }, END } },
	{ 0x1c, "CREATE_AH", { { 3, GENMASK(16, 0), C_AH }, { 1, GENMASK(63, 48), C_PD },
			       { 2, GENMASK(63, 48), C_ARP }, { 2, GENMASK(21, 20), C_PD },
			       { 2, GENMASK(19, 0), C_FLOW },
			       END } },
	{ 0x1d, "MODIFY_AH", { { 3, GENMASK(16, 0), C_AH }, { 1, GENMASK(63, 48), C_PD },
			       { 2, GENMASK(63, 48), C_ARP }, { 2, GENMASK(21, 20), C_PD },
			       { 2, GENMASK(19, 0), C_FLOW },
			       END } },
	{ 0x1e, "DESTROY_AH", { { 3, GENMASK(16, 0), C_AH }, { 1, GENMASK(63, 48), C_PD },
				{ 2, GENMASK(63, 48), C_ARP }, { 2, GENMASK(21, 20), C_PD },
			       { 2, GENMASK(19, 0), C_FLOW },
				END } },
	{ 0x26, "CREATE_MCG", { { 3, GENMASK(12, 0), C_MCG }, { 4, ~0ULL, C_ADDR }, END } },
	{ 0x27, "MODIFY_MCG", { { 3, GENMASK(12, 0), C_MCG }, { 4, ~0ULL, C_ADDR }, END } },
	{ 0x28, "DESTROY_MCG", { { 3, GENMASK(12, 0), C_MCG }, { 4, ~0ULL, C_ADDR }, END } },
	{ 0x2e, "GATHER_STATS", { { 4, ~0ULL, C_ADDR }, END }, 1 },
	{ 0x1f, "UPDATE_PE_SDS", { { 0, ~0ULL, C_ADDR }, { 1, ~0ULL, C_ADDR },
				   { 2, ~0ULL, C_ADDR }, { 4, ~0ULL, C_ADDR },
				   { 5, ~0ULL, C_ADDR }, { 6, ~0ULL, C_ADDR },
				   { 7, ~0ULL, C_ADDR }, END } },
	{ 0x2c, "WORK_SCHED_NODE", { END } },
	/* iWARP: a connection's local port is the stack's choice. */
	{ 0x23, "MANAGE_APBVT", { { 2, GENMASK(15, 0), C_PORT }, END } },
	{ 0x25, "MANAGE_QHASH", { { 1, GENMASK(31, 0), C_PORT }, END } },
	{ 0x12, "QUERY_RDMA_FEATURES", { { 4, ~0ULL, C_ADDR }, END } },
	{ 0x16, "CREATE_CEQ", { { 4, ~0ULL, C_ADDR }, { 6, ~0ULL, C_PBLE }, END } },
	{ 0x18, "DESTROY_CEQ", { { 4, ~0ULL, C_ADDR }, { 6, ~0ULL, C_PBLE }, END } },
	{ 0x19, "CREATE_AEQ", { { 4, ~0ULL, C_ADDR }, { 6, ~0ULL, C_PBLE },
				{ 3, GENMASK(47, 44), C_VMAP }, END } },
	{ 0x1b, "DESTROY_AEQ", { { 4, ~0ULL, C_ADDR }, { 6, ~0ULL, C_PBLE },
				 { 3, GENMASK(47, 44), C_VMAP }, END } },
	{ 0x20, "QUERY_FPM_VAL", { { 4, ~0ULL, C_ADDR }, END } },
	{ 0x21, "COMMIT_FPM_VAL", { { 4, ~0ULL, C_ADDR }, END } },
	{ 0x2b, "SHMC_PAGES_ALLOCATED", { END } },
	{ 0x15, "MANAGE_HMC_PM_FUNC_TABLE", { END } },
	{ 0x2d, "MANAGE_STATS", { END } },
	{ 0x2f, "UP_MAP", { END } },
	{ 0x24, "NOP", { END } },
	{ 0x11, "MANAGE_PUSH_PAGES", { { 0, ~0ULL, C_ADDR }, END } },
	{ -1, NULL, { END } },
};

static const char *const cqp_qw[8] = { "q0", "q1", "q2", "hdr", "q4", "q5", "q6", "q7" };

static const struct cqp_op *cqp_op_of(int op)
{
	const struct cqp_op *o;

	for (o = cqp_ops; o->name; o++)
		if (o->op == op)
			return o;
	return NULL;
}

static int parse_u64s(const char *s, __u64 *q, int max)
{
	int n = 0;
	char *end;

	while (*s && n < max) {
		while (*s && !isxdigit((unsigned char)*s))
			s++;
		if (!*s)
			break;
		q[n++] = strtoull(s, &end, 0);
		s = end;
	}
	return n;
}

static void do_cqp(struct phase *ph, const char *s)
{
	unsigned int op = 0, maj = 0, min = 0;
	__u64 q[8];
	const struct cqp_op *o;
	char rec[REC_LEN] = "";
	const char *p;
	int i;

	p = strstr(s, " op ");
	if (!p || sscanf(p,
			 " op %x q0 %llx q1 %llx q2 %llx hdr %llx q4 %llx q5 %llx q6 %llx q7 %llx -> %x/%x",
			 &op, &q[0], &q[1], &q[2], &q[3],
			 &q[4], &q[5], &q[6], &q[7], &maj, &min) != 11)
		return;
	ph->cqps++;
	o = cqp_op_of(op);
	if (o)
		cat(rec, "cqp %s", o->name);
	else
		cat(rec, "cqp op%#x", op);
	/* A command not in the table is compared whole. */
	put_qwords(rec, ph, q, 8, o ? o->m : NULL, cqp_qw);
	cat(rec, " -> %#x/%#x", maj, min);
	if (o && o->once)
		for (i = 0; i < ph->n; i++)
			if (!strcmp(ph->rec[i], rec))
				return;
	add_rec(ph, rec);
}

/* WQEs: fragments (address, then valid|length|key), the header in q3. */
static void do_wqe(struct phase *ph, const char *s)
{
	char queue[8], kind[8], rec[REC_LEN] = "";
	struct mask m[MAX_Q + 4];
	__u64 q[MAX_Q];
	unsigned int qpn;
	int n, i, k = 0;
	unsigned int op;
	const char *p;

	p = strstr(s, " qp ");
	if (!p || sscanf(p, " qp %u %7s %7s", &qpn, queue, kind) != 3)
		return;
	p = strchr(p, '{');
	if (!p)
		return;
	n = parse_u64s(p, q, MAX_Q);
	if (n < 4)
		return;
	ph->wqes++;
	add_id(ph, C_QP, qpn);
	op = field(q[3], GENMASK(37, 32));
	for (i = 0; i < n; i++) {
		if (i == 3)
			continue;
		if (q[3] & BIT(57) && strcmp(queue, "sq") == 0) {
			/*
			 * Inline: 8 bytes in q1, 31 in each further quantum
			 * (its last qword's top bit is the valid bit).
			 */
			if (i == 0 || i == 2)
				m[k++] = (struct mask){ i, ~0ULL, C_ADDR };
			else
				m[k++] = (struct mask){ i, i % 4 == 3 ?
							GENMASK(62, 0) : ~0ULL,
							C_DATA };
		} else if (i % 2 == 0) {
			m[k++] = (struct mask){ i, ~0ULL, C_ADDR };
		} else {
			m[k++] = (struct mask){ i, GENMASK(31, 0), C_STAG };
		}
	}
	if (!strcmp(queue, "sq")) {
		/* The header's low half: a remote key, or a UD send's AH. */
		if (op == 0x00 || op == 0x01 || op == 0x0d || op == 0x0b ||
		    op == 0x04 || op == 0x06 || op == 0x0a || op == 0x08 || op == 0x09)
			m[k++] = (struct mask){ 3, GENMASK(31, 0), C_STAG };
		else
			m[k++] = (struct mask){ 3, GENMASK(31, 0), C_AH };
		if (op == 0x08 || op == 0x09) {
			/* BIND_MW and FAST_REG: q1 holds keys or a PBL. */
			m[k++] = (struct mask){ 1, ~0ULL, C_STAG };
			m[k++] = (struct mask){ 2, GENMASK(63, 48), C_PBLE };
		}
	}
	m[k] = (struct mask){ -1, 0, 0 };
	cat(rec, "wqe %s %s op%#x", queue, kind, op);
	put_qwords(rec, ph, q, n, m, NULL);
	add_rec(ph, rec);
}

static const struct mask ctx_masks[] = {
	{ 0, GENMASK(21, 20), C_PD },
	{ 1, ~0ULL, C_RING }, { 2, ~0ULL, C_RING },
	{ 3, GENMASK(47, 32), C_FLOW },
	{ 6, GENMASK(63, 48), C_ARP },
	{ 7, GENMASK(63, 48), C_PD }, { 7, GENMASK(19, 0), C_FLOW },
	{ 8, GENMASK(23, 0), C_QP },
	{ 10, GENMASK(23, 0), C_PSN }, { 11, GENMASK(23, 0), C_PSN },
	{ 12, GENMASK(23, 0), C_PSN }, { 12, GENMASK(55, 32), C_PSN },
	{ 17, GENMASK(18, 0), C_CQ }, { 17, GENMASK(50, 32), C_CQ },
	{ 21, ~0ULL, C_ADDR },
	{ 26, GENMASK(16, 0), C_ARP },
	END,
};

/*
 * An iWARP QP's context (IWARPMODE, q20 bit 28): its ports, and the
 * sequence numbers that follow from random initial ones (the marker
 * offsets in q20 are their low bits), are masked.
 */
static const struct mask iwarp_ctx_masks[] = {
	{ 0, GENMASK(21, 20), C_PD },
	{ 1, ~0ULL, C_RING }, { 2, ~0ULL, C_RING },
	{ 3, GENMASK(63, 32), C_PORT },
	{ 6, GENMASK(63, 48), C_ARP },
	{ 7, GENMASK(63, 48), C_PD },
	{ 10, GENMASK(31, 0), C_SEQ }, { 11, GENMASK(31, 0), C_SEQ },
	{ 12, ~0ULL, C_SEQ }, { 15, ~0ULL, C_SEQ },
	{ 17, GENMASK(18, 0), C_CQ }, { 17, GENMASK(50, 32), C_CQ },
	{ 18, ~0ULL, C_ADDR },
	{ 20, GENMASK(56, 32), C_SEQ },
	{ 21, ~0ULL, C_ADDR },
	END,
};

static void do_ctx(struct phase *ph, const char *s)
{
	char rec[REC_LEN] = "";
	__u64 q[MAX_Q];
	unsigned int qpn;
	const char *p;
	int n;

	p = strstr(s, " qp ");
	if (!p || sscanf(p, " qp %u", &qpn) != 1)
		return;
	p = strchr(p, '{');
	if (!p)
		return;
	n = parse_u64s(p, q, MAX_Q);
	ph->ctxs++;
	add_id(ph, C_QP, qpn);
	cat(rec, "qpctx");
	put_qwords(rec, ph, q, n,
		   n > 20 && (q[20] & BIT(28)) ? iwarp_ctx_masks : ctx_masks, NULL);
	add_rec(ph, rec);
}

static void do_ice(struct phase *ph, const char *s)
{
	char rec[REC_LEN] = "";
	const char *p = strstr(s, " ice_");

	if (!p)
		return;
	ph->ices++;
	cat(rec, "ice%s", p);
	rec[strcspn(rec, "\n")] = 0;
	add_rec(ph, rec);
}

static struct phase *phase_get(struct trace *t, const char *name)
{
	int i;

	for (i = 0; i < t->nph; i++)
		if (!strcmp(t->ph[i].name, name))
			return &t->ph[i];
	if (t->nph == MAX_PHASES) {
		fprintf(stderr, "too many phases\n");
		exit(2);
	}
	snprintf(t->ph[t->nph].name, sizeof(t->ph[0].name), "%s", name);
	return &t->ph[t->nph++];
}

static void read_trace(const char *path, struct trace *t)
{
	struct phase *ph = phase_get(t, "start");
	char line[8192], *p;
	FILE *f = fopen(path, "r");

	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "tracing_mark_write: phase ");
		if (p) {
			p += strlen("tracing_mark_write: phase ");
			p[strcspn(p, "\n ")] = 0;
			ph = phase_get(t, p);
		} else if (strstr(line, "irdma_sim_cqp: ")) {
			do_cqp(ph, line);
		} else if (strstr(line, "irdma_sim_wqe: ")) {
			do_wqe(ph, line);
		} else if (strstr(line, "irdma_sim_qpctx: ")) {
			do_ctx(ph, line);
		} else if (strstr(line, "irdma_sim_ice: ")) {
			do_ice(ph, line);
		}
	}
	fclose(f);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* The object numbers of a phase as records, one per class. */
static void add_id_recs(struct phase *ph)
{
	char rec[REC_LEN];
	int c, i;

	for (c = FIRST_ID_CLASS; c < C_NCLS; c++) {
		struct ids *s = &ph->ids[c];

		if (!s->n)
			continue;
		qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
		snprintf(rec, sizeof(rec), "ids %s", cls_name[c]);
		for (i = 0; i < s->n; i++)
			cat(rec, " %llu", s->v[i]);
		add_rec(ph, rec);
	}
}

struct explain {
	char side;
	char phase[32];
	regex_t re;
	char text[1024];
	int used;
};

static struct explain *read_explained(const char *path, int *count)
{
	struct explain *e = NULL;
	int n = 0, cap = 0;
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		char side, phase[32];
		int off;

		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, " %c %31s %n", &side, phase, &off) != 2 ||
		    !strchr("-+*", side))
			continue;
		if (n == cap)
			e = grow(e, &cap, sizeof(*e));
		e[n].side = side;
		snprintf(e[n].phase, sizeof(e[n].phase), "%s", phase);
		snprintf(e[n].text, sizeof(e[n].text), "%s", line);
		e[n].used = 0;
		if (regcomp(&e[n].re, line + off, REG_EXTENDED | REG_NOSUB)) {
			fprintf(stderr, "bad expression: %s\n", line);
			exit(2);
		}
		n++;
	}
	fclose(f);
	*count = n;
	return e;
}

/* @name is one of the comma-separated @list. */
static int in_list(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return 1;
		p += len;
	}
	return 0;
}

static struct explain *explained(struct explain *e, int n, char side,
				 const char *phase, const char *rec)
{
	int i;

	for (i = 0; i < n; i++) {
		if (e[i].side != '*' && e[i].side != side)
			continue;
		if (strcmp(e[i].phase, "*") && !in_list(e[i].phase, phase))
			continue;
		if (!regexec(&e[i].re, rec, 0, NULL, 0))
			return &e[i];
	}
	return NULL;
}

/* Report one side's surplus of a record; returns 1 if unexplained. */
static int report(char side, const char *phase, const char *rec, int count,
		  struct explain *e, int ne)
{
	struct explain *x = explained(e, ne, side, phase, rec);

	if (x) {
		x->used++;
		printf("  %c %dx %s\n      (explained: %s)\n", side, count, rec, x->text);
		return 0;
	}
	printf("  %c %dx %s\n      UNEXPLAINED\n", side, count, rec);
	return 1;
}

static int compare_phase(struct phase *a, struct phase *b, struct explain *e,
			 int ne, int *diffs)
{
	int i = 0, j = 0, bad = 0;

	qsort(a->rec, a->n, sizeof(*a->rec), cmp_str);
	qsort(b->rec, b->n, sizeof(*b->rec), cmp_str);
	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->rec[i], b->rec[j]);
		const char *r = c <= 0 ? a->rec[i] : b->rec[j];
		int na = 0, nb = 0;

		while (i < a->n && !strcmp(a->rec[i], r)) {
			i++;
			na++;
		}
		while (j < b->n && !strcmp(b->rec[j], r)) {
			j++;
			nb++;
		}
		if (na == nb)
			continue;
		(*diffs)++;
		if (na > nb)
			bad += report('-', a->name, r, na - nb, e, ne);
		else
			bad += report('+', a->name, r, nb - na, e, ne);
	}
	return bad;
}

/**
 * main - compare the stock driver's trace with ours
 * @argc: argument count
 * @argv: stock trace, our trace, the explained differences
 *
 * Return: 0 if every difference is explained, 1 if not, 2 on errors.
 */
int main(int argc, char **argv)
{
	static struct trace stock, ours;
	struct explain *e;
	int ne, i, bad = 0, diffs = 0, cqps = 0, wqes = 0, ctxs = 0, ices = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: %s STOCK OURS EXPLAINED\n", argv[0]);
		return 2;
	}
	read_trace(argv[1], &stock);
	read_trace(argv[2], &ours);
	e = read_explained(argv[3], &ne);
	for (i = 0; i < stock.nph; i++) {
		struct phase *a = &stock.ph[i], *b = phase_get(&ours, a->name);

		add_id_recs(a);
		add_id_recs(b);
		printf("== phase %s: stock %d CQP commands, %d WQEs, %d QP contexts, %d ice calls;"
		       " ours %d, %d, %d, %d\n", a->name, a->cqps, a->wqes, a->ctxs,
		       a->ices, b->cqps, b->wqes, b->ctxs, b->ices);
		bad += compare_phase(a, b, e, ne, &diffs);
		cqps += a->cqps + b->cqps;
		wqes += a->wqes + b->wqes;
		ctxs += a->ctxs + b->ctxs;
		ices += a->ices + b->ices;
	}
	for (i = 0; i < ours.nph; i++) {
		struct phase *b = &ours.ph[i];
		int k, seen = 0;

		for (k = 0; k < stock.nph; k++)
			seen |= !strcmp(stock.ph[k].name, b->name);
		if (!seen) {
			printf("== phase %s only in our trace\n", b->name);
			bad++;
		}
	}
	if (!cqps || !wqes || !ctxs || !ices) {
		printf("FAIL: a kind of event was never recorded\n");
		bad++;
	}
	printf("compared: %d CQP commands, %d WQEs, %d QP contexts, %d ice calls",
	       cqps, wqes, ctxs, ices);
	printf(" (both drivers); %d differences, %d unexplained\n", diffs, bad);
	for (i = 0; i < ne; i++)
		if (!e[i].used)
			printf("explanation never used: %s\n", e[i].text);
	return bad ? 1 : 0;
}
