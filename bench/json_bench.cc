// SPDX-License-Identifier: Apache-2.0
// JSON through a route: unmarshal a 2 KB order, filter it with jsonpath, marshal it back,
// beside nlohmann-json (the library the reader is built on) parsing and dumping the same text
// alone, beside the reader alone, and (when Debian's libsimdjson-dev is installed) beside
// simdjson parsing it alone.
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#ifdef DROMEDARY_BENCH_SIMDJSON
#include <simdjson.h>
#endif

#include <dromedary/dromedary.h>

#include "json_text.h"
#include "scenario.h"

namespace dromedary::bench {
namespace {

// A 2 KB order: an object with 20 line items.
const std::string& order() {
  static const std::string text = [] {
    std::string t = R"({"id": "o-1001", "customer": {"name": "Ann Camel", "tier": "gold", "city": "Muscat"}, "items": [)";
    for (int i = 0; i < 20; ++i) {
      t += fmt::format(R"({}{{"sku": "SKU-{:04}", "qty": {}, "price": {}.25, "tags": ["a", "b"]}})",
                       i ? ", " : "", i, i % 5 + 1, 10 + i);
    }
    t += R"(], "rush": true, "note": "leave at the gate \u00e9"})";
    return t;
  }();
  return text;
}

// json_route: direct -> unmarshal json -> filter jsonpath -> marshal json -> end.
class JsonRoute final : public ScenarioRun {
 public:
  JsonRoute() {
    setLogLevel(LoggingLevel::Warn);
    context_.setStatisticsLevel(StatisticsLevel::Off);
    registerBuiltinComponents(context_);
    check(context_.addRoutes([](RouteBuilder& b) {
                    b.from("direct:json")
                        .unmarshal("json")
                        .filter(jsonpath("$.items[?(@.price > 25)]"))
                        .marshal("json")
                        .end();
                  }).has_value(),
          "addRoutes");
    check(context_.start().has_value(), "start");
  }
  ~JsonRoute() override { context_.stop(); }
  void once() override { check(producer_.sendBody("direct:json", body_).has_value(), "send"); }

 private:
  Value body_{order()};
  Context context_;
  ProducerTemplate producer_{context_};
};
DROMEDARY_SCENARIO("json_route", JsonRoute);

// json_nlohmann_bare: nlohmann-json parses the text into its tree and dumps it.
class NlohmannBare final : public ScenarioRun {
 public:
  void once() override {
    auto doc = nlohmann::json::parse(order());
    std::string out = doc.dump();
    check(!out.empty(), "dump");
  }
};
DROMEDARY_SCENARIO("json_nlohmann_bare", NlohmannBare);

// json_read_write: the data format's reader and writer alone (no route).
class ReadWrite final : public ScenarioRun {
 public:
  void once() override {
    auto v = component::json::readJson(order());
    check(v.has_value(), "read");
    std::string out;
    check(component::json::writeJson(*v, out).has_value(), "write");
  }
};
DROMEDARY_SCENARIO("json_read_write", ReadWrite);

// json_read: the reader alone (text to Values).
class ReadOnly final : public ScenarioRun {
 public:
  void once() override { check(component::json::readJson(order()).has_value(), "read"); }
};
DROMEDARY_SCENARIO("json_read", ReadOnly);

#ifdef DROMEDARY_BENCH_SIMDJSON
// json_simdjson_parse: simdjson (Debian's libsimdjson-dev, bench-only) parses the same text
// into its DOM with a reused parser, and the items are walked: the floor of reading it.
class SimdjsonParse final : public ScenarioRun {
 public:
  SimdjsonParse() : padded_(order()) {}
  void once() override {
    simdjson::dom::element doc;
    check(parser_.parse(padded_).get(doc) == simdjson::SUCCESS, "parse");
    simdjson::dom::array items;
    check(doc["items"].get(items) == simdjson::SUCCESS, "items");
    check(items.size() == 20, "items");
  }

 private:
  simdjson::padded_string padded_;
  simdjson::dom::parser parser_;
};
DROMEDARY_SCENARIO("json_simdjson_parse", SimdjsonParse);
#endif

}  // namespace
}  // namespace dromedary::bench
