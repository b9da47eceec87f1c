/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "arm": arming, completion events, CQ errors (overrun) and the
 * counters / telemetry that follow them, on CQs the library creates on
 * the emulated HCA (DevX event channel, verbs completion channel).
 *
 * The arm word is checked byte by byte in the doorbell record (rdma-core
 * cq.c mlx5_arm_cq: sn << 28 | cmd (1 << 24 solicited) | ci, big endian
 * in word 1); the model takes the doorbell from the UAR page at 0x20.
 */

#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_version.h>

#include <mlx5_emu.h>
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_usage.h"
#include "test_cq_cnt.h"

/*
 * The telemetry handlers are the library's own (static): the test asks
 * through the process's telemetry socket, as dpdk-telemetry.py does
 * (<runtime dir>/dpdk_telemetry.v2, SOCK_SEQPACKET: a greeting, then one
 * JSON reply a command). out gets the reply, NUL-terminated. 0 or -1.
 */
static int
tel_query(const char *cmd, char *out, size_t len)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	ssize_t n;
	int fd, ret = -1;

	if ((size_t)snprintf(sun.sun_path, sizeof(sun.sun_path),
			     "%s/dpdk_telemetry.v2", rte_eal_get_runtime_dir())
	    >= sizeof(sun.sun_path))
		return -1;
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0 &&
	    read(fd, out, len - 1) > 0 &&
	    write(fd, cmd, strlen(cmd)) == (ssize_t)strlen(cmd)) {
		n = read(fd, out, len - 1);
		if (n > 0) {
			out[n] = '\0';
			ret = 0;
		}
	}
	close(fd);
	return ret;
}

/* Whether the JSON reply holds "name":value (value as printed). */
static int
tel_has(const char *reply, const char *name, const char *value)
{
	char want[96];

	snprintf(want, sizeof(want), "\"%s\":%s", name, value);
	TEST_ASSERT_NOT_NULL(strstr(reply, want), "telemetry: no %s in %s",
			     want, reply);
	return TEST_SUCCESS;
}

/* tel_has() of an unsigned figure. */
static int
tel_u64(const char *reply, const char *name, uint64_t v)
{
	char s[24];

	snprintf(s, sizeof(s), "%" PRIu64, v);
	return tel_has(reply, name, s);
}

static struct {
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq *cq;
} emu;

static void
arm_teardown(void)
{
	if (emu.cq != NULL)
		rte_mlx5cq_destroy(emu.cq);
	if (emu.dev != NULL)
		rte_mlx5cq_dev_close(emu.dev);
	if (emu.ctx != NULL)
		mlx5_emu_close(emu.ctx);
	memset(&emu, 0, sizeof(emu));
}

static int
arm_open(enum rte_mlx5cq_path path, uint32_t entries, uint32_t flags)
{
	static unsigned int seq;
	struct rte_mlx5cq_attr attr;
	char name[32];

	snprintf(name, sizeof(name), "test_arm%u", seq++);
	emu.ctx = mlx5_emu_open(name, NULL);
	TEST_ASSERT_NOT_NULL(emu.ctx, "mlx5_emu_open");
	emu.dev = rte_mlx5cq_dev_open(emu.ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(emu.dev, "dev_open: %d", rte_errno);
	memset(&attr, 0, sizeof(attr));
	attr.cqe = entries - 1;
	attr.flags = flags;
	attr.socket = SOCKET_ID_ANY;
	attr.path = path;
	emu.cq = rte_mlx5cq_create(emu.dev, &attr);
	TEST_ASSERT_NOT_NULL(emu.cq, "create: %d", rte_errno);
	return TEST_SUCCESS;
}

static int
post(unsigned int n, int solicited, uint16_t wqe0)
{
	struct mlx5_emu_wc c[16];
	unsigned int i;

	memset(c, 0, sizeof(c));
	for (i = 0; i < n; i++) {
		c[i].kind = MLX5_EMU_WC_RESP;
		c[i].solicited = (uint8_t)solicited;
		c[i].wqe_counter = (uint16_t)(wqe0 + i);
		c[i].byte_cnt = 64;
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(emu.ctx, emu.cq->cqn, c, n),
			  (int)n, "mlx5_emu_cq_post of %u", n);
	return TEST_SUCCESS;
}

static int
fd_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* Doorbell record word 1 as bytes (big endian). */
static int
check_arm_word(uint32_t word)
{
	const uint8_t *b = (const uint8_t *)(uintptr_t)&emu.cq->dbrec[1];
	uint8_t want[4] = { (uint8_t)(word >> 24), (uint8_t)(word >> 16),
			    (uint8_t)(word >> 8), (uint8_t)word };

	TEST_ASSERT_BUFFERS_ARE_EQUAL(b, want, 4,
		"arm word %02x %02x %02x %02x, want %08x", b[0], b[1], b[2],
		b[3], word);
	return TEST_SUCCESS;
}

static int
drain(unsigned int want)
{
	struct rte_mlx5cq_cpl c[16];

	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(emu.cq, c, 16), want,
			  "poll");
	return TEST_SUCCESS;
}

/*
 * arm -> one event for the first completion -> ack -> re-arm (sn + 1);
 * solicited-only arm ignores unsolicited completions.
 */
static int
test_arm_events(const void *data)
{
	enum rte_mlx5cq_path path = (enum rte_mlx5cq_path)(uintptr_t)data;
	struct mlx5_emu_cq_ev_info ev;
	int fd;

	TEST_CHECK(arm_open(path, 64, RTE_MLX5CQ_F_EVENTS |
		       RTE_MLX5CQ_F_SINGLE_THREADED));
	fd = rte_mlx5cq_event_fd(emu.cq);
	TEST_ASSERT(fd >= 0, "event fd %d", fd);
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_get(emu.cq), -EAGAIN, "no event");
	TEST_CHECK(post(5, 0, 0));
	TEST_CHECK(drain(5));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_arm(emu.cq, 0), "arm");
	TEST_CHECK(check_arm_word(0x00000005));
	/* The model looks at the doorbell when it runs: nothing is due. */
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_flush(emu.ctx, emu.cq->cqn), "flush");
	TEST_ASSERT(!fd_readable(fd), "event without a completion");
	TEST_CHECK(post(1, 0, 5));
	TEST_ASSERT(fd_readable(fd), "fd not readable after a completion");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_get(emu.cq), "event");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->events, 1, "events (arm_sn)");
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_get(emu.cq), -EAGAIN, "2nd event");
	TEST_CHECK(post(1, 0, 6)); /* not armed: no event */
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_get(emu.cq), -EAGAIN, "unarmed");
	/* One event got and not acknowledged: 2 refused, 1 taken, then
	 * nothing left (both paths count what event_get returned).
	 */
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_ack(emu.cq, 2), -EINVAL,
			  "ack of 2 with 1 got");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno %d", rte_errno);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_ack(emu.cq, 0), "ack of 0");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_ack(emu.cq, 1), "ack");
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_ack(emu.cq, 1), -EINVAL,
			  "ack of more than got");
	TEST_CHECK(drain(2));
	/* Solicited-only, sn 1. */
	TEST_ASSERT_SUCCESS(rte_mlx5cq_arm(emu.cq, 1), "arm solicited");
	TEST_CHECK(check_arm_word(1u << 28 | 1u << 24 | 7));
	TEST_CHECK(post(3, 0, 7));
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_get(emu.cq), -EAGAIN,
			  "event for unsolicited completions");
	TEST_CHECK(post(1, 1, 10));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_get(emu.cq), "solicited event");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_ack(emu.cq, 1), "ack");
	TEST_CHECK(drain(4));
	/* An "any" arm with completions already past ci fires at once. */
	TEST_CHECK(post(2, 0, 11));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_arm(emu.cq, 0), "arm");
	TEST_CHECK(check_arm_word(2u << 28 | 11));
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_flush(emu.ctx, emu.cq->cqn), "flush");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_get(emu.cq), "immediate event");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_ack(emu.cq, 1), "ack");
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_ack(emu.cq, 1), -EINVAL,
			  "all acknowledged");
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_ack(emu.cq, UINT32_MAX), -EINVAL,
			  "huge ack");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->arms, 3, "arms");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->events, 3, "events");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_ev_query(emu.ctx, emu.cq->cqn, &ev),
			    "ev_query");
	TEST_ASSERT_EQUAL(ev.arms, 3, "model arms %" PRIu64, ev.arms);
	TEST_ASSERT_EQUAL(ev.events, 3, "model events %" PRIu64, ev.events);
	return TEST_SUCCESS;
}

/* Without RTE_MLX5CQ_F_EVENTS there is no fd; arming still works. */
static int
test_arm_no_events(void)
{
	TEST_CHECK(arm_open(RTE_MLX5CQ_PATH_DEVX, 16, 0));
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_fd(emu.cq), -ENOTSUP, "fd");
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_get(emu.cq), -ENOTSUP, "get");
	/* Nothing to acknowledge on such a CQ, whatever the count. */
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_ack(emu.cq, 1), -ENOTSUP, "ack");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_ack(emu.cq, 0), -ENOTSUP, "ack 0");
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_ack(NULL, 1), -EINVAL, "ack NULL");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_arm(emu.cq, 1), "arm");
	TEST_CHECK(check_arm_word(1u << 24));
	TEST_ASSERT_EQUAL(rte_mlx5cq_arm(NULL, 0), -EINVAL, "NULL");
	return TEST_SUCCESS;
}

/*
 * Overrun without cqc.oi: the CQ goes to error; error_check reports it
 * (counted once) and, with events, the CQ error event arrives. With oi the
 * device overwrites and the CQ stays healthy.
 */
static int
test_arm_overrun(const void *data)
{
	int oi = (int)(uintptr_t)data;
	struct mlx5_emu_wc c[20];
	int ret;

	TEST_CHECK(arm_open(RTE_MLX5CQ_PATH_DEVX, 16, RTE_MLX5CQ_F_EVENTS |
		       (oi ? RTE_MLX5CQ_F_IGNORE_OVERRUN : 0)));
	memset(c, 0, sizeof(c));
	TEST_ASSERT_EQUAL(rte_mlx5cq_error_check(emu.cq), 0, "healthy");
	TEST_CHECK(post(15, 0, 0));
	ret = mlx5_emu_cq_post_flags(emu.ctx, emu.cq->cqn, c, 5,
				     MLX5_EMU_POST_OVERRUN);
	if (!oi) {
		TEST_ASSERT_EQUAL(ret, -EIO, "overrun post %d", ret);
		TEST_ASSERT_EQUAL(rte_mlx5cq_error_check(emu.cq), 1, "error");
		TEST_ASSERT_EQUAL(rte_mlx5cq_error_check(emu.cq), 1, "error");
		TEST_ASSERT_EQUAL(rte_mlx5cq_event_get(emu.cq), -EIO,
				  "CQ error event");
		TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->overruns, 1, "overruns %" PRIu64,
				  test_cq_cnt(emu.cq)->overruns);
		/* What was written before the overrun is still there (the
		 * model fills the last free slot before it overruns).
		 */
		{
			struct rte_mlx5cq_cpl r[32];
			uint16_t n = rte_mlx5cq_poll_burst(emu.cq, r, 32);

			TEST_ASSERT(n >= 15 && n <= 16, "%u after overrun", n);
		}
	} else {
		TEST_ASSERT_EQUAL(ret, 5, "overwrite post %d", ret);
		TEST_ASSERT_EQUAL(rte_mlx5cq_error_check(emu.cq), 0, "oi");
		TEST_ASSERT_EQUAL(rte_mlx5cq_event_get(emu.cq), -EAGAIN,
				  "event on oi");
		TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->overruns, 0, "overruns");
	}
	return TEST_SUCCESS;
}

/*
 * Counters and telemetry of what the test did: completions, errors by
 * syndrome, arms, events; /mlx5cq/list holds the CQ's id and
 * /mlx5cq/info,<id> the same figures.
 */
static int
test_arm_telemetry(void)
{
	struct mlx5_emu_wc c[8];
	struct rte_mlx5cq_cpl r[16];
	char params[32], reply[2048], *buf = NULL, *p;
	size_t len = 0;
	FILE *f;
	int id;
	unsigned int i;

	TEST_CHECK(arm_open(RTE_MLX5CQ_PATH_DEVX, 32, RTE_MLX5CQ_F_EVENTS));
	memset(c, 0, sizeof(c));
	for (i = 0; i < 8; i++) {
		c[i].kind = i % 3 == 2 ? MLX5_EMU_WC_REQ_ERR : MLX5_EMU_WC_REQ;
		c[i].syndrome = i == 2 ? 0x05 : 0x13;
		c[i].wqe_counter = (uint16_t)i;
	}
	TEST_ASSERT_SUCCESS(rte_mlx5cq_arm(emu.cq, 0), "arm");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(emu.ctx, emu.cq->cqn, c, 8), 8,
			  "post");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_get(emu.cq), "event");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(emu.cq, r, 16), 8, "poll");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(emu.cq, r, 16), 0, "empty");
	id = rte_mlx5cq_id(emu.cq);
	TEST_ASSERT(id >= 0, "id %d", id);
	TEST_ASSERT_SUCCESS(tel_query("/mlx5cq/list", reply, sizeof(reply)),
			    "telemetry socket");
	{
		char want[32];
		const char *l = strchr(reply, '[');

		/* The id once in the list: [id], [id, ..], [.., id, ..]. */
		snprintf(want, sizeof(want), "%d", id);
		TEST_ASSERT_NOT_NULL(l, "list: %s", reply);
		for (p = (char *)(uintptr_t)l + 1, i = 0; *p != '\0' &&
		     *p != ']'; p += strspn(p, ", ")) {
			size_t w = strcspn(p, ",]");

			i += w == strlen(want) && strncmp(p, want, w) == 0;
			p += w;
		}
		TEST_ASSERT_EQUAL(i, 1, "id %d in the list %u times: %s", id,
				  i, reply);
	}
	snprintf(params, sizeof(params), "/mlx5cq/info,%d", id);
	TEST_ASSERT_SUCCESS(tel_query(params, reply, sizeof(reply)), "info");
	if (tel_u64(reply, "id", (uint64_t)id) ||
	    tel_has(reply, "path", "\"devx\"") ||
	    tel_u64(reply, "cqn", emu.cq->cqn) ||
	    tel_u64(reply, "entries", 32) ||
	    tel_u64(reply, "completions", 8) ||
	    tel_u64(reply, "errors", 2) || tel_u64(reply, "polls", 2) ||
	    tel_u64(reply, "empty_polls", 1) || tel_u64(reply, "arms", 1) ||
	    tel_u64(reply, "events", 1) || tel_u64(reply, "ci", 8) ||
	    tel_u64(reply, "arm_sn", 1) || tel_u64(reply, "minis", 0) ||
	    tel_has(reply, "err_syndrome", "{\"0x05\":1,\"0x13\":1}"))
		return TEST_FAILED;
	/* An unknown id and a bad one: the handler's error, no data. */
	TEST_ASSERT_SUCCESS(tel_query("/mlx5cq/info,999999", reply,
				      sizeof(reply)), "unknown id");
	TEST_ASSERT(tel_has(reply, "/mlx5cq/info", "null") == TEST_SUCCESS,
		    "unknown id");
	TEST_ASSERT_SUCCESS(tel_query("/mlx5cq/info,x", reply, sizeof(reply)),
			    "bad id");
	TEST_ASSERT(tel_has(reply, "/mlx5cq/info", "null") == TEST_SUCCESS,
		    "bad id");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->completions, 8, "completions");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->errors, 2, "errors");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->err_syndrome[0x05], 1, "synd 5");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->err_syndrome[0x13], 1, "synd 0x13");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->polls, 2, "polls");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->empty_polls, 1, "empty");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->arms, 1, "arms");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->events, 1, "events");
	/* The dump carries the same figures. */
	f = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(f, "memstream");
	rte_mlx5cq_dump(f, emu.cq);
	fclose(f);
	p = strstr(buf, "completions 8 polls 2 empty 1 errors 2");
	TEST_ASSERT_NOT_NULL(p, "dump:\n%s", buf);
	TEST_ASSERT_NOT_NULL(strstr(buf, "arms 1 events 1"), "dump arms");
	TEST_ASSERT_NOT_NULL(strstr(buf, "syndrome 0x13: 1"), "dump synd");
	free(buf);
	return TEST_SUCCESS;
}

static unsigned int
heap_allocs(void)
{
	struct rte_malloc_socket_stats ms;
	unsigned int i, n = 0;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
						&ms) == 0)
			n += ms.alloc_count;
	return n;
}

/*
 * Event sources leak nothing: create/destroy with events on both paths,
 * and failed creations after the channel exists (verbs: the CQ fails after
 * the completion channel was made) or before it (DevX: CREATE_CQ fails).
 */
static int
test_arm_no_leak(void)
{
	static const enum rte_mlx5cq_path paths[] = {
		RTE_MLX5CQ_PATH_DEVX, RTE_MLX5CQ_PATH_VERBS };
	struct rte_mlx5cq_attr attr;
	struct mlx5_emu_stats s0, s1;
	struct rte_mlx5cq *cq;
	unsigned int p, allocs, fds;

	emu.ctx = mlx5_emu_open("test_arm_leak", NULL);
	TEST_ASSERT_NOT_NULL(emu.ctx, "open");
	emu.dev = rte_mlx5cq_dev_open(emu.ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(emu.dev, "dev_open");
	for (p = 0; p < RTE_DIM(paths); p++) {
		memset(&attr, 0, sizeof(attr));
		attr.cqe = 31;
		attr.flags = RTE_MLX5CQ_F_EVENTS;
		attr.socket = SOCKET_ID_ANY;
		attr.path = paths[p];
		TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(emu.ctx, &s0), "stats");
		allocs = heap_allocs();
		fds = open_fds();
		cq = rte_mlx5cq_create(emu.dev, &attr);
		TEST_ASSERT_NOT_NULL(cq, "create: %d", rte_errno);
		TEST_ASSERT(rte_mlx5cq_event_fd(cq) >= 0, "fd");
		TEST_ASSERT(open_fds() > fds, "no fd for the events");
		TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
		TEST_ASSERT_EQUAL(open_fds(), fds, "fd leak (path %u)", p);
		TEST_ASSERT_EQUAL(heap_allocs(), allocs, "heap leak");
		mlx5_emu_fail_inject(emu.ctx, paths[p] == RTE_MLX5CQ_PATH_DEVX ?
				     MLX5_EMU_FAIL_OBJ_CREATE :
				     MLX5_EMU_FAIL_VERBS_CQ, 0, 1);
		rte_errno = 0;
		cq = rte_mlx5cq_create(emu.dev, &attr);
		mlx5_emu_fail_inject(emu.ctx, MLX5_EMU_FAIL_OBJ_CREATE, 0, 0);
		mlx5_emu_fail_inject(emu.ctx, MLX5_EMU_FAIL_VERBS_CQ, 0, 0);
		TEST_ASSERT_NULL(cq, "create succeeded under fault");
		TEST_ASSERT(rte_errno != 0, "no rte_errno");
		TEST_ASSERT_EQUAL(open_fds(), fds, "fd leak on failure");
		TEST_ASSERT_EQUAL(heap_allocs(), allocs, "heap leak on failure");
		TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(emu.ctx, &s1), "stats");
		TEST_ASSERT(s1.cqs == s0.cqs && s1.umems == s0.umems &&
			    s1.devx_objs == s0.devx_objs &&
			    s1.dbr_slots == s0.dbr_slots, "device leak");
	}
	return TEST_SUCCESS;
}

static struct unit_test_suite arm_suite = {
	.suite_name = "arm",
	.unit_test_cases = {
		TEST_CASE_NAMED_WITH_DATA("test_arm_events_devx", NULL,
			arm_teardown, test_arm_events,
			(const void *)RTE_MLX5CQ_PATH_DEVX),
		TEST_CASE_NAMED_WITH_DATA("test_arm_events_verbs", NULL,
			arm_teardown, test_arm_events,
			(const void *)RTE_MLX5CQ_PATH_VERBS),
		TEST_CASE_ST(NULL, arm_teardown, test_arm_no_events),
		TEST_CASE_NAMED_WITH_DATA("test_arm_overrun_no_oi", NULL,
			arm_teardown, test_arm_overrun, (const void *)0),
		TEST_CASE_NAMED_WITH_DATA("test_arm_overrun_oi", NULL,
			arm_teardown, test_arm_overrun, (const void *)1),
		TEST_CASE_ST(NULL, arm_teardown, test_arm_telemetry),
		TEST_CASE_ST(NULL, arm_teardown, test_arm_no_leak),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(arm, arm_suite);
