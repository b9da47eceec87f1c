/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_devargs": the crypto PMD refuses bad devargs and devices
 * with a log line naming the cause, and leaves the rte_malloc heap and the
 * open file descriptors as they were.
 * The fixture (devices, pools, known-answer cases) is
 * test_crypto_fixture.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_crypto_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"
#include "test_wait.h"
#include "test_xts_vectors.h"

/* Probe C_NAME with args; refused with a log line holding want, no
 * cryptodev left: 0.
 */
static int
probe_refused(const char *args, const char *want)
{
	uint8_t nb = rte_cryptodev_count();
	FILE *old = rte_log_get_stream(), *log;
	char *buf = NULL;
	size_t len = 0;
	int ret = 0;

	log = open_memstream(&buf, &len);
	if (log == NULL)
		return -1;
	rte_openlog_stream(log);
	if (rte_eal_hotplug_add("vdev", C_NAME, args) == 0) {
		printf("  \"%s\" probed\n", args);
		rte_eal_hotplug_remove("vdev", C_NAME);
		ret = -1;
	}
	rte_openlog_stream(old);
	fclose(log);
	if (rte_cryptodev_count() != nb)
		ret = -1;
	if (ret == 0 && (buf == NULL || strstr(buf, want) == NULL)) {
		printf("  \"%s\": no \"%s\" in the log:\n%s\n", args, want,
		       buf ? buf : "");
		ret = -1;
	}
	free(buf);
	return ret;
}

/* A credential file of the suite (removed at the end). */
#define WCS_SHORT "/tmp/mlx5cq_test_wcs_short"

#define CRED96 "000102030405060708090a0b0c0d0e0f101112131415161718191a1b" \
	       "1c1d1e1f202122232425262728292a2b2c2d2e2f"
#define KEK32 "000102030405060708090a0b0c0d0e0f"
#define CRED80 "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadb" \
	       "dcdddedfe0e1e2e3e4e5e6e7"

/* Bad devargs and devices: refused with a log line naming the cause,
 * nothing left behind.
 */
static int
test_crypto_bad_devargs(void)
{
	static const struct {
		int crypto;
		const char *args;
		const char *msg;
	} bad[] = {
		{ 1, "dev=emu,foo=1", "unknown key foo" },
		{ 1, "", "dev= is required" },
		{ 1, "dev=emu,max_segs_num=0", "bad value \"0\" for max_segs_num" },
		{ 1, "dev=emu,max_segs_num=x",
		  "bad value \"x\" for max_segs_num" },
		{ 1, "dev=emu,credential_id=0x1000000",
		  "bad value \"0x1000000\" for credential_id" },
		{ 1, "dev=emu,import_kek_id=-1",
		  "bad value \"-1\" for import_kek_id" },
		{ 1, "dev=emu,keytag=12z", "bad value \"12z\" for keytag" },
		{ 1, "dev=emu,key_mode=clear",
		  "bad value \"clear\" for key_mode" },
		{ 1, "dev=emu,credential=abcd",
		  "bad value for credential: 96 hex digits expected" },
		{ 1, "dev=emu,key_mode=plaintext,credential=" CRED96,
		  "credential applies to key_mode=wrapped only" },
		{ 1, "dev=no_such_ibdev", "dev=no_such_ibdev: no such RDMA" },
		{ 1, "dev=no_such_ibdev,emu_crypto=plaintext",
		  "emu_crypto applies to dev=emu only" },
		{ 1, "dev=emu,emu_crypto=on", "bad value \"on\" for emu_crypto" },
		{ 1, "dev=emu,max_nb_queue_pairs=0",
		  "bad value \"0\" for max_nb_queue_pairs" },
		{ 1, "dev=emu,max_nb_queue_pairs=129",
		  "bad value \"129\" for max_nb_queue_pairs" },
		/* Devices without the crypto engine. */
		{ 0, "dev=emu", "the device has no AES-XTS crypto" },
		/* Plaintext device: wrapped mode or a credential refused. */
		{ 1, "dev=emu,key_mode=wrapped",
		  "key_mode=wrapped: the device imports plaintext keys" },
		{ 1, "dev=emu,credential=" CRED96,
		  "credential applies to wrapped keys" },
		/* Wrapped device: a credential is needed, and must log in. */
		{ 1, "dev=emu,emu_crypto=wrapped",
		  "wcs_file= or credential= (with credential_id and "
		  "import_kek_id) is required" },
		{ 1, "dev=emu,emu_crypto=wrapped,key_mode=plaintext",
		  "key_mode=plaintext: the device imports wrapped keys only" },
		{ 1, "dev=emu,emu_crypto=wrapped,credential_id=5,"
		  "import_kek_id=6,credential=" CRED96,
		  "crypto login (credential_id 5, import_kek_id 6) refused" },
		/* The credential from a file (DPDK's wcs_file). */
		{ 1, "dev=emu,wcs_file=/nonexistent/wcs",
		  "wcs_file /nonexistent/wcs: cannot open: No such file" },
		{ 1, "dev=emu,wcs_file=" WCS_SHORT,
		  "wcs_file " WCS_SHORT ": 47 of the 48 credential bytes" },
		{ 1, "dev=emu,credential=" CRED96 ",wcs_file=" WCS_SHORT,
		  "credential= and wcs_file= both give the credential" },
		{ 1, "dev=emu,wcs_file=", "bad value \"\" for wcs_file" },
		/* The emulated device's provisioning (emu_kek and
		 * emu_credential).
		 */
		{ 1, "dev=emu,emu_crypto=wrapped,emu_kek=0011",
		  "bad value for emu_kek: 32 or 64 hex digits expected" },
		{ 1, "dev=emu,emu_crypto=wrapped,emu_credential=" KEK32,
		  "bad value for emu_credential: 80 hex digits expected" },
		{ 1, "dev=emu,emu_crypto=plaintext,emu_kek=" KEK32
		  ",emu_credential=" CRED80,
		  "emu_kek and emu_credential apply to emu_crypto=wrapped" },
		{ 1, "dev=emu,emu_crypto=wrapped,emu_kek=" KEK32,
		  "emu_kek and emu_credential go together" },
		/* Provisioned, but the login's credential is not the
		 * provisioned one wrapped by the provisioned KEK.
		 */
		{ 1, "dev=emu,emu_crypto=wrapped,emu_kek=" KEK32
		  ",emu_credential=" CRED80 ",credential_id=0x11,"
		  "import_kek_id=0x10,credential=" CRED96,
		  "crypto login (credential_id 17, import_kek_id 16) refused" },
		/* WQEs larger than the device's send WQEs. */
		{ 1, "dev=emu,max_segs_num=4096", "max_segs_num=4096: WQEs" },
	};
	struct heap_use before;
	unsigned int i, fds;
	FILE *f;

	/* A credential file one byte short: 47 bytes of hex. */
	f = fopen(WCS_SHORT, "w");
	TEST_ASSERT_NOT_NULL(f, "short wcs file");
	for (i = 0; i < 47; i++)
		fprintf(f, "%02X%c", i, i % 16 == 15 ? '\n' : ' ');
	fclose(f);
	/* Warm up: the first device of a process makes cryptodev data. */
	TEST_ASSERT_SUCCESS(crypto_caps(1, 0), "caps");
	TEST_ASSERT_SUCCESS(rte_eal_hotplug_add("vdev", C_NAME, "dev=emu"),
			    "probe");
	TEST_ASSERT_SUCCESS(rte_eal_hotplug_remove("vdev", C_NAME), "remove");
	heap_use(&before);
	fds = open_fds();
	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT_SUCCESS(crypto_caps(bad[i].crypto, 0), "caps");
		TEST_ASSERT_SUCCESS(probe_refused(bad[i].args, bad[i].msg),
				    "devargs \"%s\"", bad[i].args);
	}
	mlx5_emu_open_caps_set(NULL);
	unlink(WCS_SHORT);
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "bad probes"), "leak");
	TEST_ASSERT_EQUAL(open_fds(), fds, "file descriptors leaked");
	return TEST_SUCCESS;
}

/* max_nb_queue_pairs: 128 by default (crypto/mlx5's), else the value
 * given, in the device's info and its configure bound.
 */
static int
test_crypto_max_qps(void)
{
	struct rte_cryptodev_config conf = {
		.socket_id = SOCKET_ID_ANY,
	};
	struct rte_cryptodev_info info;
	int id;

	TEST_ASSERT_SUCCESS(crypto_caps(1, 0), "caps");
	TEST_ASSERT_SUCCESS(rte_eal_hotplug_add("vdev", C_NAME, "dev=emu"),
			    "probe");
	id = rte_cryptodev_get_dev_id(C_NAME);
	TEST_ASSERT(id >= 0, "no device");
	rte_cryptodev_info_get((uint8_t)id, &info);
	TEST_ASSERT_EQUAL(info.max_nb_queue_pairs, 128, "default");
	TEST_ASSERT_SUCCESS(rte_eal_hotplug_remove("vdev", C_NAME), "remove");
	TEST_ASSERT_SUCCESS(rte_eal_hotplug_add("vdev", C_NAME,
						"dev=emu,max_nb_queue_pairs=2"),
			    "probe with 2 queue pairs");
	id = rte_cryptodev_get_dev_id(C_NAME);
	TEST_ASSERT(id >= 0, "no device");
	rte_cryptodev_info_get((uint8_t)id, &info);
	TEST_ASSERT_EQUAL(info.max_nb_queue_pairs, 2, "max_nb_queue_pairs=2");
	conf.nb_queue_pairs = 3;
	TEST_ASSERT(rte_cryptodev_configure((uint8_t)id, &conf) != 0,
		    "3 queue pairs configured");
	conf.nb_queue_pairs = 2;
	TEST_ASSERT_SUCCESS(rte_cryptodev_configure((uint8_t)id, &conf),
			    "2 queue pairs");
	TEST_ASSERT_SUCCESS(rte_eal_hotplug_remove("vdev", C_NAME), "remove");
	mlx5_emu_open_caps_set(NULL);
	return TEST_SUCCESS;
}

/*
 * Queue pair sizes: a QP holds 2^15 WQEBBs at most (log_max_qp_sz, and the
 * 4 bits of the QPC's log_sq_size that mlx5_devx_cmd_create_qp() writes).
 * Sets of 512 bytes (8 WQEBBs, max_segs_num 8): 4096 descriptors set up
 * and cipher the IEEE 1619 vector exactly, 8192 are refused with a log
 * line and nothing leaked; sets of 1 KiB (max_segs_num 16): 2048 and
 * 4096.
 */
static int
qp_size(const char *args, uint32_t fits, uint32_t refused)
{
	struct rte_cryptodev_qp_conf qc = { .mp_session = c_pools.sess };
	FILE *old = rte_log_get_stream(), *log;
	struct heap_use before;
	char *buf = NULL;
	size_t len = 0;
	int ret, said;
	uint8_t id;

	TEST_ASSERT_SUCCESS(crypto_dev_up(C_NAME, args, 0, c_pools.sess, &id),
			    "device %s", args);
	heap_use(&before);
	qc.nb_descriptors = refused;
	log = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(log, "memstream");
	rte_openlog_stream(log);
	ret = rte_cryptodev_queue_pair_setup(id, 0, &qc, SOCKET_ID_ANY);
	rte_openlog_stream(old);
	fclose(log);
	said = buf != NULL &&
	       strstr(buf, "WQEBBs, the device's QPs have at most 32768") !=
	       NULL;
	free(buf);
	TEST_ASSERT(ret != 0, "%s: %u descriptors set up", args, refused);
	TEST_ASSERT(said, "%s: %u descriptors: no log line", args, refused);
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "refused queue pair"),
			    "leak");
	qc.nb_descriptors = fits;
	TEST_ASSERT_SUCCESS(rte_cryptodev_queue_pair_setup(id, 0, &qc,
							   SOCKET_ID_ANY),
			    "%s: %u descriptors", args, fits);
	TEST_ASSERT_SUCCESS(rte_cryptodev_start(id), "start");
	TEST_ASSERT_SUCCESS(kat_one(id, &kat_cases[0], 1), "%s: %u: v4",
			    args, fits);
	TEST_ASSERT_SUCCESS(kat_one(id, &kat_cases[0], 0), "%s: %u: v4 back",
			    args, fits);
	TEST_ASSERT_SUCCESS(dev_down(id), "down");
	return TEST_SUCCESS;
}

static int
test_crypto_qp_size(void)
{
	TEST_ASSERT_SUCCESS(qp_size("dev=emu", 4096, 8192), "512-byte sets");
	TEST_ASSERT_SUCCESS(qp_size("dev=emu,max_segs_num=16", 2048, 4096),
			    "1 KiB sets");
	return TEST_SUCCESS;
}

static struct unit_test_suite crypto_devargs_suite = {
	.suite_name = "crypto_devargs",
	.setup = crypto_suite_setup,
	.teardown = crypto_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_crypto_bad_devargs),
		TEST_CASE(test_crypto_max_qps),
		TEST_CASE(test_crypto_qp_size),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_devargs, crypto_devargs_suite);
