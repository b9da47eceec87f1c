/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_devargs": the net PMD refuses bad devargs, and devargs the
 * device's capabilities refuse, at probe with a log line naming them,
 * leaving nothing behind.
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

/* Probe args on devices opened with caps (NULL: the defaults); 0 when
 * refused with a log line holding every string of want, no port left.
 */
static int
probe_refused(const struct mlx5_emu_caps *caps, const char *args,
		      const char *const *want, unsigned int nwant)
{
	uint16_t nb = rte_eth_dev_count_avail();
	FILE *old = rte_log_get_stream(), *log;
	char *buf = NULL;
	size_t len = 0;
	unsigned int i;
	int port, ret = 0;

	log = open_memstream(&buf, &len);
	if (log == NULL || mlx5_emu_open_caps_set(caps) != 0) {
		if (log != NULL)
			fclose(log);
		free(buf);
		return -1;
	}
	rte_openlog_stream(log);
	port = port_probe("net_mlx5cq_tb", args);
	rte_openlog_stream(old);
	mlx5_emu_open_caps_set(NULL);
	fclose(log);
	if (port >= 0) {
		printf("  \"%s\" probed\n", args);
		port_remove(port);
		ret = -1;
	}
	if (rte_eth_dev_count_avail() != nb)
		ret = -1;
	for (i = 0; i < nwant && ret == 0; i++) {
		if (buf == NULL || strstr(buf, want[i]) == NULL) {
			printf("  \"%s\": no \"%s\" in the log:\n%s\n", args,
			       want[i], buf ? buf : "");
			ret = -1;
		}
	}
	free(buf);
	return ret;
}

/* Probe with bad devargs: refused with a log line naming them, nothing
 * left behind.
 */
static int
test_net_bad_devargs(void)
{
	static const struct {
		const char *args;
		const char *msg;
	} bad[] = {
		{ "dev=emu,foo=1", "unknown key foo" },
		{ "dev=emu,cq_path=x", "bad value \"x\" for cq_path" },
		{ "dev=emu,cqe_size=32", "bad value \"32\" for cqe_size" },
		{ "dev=emu,cqe_pad=1", "cqe_pad=1 needs cqe_size=128" },
		{ "dev=emu,cqe_comp=session", "bad value \"session\" for cqe_comp" },
		{ "dev=emu,cqe_comp=none,cqe_comp_layout=enhanced",
		  "cqe_comp_layout=enhanced needs cqe_comp" },
		{ "dev=emu,mr_ext_memseg_en=2",
		  "bad value \"2\" for mr_ext_memseg_en" },
		{ "dev=emu,rxq_desc=1", "bad value \"1\" for rxq_desc" },
		{ "dev=emu,txq_desc=99999",
		  "bad value \"99999\" for txq_desc" },
		{ "dev=emu,tx_comp_thresh=0",
		  "bad value \"0\" for tx_comp_thresh" },
		{ "dev=emu,mac=ff:ff:ff:ff:ff:ff",
		  "bad value \"ff:ff:ff:ff:ff:ff\" for mac" },
		{ "dev=emu,wire=", "bad value \"\" for wire" },
		{ "dev=no_such_ibdev", "dev=no_such_ibdev" },
		{ "dev=no_such_ibdev,wire=w",
		  "wire, mac and speed apply to dev=emu only" },
		{ "dev=emu,speed=0", "bad value \"0\" for speed" },
		{ "dev=emu,speed=150",
		  "speed 150 Mb/s is not a multiple of 100" },
		{ "dev=emu,speed=6553600", "bad value \"6553600\" for speed" },
		{ "dev=no_such_ibdev,speed=1000",
		  "wire, mac and speed apply to dev=emu only" },
		/* CQE sizes are 64 or 128 only (cqc cqe_sz 0/1). */
		{ "dev=emu,cqe_size=65", "bad value \"65\" for cqe_size" },
		{ "dev=emu,cqe_size=96", "bad value \"96\" for cqe_size" },
		{ "dev=emu,cqe_size=127", "bad value \"127\" for cqe_size" },
		{ "dev=emu,cqe_size=0x50", "bad value \"0x50\" for cqe_size" },
		/* Verbs CQs have MLX5DV_CQE_RES_FORMAT_HASH/CSUM/CSUM_STRIDX
		 * and the basic layout only (mlx5dv.h).
		 */
		{ "dev=emu,cq_path=verbs,cqe_comp=ftag",
		  "cq_path=verbs cannot have cqe_comp=ftag" },
		{ "dev=emu,cq_path=verbs,cqe_comp=l34h",
		  "cq_path=verbs cannot have cqe_comp=l34h" },
		{ "dev=emu,cq_path=verbs,cqe_comp=hash,cqe_comp_layout=enhanced",
		  "cq_path=verbs cannot have cqe_comp_layout=enhanced" },
	};
	struct heap_use before, after;
	unsigned int i;
	int port;

	/* Warm up: the first port of a process makes ethdev's shared data. */
	port = port_probe("net_mlx5cq_tb", "dev=emu");
	TEST_ASSERT(port >= 0, "probe failed");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&before);
	for (i = 0; i < RTE_DIM(bad); i++)
		TEST_ASSERT_SUCCESS(probe_refused(NULL, bad[i].args,
						  &bad[i].msg, 1),
				    "devargs \"%s\"", bad[i].args);
	heap_use(&after);
	TEST_ASSERT(before.heap_bytes == after.heap_bytes &&
		    before.alloc_count == after.alloc_count,
		    "bad probes leaked: %" PRIu64 "/%" PRIu64 " -> %" PRIu64
		    "/%" PRIu64, before.heap_bytes, before.alloc_count,
		    after.heap_bytes, after.alloc_count);
	return TEST_SUCCESS;
}

/*
 * Devargs the device's capabilities refuse are refused at probe (a CQ of
 * each kind is made and destroyed there), the log line naming the
 * devargs; nothing leaked; with the capability the same devargs probe.
 */
static int
test_net_devargs_caps(void)
{
	static const char *const ftag[] = { "cqe_comp=ftag",
					    "cq_path=auto" };
	static const char *const c128[] = { "cqe_size=128", "cqe_comp=hash" };
	static const char *const enh[] = { "cqe_comp_layout=enhanced" };
	static const char *const nocomp[] = { "cqe_comp=hash",
					      "the device cannot make these "
					      "RX CQs" };
	struct mlx5_emu_caps caps;
	struct heap_use before, after;
	int port;

	heap_use(&before);
	mlx5_emu_caps_default(&caps);
	caps.mini_cqe_resp_flow_tag = 0;
	TEST_ASSERT_SUCCESS(probe_refused(&caps, "dev=emu,cqe_comp=ftag", ftag,
					  RTE_DIM(ftag)),
			    "ftag without mini_cqe_resp_flow_tag");
	mlx5_emu_caps_default(&caps);
	caps.cqe_compression_128 = 0;
	TEST_ASSERT_SUCCESS(probe_refused(&caps,
			    "dev=emu,cqe_comp=hash,cqe_size=128", c128,
			    RTE_DIM(c128)),
			    "128 B compression without cqe_compression_128");
	mlx5_emu_caps_default(&caps);
	caps.enhanced_cqe_compression = 0;
	TEST_ASSERT_SUCCESS(probe_refused(&caps,
			    "dev=emu,cqe_comp=csum,cqe_comp_layout=enhanced",
			    enh, RTE_DIM(enh)),
			    "enhanced layout without enhanced_cqe_compression");
	/* cqe_comp given: no fallback to plain CQEs (the default has one,
	 * suite net_rx_ahead).
	 */
	mlx5_emu_caps_default(&caps);
	caps.cqe_compression = 0;
	TEST_ASSERT_SUCCESS(probe_refused(&caps, "dev=emu,cqe_comp=hash",
					  nocomp, RTE_DIM(nocomp)),
			    "cqe_comp=hash without cqe_compression");
	heap_use(&after);
	TEST_ASSERT(before.heap_bytes == after.heap_bytes &&
		    before.alloc_count == after.alloc_count,
		    "refused probes leaked: %" PRIu64 "/%" PRIu64 " -> %"
		    PRIu64 "/%" PRIu64, before.heap_bytes, before.alloc_count,
		    after.heap_bytes, after.alloc_count);
	/* The default device has every one of them. */
	port = port_probe("net_mlx5cq_tc", "dev=emu,cqe_comp=ftag,"
			  "cqe_size=128,cqe_comp_layout=enhanced");
	TEST_ASSERT(port >= 0, "probe with the capabilities failed");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_devargs_suite = {
	.suite_name = "net_devargs",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_bad_devargs),
		TEST_CASE(test_net_devargs_caps),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_devargs, net_devargs_suite);
