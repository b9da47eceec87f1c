/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_lcore.h>
#include <rte_malloc.h>

#include "test_usage.h"

void
heap_use(struct heap_use *u)
{
	struct rte_malloc_socket_stats ms;
	unsigned int i;

	memset(u, 0, sizeof(*u));
	for (i = 0; i < rte_socket_count(); i++) {
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &ms))
			continue;
		u->heap_bytes += ms.heap_allocsz_bytes;
		u->alloc_count += ms.alloc_count;
	}
}

int
heap_use_same(const struct heap_use *before, const struct heap_use *after,
	      const char *what)
{
	if (before->heap_bytes == after->heap_bytes &&
	    before->alloc_count == after->alloc_count)
		return 0;
	printf("%s leaked: %" PRIu64 "/%" PRIu64 " -> %" PRIu64 "/%" PRIu64
	       "\n", what, before->heap_bytes, before->alloc_count,
	       after->heap_bytes, after->alloc_count);
	return -1;
}

/*
 * Sockets are left out: none of the code under test opens one, while the
 * EAL telemetry thread accepts (and soon closes) a connection whenever
 * another DPDK process probes its socket, at any moment of a test. So is
 * the EAL interrupt thread's epoll instance: the thread closes and makes
 * it again whenever an interrupt callback is registered or removed (a
 * port's link event callback at probe and close), so at any moment there
 * may be zero, one or two of them; the code under test makes none.
 */
static unsigned int
open_fds_now(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	unsigned int n = 0;
	char path[sizeof("/proc/self/fd/") + sizeof(e->d_name)];
	char target[32];
	ssize_t len;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len > 0) {
			target[len] = '\0';
			if (strncmp(target, "socket:", 7) == 0 ||
			    strcmp(target, "anon_inode:[eventpoll]") == 0)
				continue;
		}
		n++;
	}
	closedir(d);
	return n;
}

/*
 * The count once it holds still: two reads 5 ms apart agree (at most
 * 200 ms). A descriptor another thread closes a little after the call
 * that released it (an EAL or emulator thread finishing its work) is not
 * a leak; one still open then is.
 */
unsigned int
open_fds(void)
{
	unsigned int prev = open_fds_now(), cur = prev, i;

	for (i = 0; i < 40; i++) {
		usleep(5000);
		cur = open_fds_now();
		if (cur == prev)
			break;
		prev = cur;
	}
	return cur;
}
