/*
 * test_sha256.c -- core/sha256.c against the FIPS 180-4 example digests
 * (NIST's "abc", the 448-bit two-block message, one million 'a') and the
 * empty message, whole and fed in pieces of every size across a block.
 *
 * Invariant: the expected digests are the published ones, not the
 * program's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../core/sha256.h"

static void test_sha256_nist_vectors(void **state)
{
    (void)state;
    char hex[65];
    sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    char *a = malloc(1000000);
    assert_non_null(a);
    memset(a, 'a', 1000000);
    sha256_hex(a, 1000000, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}

/* The same digest whatever the pieces the message comes in (the buffer
 * across block ends, the padding at 55, 56 and 64 bytes). */
static void test_sha256_pieces(void **state)
{
    (void)state;
    unsigned char msg[200];
    for (int i = 0; i < 200; i++)
        msg[i] = (unsigned char)(i * 7 + 3);
    for (size_t len = 0; len <= 200; len++) {
        char whole[65];
        sha256_hex(msg, len, whole);
        for (size_t step = 1; step <= 70; step += 23) {
            Sha256 s;
            unsigned char d[32];
            sha256_init(&s);
            for (size_t at = 0; at < len; at += step)
                sha256_update(&s, msg + at, len - at < step ? len - at : step);
            sha256_final(&s, d);
            char hex[65];
            for (int i = 0; i < 32; i++)
                snprintf(hex + 2 * i, 3, "%02x", d[i]);
            assert_string_equal(hex, whole);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_nist_vectors),
        cmocka_unit_test(test_sha256_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
