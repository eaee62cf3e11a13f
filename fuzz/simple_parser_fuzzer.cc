// SPDX-License-Identifier: Apache-2.0
// Fuzz target: any text, compiled as a Simple expression and as a predicate, and when it
// compiles, evaluated on a message with headers, properties and a map body. Nothing may
// crash, hang, leak or read out of bounds; errors are fine.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <dromedary/dromedary.h>

namespace {

dromedary::Context& context() {
  static dromedary::Context* c = [] {
    dromedary::setLogLevel(dromedary::LoggingLevel::Off);
    auto* ctx = new dromedary::Context("fuzz");
    ctx->properties().set("greeting", "hello");
    return ctx;
  }();
  return *c;
}

void fillExchange(dromedary::Exchange& ex) {
  using dromedary::Value;
  ex.message().setBody(Value(dromedary::ValueMap{
      {"name", Value("Camel")},
      {"items", Value(dromedary::ValueList{Value(1), Value("two"), Value(3.5)})},
  }));
  ex.message().setHeader("foo", Value("bar"));
  ex.message().setHeader("n", Value(42));
  ex.message().setHeader("d", Value(int64_t{1709214307089}));
  ex.message().setHeader("text", Value("  Hello World  "));
  ex.setProperty("p", Value(true));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  dromedary::Context& ctx = context();
  dromedary::Language* simple = ctx.language("simple");
  if (auto e = simple->createExpression(text, ctx)) {
    dromedary::ExchangePtr ex = dromedary::acquireExchange(&ctx);
    fillExchange(*ex);
    dromedary::Value scratch;
    (*e)->evaluate(*ex, scratch);
  }
  if (auto p = simple->createPredicate(text, ctx)) {
    dromedary::ExchangePtr ex = dromedary::acquireExchange(&ctx);
    fillExchange(*ex);
    (*p)->matches(*ex);
  }
  return 0;
}
