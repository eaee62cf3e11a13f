// SPDX-License-Identifier: Apache-2.0
// http_get: one GET over a kept-alive loopback connection to a platform-http route (path
// parameter into a Simple body), answered: the request-response cost of the HTTP component,
// client included (a Beast client in this thread; the server's I/O thread and a worker).
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <dromedary/dromedary.h>
#include <dromedary/http/platform_http.h>

#include "latency_histogram.h"
#include "scenario.h"

namespace dromedary::bench {
namespace {

namespace beast = boost::beast;
namespace bhttp = beast::http;

class HttpGet final : public ScenarioRun {
 public:
  HttpGet() : stream_(io_) {
    setLogLevel(LoggingLevel::Warn);
    registerBuiltinComponents(context_);
    context_.properties().set("camel.server.host", "127.0.0.1");
    context_.properties().set("camel.server.port", "0");
    auto added = context_.addRoutes([](RouteBuilder& b) {
      b.from("platform-http:/hello/{name}?httpMethodRestrict=GET")
          .setBody(simple("Hello ${header.name}"));
    });
    check(added.has_value(), "routes");
    check(context_.start().has_value(), "start");
    stream_.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"),
                                                   platformHttpPort(context_)));
    request_ = {bhttp::verb::get, "/hello/bob", 11};
    request_.set(bhttp::field::host, "127.0.0.1");
    for (int i = 0; i < 1000; ++i) once();
  }
  ~HttpGet() override { context_.stop(); }

  void once() override {
    auto begin = std::chrono::steady_clock::now();
    bhttp::write(stream_, request_);
    bhttp::response<bhttp::string_body> response;
    bhttp::read(stream_, buffer_, response);
    check(response.body() == "Hello bob", "response");
    latency_.recordSince(begin);
  }
  void resetFigures() override { latency_.reset(); }
  void report(std::vector<std::pair<std::string, double>>& figures) override {
    figures.emplace_back("p50_ns", latency_.percentile(0.50));
    figures.emplace_back("p99_ns", latency_.percentile(0.99));
  }

 private:
  Context context_{"bench"};
  boost::asio::io_context io_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  bhttp::request<bhttp::empty_body> request_;
  LatencyHistogram latency_;
};

DROMEDARY_SCENARIO("http_get", HttpGet);

}  // namespace
}  // namespace dromedary::bench
