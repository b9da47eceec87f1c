/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_burst_mode": the RX burst mode a queue reports.
 * The fixture (mbuf pool, port start, one frame received, an
 * xstat read) is test_net_fixture.c.
 */

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_thash.h>
#include <rte_udp.h>
#include <rte_vect.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"
#include "test_wait.h"

/*
 * RX burst mode: a set-up queue reports its path (the default
 * rx_vec_en=1: TEST_NET_RX_VEC_MODE, "Scalar" with rx_vec_en=0 or when
 * the EAL allows no 128-bit SIMD, the latter with an INFO line at the
 * queue's setup, want_log); a queue configured but not set up is refused
 * with -EINVAL and a log line (ethdev checks the index only), the mode
 * left zeroed.
 */
static int
burst_mode_of(const char *name, const char *args, const char *want,
	      const char *want_log)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_burst_mode mode;
	FILE *old = rte_log_get_stream(), *log;
	/* An existing name: rte_log_register() returns its id. */
	const int lt = rte_log_register("pmd.net.mlx5cq");
	const int old_level = rte_log_get_level(lt);
	char *buf = NULL;
	size_t len = 0;
	int port, ok = 1, ret;

	if (lt < 0 || old_level < 0)
		return -1;
	port = port_probe(name, args);
	if (port < 0)
		return -1;
	if (rte_eth_dev_configure(port, 2, 1, &conf) != 0) {
		port_remove(port);
		return -1;
	}
	log = open_memstream(&buf, &len);
	if (log == NULL) {
		port_remove(port);
		return -1;
	}
	rte_openlog_stream(log);
	rte_log_set_level(lt, RTE_LOG_INFO);
	ret = rte_eth_rx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL,
				     n_mp);
	if (ret == 0) {
		memset(&mode, 0x55, sizeof(mode));
		ret = rte_eth_rx_burst_mode_get(port, 0, &mode);
		if (ret != 0 || strcmp(mode.info, want) != 0 ||
		    mode.flags != 0) {
			printf("  %s: queue 0: %d \"%s\", expected \"%s\"\n",
			       args, ret, ret == 0 ? mode.info : "", want);
			ok = 0;
		}
		memset(&mode, 0x55, sizeof(mode));
		ret = rte_eth_rx_burst_mode_get(port, 1, &mode);
	}
	rte_log_set_level(lt, (uint32_t)old_level);
	rte_openlog_stream(old);
	fclose(log);
	if (ret != -EINVAL || mode.info[0] != '\0' ||
	    buf == NULL || strstr(buf, "rxq 1: not set up") == NULL ||
	    (want_log != NULL && strstr(buf, want_log) == NULL) ||
	    (want_log == NULL && strstr(buf, "-bit SIMD") != NULL)) {
		printf("  %s: queue 1 (not set up): %d, log (expected %s):"
		       "\n%s\n", args, ret, want_log ? want_log : "none",
		       buf ? buf : "");
		ok = 0;
	}
	free(buf);
	if (port_remove(port) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

static int
test_net_rx_burst_mode(void)
{
	const uint16_t bits = rte_vect_get_max_simd_bitwidth();
	int ret;

	TEST_ASSERT_SUCCESS(burst_mode_of("net_mlx5cq_bm", "dev=emu",
					  TEST_NET_RX_VEC_MODE, NULL),
			    "default");
	TEST_ASSERT_SUCCESS(burst_mode_of("net_mlx5cq_bm",
					  "dev=emu,rx_vec_en=0", "Scalar",
					  NULL),
			    "rx_vec_en=0");
	/* As with --force-max-simd-bitwidth=64: no SIMD stores. */
	ret = rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_DISABLED);
	if (ret == -EPERM) {
		printf("  SIMD bitwidth forced on the command line: the"
		       " 64-bit case is not run\n");
		return TEST_SUCCESS;
	}
	TEST_ASSERT_SUCCESS(ret, "set the SIMD bitwidth to 64");
	ret = burst_mode_of("net_mlx5cq_bm", "dev=emu", "Scalar",
			    strcmp(TEST_NET_RX_VEC_MODE, "Scalar") != 0 ?
			    "rxq 0: rx_vec_en=1, but the EAL allows 64-bit"
			    " SIMD: RX per packet" : NULL);
	TEST_ASSERT_SUCCESS(rte_vect_set_max_simd_bitwidth(bits),
			    "restore the SIMD bitwidth");
	TEST_ASSERT_SUCCESS(ret, "64-bit SIMD");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_rx_burst_mode_suite = {
	.suite_name = "net_rx_burst_mode",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_rx_burst_mode),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_rx_burst_mode, net_rx_burst_mode_suite);
