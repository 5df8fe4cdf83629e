// libFuzzer's driver, called from a Swift `main`: SwiftPM gives every executable
// a `main` of its own, so libFuzzer's is never linked in.
#ifndef LIBFUZZER_DRIVER_H
#define LIBFUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the command line `argc`/`argv` on `callback`; returns its exit code.
/// Provided by libFuzzer (`-sanitize=fuzzer`).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
