/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef FUZZ_EAL_H_
#define FUZZ_EAL_H_

/*
 * EAL start for the libFuzzer targets, once per process from
 * LLVMFuzzerInitialize(): no PCI probe, private memory without
 * hugepages (ASan friendly; EAL refuses --in-memory with --no-huge, so
 * no shared config and a file prefix of this process), one lcore, quiet
 * logs (a rejected input
 * logs an ERR line by design; thousands per second would drown the
 * fuzzer's own output).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_log.h>

/* Abort the fuzzer with a message: libFuzzer saves the input. */
#define FUZZ_CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "FUZZ CHECK FAILED %s:%d: %s: ", __FILE__, \
			__LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		abort(); \
	} \
} while (0)

static inline void
fuzz_eal_init(const char *prog)
{
	char prefix[64];
	char *argv[] = {
		(char *)(uintptr_t)prog,
		(char *)(uintptr_t)"--no-pci",
		(char *)(uintptr_t)"--no-shconf",
		prefix,
		(char *)(uintptr_t)"--no-huge",
		(char *)(uintptr_t)"-m",
		(char *)(uintptr_t)"512",
		(char *)(uintptr_t)"-l",
		(char *)(uintptr_t)"0",
		(char *)(uintptr_t)"--no-telemetry",
		(char *)(uintptr_t)"--log-level=2",
		NULL,
	};
	int argc = (int)RTE_DIM(argv) - 1;

	snprintf(prefix, sizeof(prefix), "--file-prefix=fuzz%d",
		 (int)getpid());

	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "%s: EAL initialisation failed\n", prog);
		exit(1);
	}
	/* FUZZ_LOG=debug keeps every log line (reproducing a finding). */
	rte_log_set_global_level(getenv("FUZZ_LOG") != NULL ?
				 RTE_LOG_DEBUG : RTE_LOG_ALERT);
}

#endif /* FUZZ_EAL_H_ */
