/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_discover": the emulated HCA's devices in the verbs device
 * list, found and opened the way DPDK's drivers/common/mlx5 does it
 * (get_device_list, a match on ibdev_path, dv_open_device,
 * free_device_list), and query_port as the kernel's
 * mlx5_query_port_roce() answers for an Ethernet port. Specifications of
 * MLX5_EMU_DEVICES are listed all or none. Every case ends with no device
 * listed and none open.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>

#include <rte_common.h>

#include <mlx5_glue.h>

#include <mlx5_emu.h>

#include "test.h"

#define D_PATH0 "/sys/devices/pci0000:c0/0000:c0:01.0/0000:c1:00.0/infiniband/dsc0"
#define D_PATH1 "/sys/devices/pci0000:c0/0000:c0:01.0/0000:c1:00.1/infiniband/dsc1"

static int
dsc_setup(void)
{
	return mlx5_emu_install() == 0 ? 0 : -1;
}

/* Position of the device named name in list, or -1. */
static int
dsc_find(struct ibv_device **list, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i]->name, name) == 0)
			return i;
	return -1;
}

static int
test_discover_list_open_close(void)
{
	static const uint8_t mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x00, 0x21 };
	struct mlx5_emu_device_conf conf = {
		.name = "dsc0", .ibdev_path = D_PATH0, .wire = "dsc-w",
		.mac = mac,
	};
	struct ibv_device **list;
	struct ibv_port_attr pa;
	struct ibv_context *ctx;
	struct ibv_device *dev;
	int n0, n, i;

	list = mlx5_glue->get_device_list(&n0);
	TEST_ASSERT_NOT_NULL(list, "empty list");
	TEST_ASSERT_EQUAL(list[n0], NULL, "NULL-terminated");
	TEST_ASSERT_EQUAL(dsc_find(list, n0, "dsc0"), -1, "not listed yet");
	mlx5_glue->free_device_list(list);
	TEST_ASSERT_SUCCESS(mlx5_emu_device_add(&conf), "add");
	TEST_ASSERT_EQUAL(mlx5_emu_device_add(&conf), -EEXIST, "twice");
	TEST_ASSERT_EQUAL(mlx5_emu_device_count(), 1u, "count");
	list = mlx5_glue->get_device_list(&n);
	TEST_ASSERT_NOT_NULL(list, "list");
	TEST_ASSERT_EQUAL(n, n0 + 1, "one more device: %d", n);
	TEST_ASSERT_EQUAL(list[n], NULL, "NULL-terminated");
	i = dsc_find(list, n, "dsc0");
	TEST_ASSERT_EQUAL(i, n0, "after the wrapped table's devices: %d", i);
	dev = list[i];
	/* What rdma-core's sysfs scan fills and DPDK reads. */
	TEST_ASSERT(strcmp(dev->ibdev_path, D_PATH0) == 0, "ibdev_path %s",
		    dev->ibdev_path);
	TEST_ASSERT(strncmp(dev->dev_name, "uverbs", 6) == 0, "dev_name %s",
		    dev->dev_name);
	TEST_ASSERT_EQUAL(dev->node_type, IBV_NODE_CA, "node type");
	TEST_ASSERT_EQUAL(dev->transport_type, IBV_TRANSPORT_IB, "transport");
	TEST_ASSERT(strcmp(mlx5_glue->get_device_name(dev), "dsc0") == 0,
		    "get_device_name");
	ctx = mlx5_glue->dv_open_device(dev);
	mlx5_glue->free_device_list(list);
	TEST_ASSERT_NOT_NULL(ctx, "dv_open_device: %d", errno);
	TEST_ASSERT(mlx5_emu_is_emulated(ctx), "emulated context");
	TEST_ASSERT(strcmp(ctx->device->name, "dsc0") == 0, "ctx name");
	TEST_ASSERT(strcmp(ctx->device->ibdev_path, D_PATH0) == 0,
		    "ctx ibdev_path %s", ctx->device->ibdev_path);
	TEST_ASSERT_EQUAL(mlx5_emu_device_remove("dsc0"), -EBUSY, "open");
	/* Once at a time: a second open is refused. */
	errno = 0;
	list = mlx5_glue->get_device_list(&n);
	TEST_ASSERT_NULL(mlx5_glue->open_device(list[n0]), "second open");
	TEST_ASSERT_EQUAL(errno, EBUSY, "errno %d", errno);
	mlx5_glue->free_device_list(list);
	/* Alone on its wire: the link is up (loopback). */
	memset(&pa, 0xa5, sizeof(pa));
	TEST_ASSERT_SUCCESS(mlx5_glue->query_port(ctx, 1, &pa), "query_port");
	TEST_ASSERT_EQUAL(pa.link_layer, IBV_LINK_LAYER_ETHERNET, "link layer");
	TEST_ASSERT_EQUAL(pa.state, IBV_PORT_ACTIVE, "state %d", pa.state);
	TEST_ASSERT_EQUAL(pa.phys_state, 5, "phys_state LinkUp");
	TEST_ASSERT_EQUAL(pa.max_mtu, IBV_MTU_4096, "max_mtu");
	/* 1500 is IBV_MTU_1024 (ib_mtu_int_to_enum() rounds down). */
	TEST_ASSERT_EQUAL(pa.active_mtu, IBV_MTU_1024, "active_mtu %d",
			  pa.active_mtu);
	TEST_ASSERT_EQUAL(pa.lid, 0, "no LID on Ethernet");
	TEST_ASSERT_EQUAL(pa.gid_tbl_len, 256, "GIDs");
	TEST_ASSERT_SUCCESS(mlx5_emu_port_mtu_set(ctx, 9000), "mtu");
	TEST_ASSERT_SUCCESS(mlx5_glue->query_port(ctx, 1, &pa), "query_port");
	TEST_ASSERT_EQUAL(pa.active_mtu, IBV_MTU_4096, "active_mtu 9000");
	TEST_ASSERT_SUCCESS(mlx5_emu_wire_link_set("dsc-w", 0), "cable out");
	TEST_ASSERT_SUCCESS(mlx5_glue->query_port(ctx, 1, &pa), "query_port");
	TEST_ASSERT_EQUAL(pa.state, IBV_PORT_DOWN, "down: %d", pa.state);
	TEST_ASSERT_EQUAL(pa.phys_state, 3, "phys_state Disabled");
	TEST_ASSERT_EQUAL(mlx5_glue->query_port(ctx, 2, &pa), EINVAL,
			  "port 2");
	TEST_ASSERT_EQUAL(mlx5_glue->query_port(ctx, 0, &pa), EINVAL,
			  "port 0");
	TEST_ASSERT_SUCCESS(mlx5_glue->close_device(ctx), "close");
	/* Closed: it may be opened again, and removed. */
	list = mlx5_glue->get_device_list(&n);
	ctx = mlx5_glue->open_device(list[dsc_find(list, n, "dsc0")]);
	mlx5_glue->free_device_list(list);
	TEST_ASSERT_NOT_NULL(ctx, "reopen: %d", errno);
	TEST_ASSERT_SUCCESS(mlx5_glue->close_device(ctx), "close");
	TEST_ASSERT_SUCCESS(mlx5_emu_device_remove("dsc0"), "remove");
	TEST_ASSERT_EQUAL(mlx5_emu_device_remove("dsc0"), -ENOENT, "gone");
	TEST_ASSERT_EQUAL(mlx5_emu_device_count(), 0u, "count");
	return TEST_SUCCESS;
}

static int
test_discover_bad_conf(void)
{
	static const uint8_t mcast[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
	char longname[IBV_SYSFS_NAME_MAX + 1];
	struct mlx5_emu_device_conf c;
	int ret;

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	TEST_ASSERT_EQUAL(mlx5_emu_device_add(NULL), -EINVAL, "NULL");
	c = (struct mlx5_emu_device_conf){ .ibdev_path = D_PATH0 };
	TEST_ASSERT_EQUAL(mlx5_emu_device_add(&c), -EINVAL, "no name");
	c = (struct mlx5_emu_device_conf){ .name = "dsc0" };
	TEST_ASSERT_EQUAL(mlx5_emu_device_add(&c), -EINVAL, "no path");
	c.ibdev_path = "relative/path";
	TEST_ASSERT_EQUAL(mlx5_emu_device_add(&c), -EINVAL, "relative path");
	c = (struct mlx5_emu_device_conf){ .name = longname,
					   .ibdev_path = D_PATH0 };
	TEST_ASSERT_EQUAL(mlx5_emu_device_add(&c), -EINVAL, "long name");
	c = (struct mlx5_emu_device_conf){ .name = "dsc0",
					   .ibdev_path = D_PATH0, .wire = "" };
	TEST_ASSERT_EQUAL(mlx5_emu_device_add(&c), -EINVAL, "empty wire");
	c.wire = NULL;
	c.mac = mcast;
	TEST_ASSERT_EQUAL(mlx5_emu_device_add(&c), -EINVAL, "multicast MAC");
	/* Specifications: all or none. */
	ret = mlx5_emu_devices_add("name=dsc0,path=" D_PATH0
				   ";name=dsc1,path=" D_PATH1 ",colour=red");
	TEST_ASSERT_EQUAL(ret, -EINVAL, "unknown key: %d", ret);
	ret = mlx5_emu_devices_add("name=dsc0,path=" D_PATH0
				   ";name=dsc1,path=" D_PATH1
				   ",mac=02:00:00:00:00");
	TEST_ASSERT_EQUAL(ret, -EINVAL, "short MAC: %d", ret);
	ret = mlx5_emu_devices_add("name=dsc0");
	TEST_ASSERT_EQUAL(ret, -EINVAL, "no path: %d", ret);
	ret = mlx5_emu_devices_add("name=dsc0,path=" D_PATH0
				   ";name=dsc0,path=" D_PATH1);
	TEST_ASSERT_EQUAL(ret, -EEXIST, "a name twice: %d", ret);
	TEST_ASSERT_EQUAL(mlx5_emu_device_count(), 0u, "nothing listed");
	ret = mlx5_emu_devices_add("name=dsc0,path=" D_PATH0
				   ",wire=dsc-w,mac=02:00:00:00:00:30"
				   ";name=dsc1,path=" D_PATH1 ",wire=dsc-w");
	TEST_ASSERT_EQUAL(ret, 2, "two listed: %d", ret);
	TEST_ASSERT_EQUAL(mlx5_emu_device_count(), 2u, "count");
	TEST_ASSERT_SUCCESS(mlx5_emu_device_remove("dsc1"), "remove");
	TEST_ASSERT_SUCCESS(mlx5_emu_device_remove("dsc0"), "remove");
	TEST_ASSERT_EQUAL(mlx5_emu_device_count(), 0u, "count");
	return TEST_SUCCESS;
}

/* Two listed ports on one wire: each sees the other's link. */
static int
test_discover_two_ports(void)
{
	struct ibv_context *c0, *c1;
	struct ibv_device **list;
	struct ibv_port_attr pa;
	int n;

	TEST_ASSERT_EQUAL(mlx5_emu_devices_add("name=dsc0,path=" D_PATH0
					       ",wire=dsc-2"
					       ";name=dsc1,path=" D_PATH1
					       ",wire=dsc-2"), 2, "listed");
	list = mlx5_glue->get_device_list(&n);
	c0 = mlx5_glue->dv_open_device(list[dsc_find(list, n, "dsc0")]);
	c1 = mlx5_glue->dv_open_device(list[dsc_find(list, n, "dsc1")]);
	mlx5_glue->free_device_list(list);
	TEST_ASSERT(c0 != NULL && c1 != NULL, "opened");
	TEST_ASSERT_SUCCESS(mlx5_emu_port_admin_set(c1, 0), "c1 admin down");
	TEST_ASSERT_SUCCESS(mlx5_glue->query_port(c0, 1, &pa), "query_port");
	TEST_ASSERT_EQUAL(pa.state, IBV_PORT_DOWN, "partner down: %d",
			  pa.state);
	TEST_ASSERT_SUCCESS(mlx5_emu_port_admin_set(c1, 1), "c1 admin up");
	TEST_ASSERT_SUCCESS(mlx5_glue->query_port(c0, 1, &pa), "query_port");
	TEST_ASSERT_EQUAL(pa.state, IBV_PORT_ACTIVE, "partner up: %d",
			  pa.state);
	TEST_ASSERT_SUCCESS(mlx5_glue->close_device(c0), "close");
	TEST_ASSERT_SUCCESS(mlx5_glue->close_device(c1), "close");
	TEST_ASSERT_SUCCESS(mlx5_emu_device_remove("dsc0"), "remove");
	TEST_ASSERT_SUCCESS(mlx5_emu_device_remove("dsc1"), "remove");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_discover_suite = {
	.suite_name = "emu_discover",
	.setup = dsc_setup,
	.unit_test_cases = {
		TEST_CASE(test_discover_list_open_close),
		TEST_CASE(test_discover_bad_conf),
		TEST_CASE(test_discover_two_ports),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(emu_discover, emu_discover_suite);
