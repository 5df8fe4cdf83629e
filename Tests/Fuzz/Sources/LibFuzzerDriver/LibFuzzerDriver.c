// Declarations only: LLVMFuzzerRunDriver comes from libFuzzer.
#include "LibFuzzerDriver.h"
