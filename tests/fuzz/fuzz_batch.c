/*
 * fuzz_batch.c -- libFuzzer entry point of the batch target (docs/FUZZING.md).
 * Built only by tests/fuzz/fuzz.mk; every check lives in fuzz_batch
 * (tests/support/fuzz_targets.c), which aborts when an invariant breaks.
 */
#include <stddef.h>
#include <stdint.h>

#include "../support/fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_batch(data, size), 0;
}
