// SPDX-License-Identifier: Apache-2.0
// The main example (`make run`): orders flow through a filter, a content-based router and
// three routes joined by direct:, with Camel-shaped log lines along the way. It sends a
// handful of orders, asks one route for a reply, prints what each route did, and exits.
#include <cstdio>
#include <string>

#include <dromedary/dromedary.h>

using namespace dromedary;

namespace {

// A processor of our own: normalises the order id to upper case.
class NormaliseOrderId final : public Processor {
 public:
  Status process(Exchange& ex) override {
    std::string id = ex.message().getHeader("orderId")->as<std::string>();
    for (char& c : id) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    ex.message().setHeader("orderId", std::move(id));
    return Status::Continue;
  }
};

class OrderRoutes final : public RouteBuilder {
 public:
  void configure() override {
    from("direct:orders")
        .routeId("orders")
        .removeHeaders("Internal*")  // never let internal headers leave the gateway
        .setHeader("received", constant(true))
        .process(std::make_shared<NormaliseOrderId>())
        .filter(simple("${header.type} == 'order'"))
          .choice()
            .when(simple("${header.amount} >= {{orders.big-threshold}}"))
              .setHeader("priority", constant("high"))
              .to("direct:big-orders")
            .when(header("region") == "EU")  // the C++ expression DSL, for comparison
              .to("direct:eu-orders")
            .otherwise()
              .to("log:orders.standard?showHeaders=true")
          .end()
        .end()
        .to("log:orders.done?showExchangePattern=false&showBodyType=false");

    from("direct:big-orders")
        .routeId("big-orders")
        .log(LoggingLevel::Info, "orders.big",
             "A big order (${header.amount}) from ${header.region}: routing it to the review desk")
        .to("log:orders.big?showHeaders=true");

    from("direct:eu-orders")
        .routeId("eu-orders")
        .transform(simple("EU:${body}"))
        .to("log:orders.eu");

    from("direct:quote")
        .routeId("quote")
        .setBody(expression([](const Exchange& ex) {  // C++ where C++ is wanted
          return Value{ex.message().body().as<std::string>() + " costs 42.00 EUR"};
        }));
  }
};

}  // namespace

int main() {
  Context context("order-routing");
  registerBuiltinComponents(context);
  context.properties().set("orders.big-threshold", "1000");

  OrderRoutes routes;
  if (auto added = context.addRoutes(routes); !added) {
    std::fprintf(stderr, "cannot add routes: %s\n", added.error().toString().c_str());
    return 1;
  }
  if (auto started = context.start(); !started) {
    std::fprintf(stderr, "cannot start: %s\n", started.error().toString().c_str());
    return 1;
  }

  ProducerTemplate producer(context);
  struct Order {
    const char* id;
    const char* type;
    int amount;
    const char* region;
  };
  const Order orders[] = {
      {"a-100", "order", 2500, "US"},
      {"a-101", "order", 40, "EU"},
      {"a-102", "order", 75, "APAC"},
      {"a-103", "refund", 10, "EU"},  // filtered out: not an order
  };
  for (const Order& o : orders) {
    Headers headers{{"orderId", o.id},
                    {"type", o.type},
                    {"amount", o.amount},
                    {"region", o.region},
                    {"InternalTraceId", "t-1"}};
    if (auto sent = producer.sendBodyAndHeaders("direct:orders", std::string("order ") + o.id,
                                                headers);
        !sent) {
      std::fprintf(stderr, "send failed: %s\n", sent.error().toString().c_str());
      return 1;
    }
  }

  auto quote = producer.requestBody("direct:quote", "EURUSD");
  if (!quote) {
    std::fprintf(stderr, "request failed: %s\n", quote.error().toString().c_str());
    return 1;
  }
  std::printf("quote reply: %s\n", quote->toString().c_str());

  // A mistake is reported, not thrown: there is no route consuming direct:nowhere.
  auto missing = producer.sendBody("direct:nowhere?block=false", "lost?");
  std::printf("send to direct:nowhere: %s\n",
              missing ? "ok" : missing.error().message.c_str());

  StopReport report = context.stop();
  std::printf("stopped %s in %lldms\n", report.graceful ? "gracefully" : "by force",
              static_cast<long long>(report.took.count()));
  return 0;
}
