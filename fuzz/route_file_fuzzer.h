// SPDX-License-Identifier: Apache-2.0
#pragma once

// The body of the route-file fuzz targets: load the text into a fresh context and compile
// every route (endpoints resolved, expressions parsed), starting nothing. Errors are fine;
// crashes, hangs, leaks and undefined behaviour are not.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <dromedary/dromedary.h>
#include <dromedary/dsl/route_loader.h>

namespace dromedary::fuzz {

template <class Load>
int loadAndCompile(const uint8_t* data, size_t size, Load load) {
  static const bool quiet = [] {
    setLogLevel(LoggingLevel::Off);
    return true;
  }();
  (void)quiet;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Context context("fuzz");
  registerBuiltinComponents(context);
  context.properties().set("greeting", "hello");
  if (load(context, text)) (void)context.compileRoutes();
  return 0;
}

}  // namespace dromedary::fuzz
