// SPDX-License-Identifier: Apache-2.0
// A module as another build would have made it (component_modules_test.cc): the loader must
// refuse it before calling its registration, which would fail the test.
#include <cstdio>
#include <cstdlib>

namespace dromedary {
class Context;
}

extern "C" {

__attribute__((visibility("default"))) const char* dromedary_module_build() {
  return "another build";
}

__attribute__((visibility("default"))) void dromedary_module_register(dromedary::Context&) {
  std::fputs("a module of another build was registered\n", stderr);
  std::abort();
}

}  // extern "C"
