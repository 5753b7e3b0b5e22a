/*
 * fuzz_house.c -- libFuzzer entry point of the house-rule target (docs/FUZZING.md).
 * Built only by tests/fuzz/fuzz.mk; every check lives in fuzz_house
 * (tests/support/fuzz_targets.c), which aborts when an invariant breaks.
 */
#include <stddef.h>
#include <stdint.h>

#include "../support/fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_house(data, size), 0;
}
