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

/* libFuzzer's entry points, defined by each target. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	static const char * const eal_args[] = {
		"--no-pci", "--no-shconf", "--no-huge", "-m", "512", "-l", "0",
		"--no-telemetry", "--log-level=2",
	};
	char prefix[64];
	char *argv[RTE_DIM(eal_args) + 3];
	int argc = 0;
	unsigned int i;

	argv[argc++] = (char *)(uintptr_t)prog;
	argv[argc++] = prefix;
	for (i = 0; i < RTE_DIM(eal_args); i++)
		argv[argc++] = (char *)(uintptr_t)eal_args[i];
	argv[argc] = NULL;
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
