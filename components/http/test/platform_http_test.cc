// SPDX-License-Identifier: Apache-2.0
// platform-http routes over real sockets on 127.0.0.1: what a request carries into the route,
// what the response carries out, the statuses the server gives by itself, keep-alive, and that
// a slow route holds no other request up.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include <dromedary/http/platform_http.h>

#include "support/busy_workers.h"
#include "platform_http_fixture.h"
#include "support/http_client.h"
#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

using PlatformHttpTest = PlatformHttpFixture;

TEST_F(PlatformHttpTest, AGetWithAPathParameterIsAnsweredWithTheRoutesBody) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/hello/{name}?httpMethodRestrict=GET")
        .transform(simple("Hello ${header.name}"));
  });
  HttpReply r = get("/hello/bob");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "Hello bob");
}

TEST_F(PlatformHttpTest, QueryParametersRequestHeadersAndTheMethodReachTheRoute) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/echo")
        .setBody(simple("${header.a}|${header.X-Trace}|${header.CamelHttpMethod}|"
                        "${header.CamelHttpQuery}|${header.CamelHttpPath}"));
  });
  HttpReply r = get("/echo?a=1%202&b=x", {{"X-Trace", "t-9"}});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "1 2|t-9|GET|a=1%202&b=x|/echo");
}

TEST_F(PlatformHttpTest, APostedBodyIsTheMessageBody) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/orders?httpMethodRestrict=POST").transform(simple("got ${body}"));
  });
  HttpReply r = httpRequest(port, "POST", "/orders", HttpHeaders{{"Content-Type", "text/plain"}},
                            "order-1");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "got order-1");
}

TEST_F(PlatformHttpTest, TheRouteSetsStatusContentTypeAndHeadersButCamelHeadersStayInside) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/created")
        .setHeader("CamelHttpResponseCode", constant(int64_t{201}))
        .setHeader("Content-Type", constant("application/json"))
        .setHeader("Location", constant("/orders/1"))
        .setHeader("CamelSecret", constant("x"))
        .setBody(constant("{\"id\":1}"));
  });
  HttpReply r = httpRequest(port, "PUT", "/created", HttpHeaders{});
  EXPECT_EQ(r.status, 201);
  EXPECT_EQ(r.contentType, "application/json");
  EXPECT_EQ(r.header("Location"), "/orders/1");
  EXPECT_EQ(r.header("CamelSecret"), "");
  EXPECT_EQ(r.header("CamelHttpMethod"), "");
  EXPECT_EQ(r.body, "{\"id\":1}");
}

TEST_F(PlatformHttpTest, ARouteLeavingNoBodyAnswers204) {
  start([](RouteBuilder& b) { b.from("platform-http:/nothing").setBody(constant(Value())); });
  EXPECT_EQ(get("/nothing").status, 204);
}

TEST_F(PlatformHttpTest, AFailedExchangeIs500WithTheErrorUnlessMuted) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/fail").process([](Exchange&) { throw std::runtime_error("boom"); });
    b.from("platform-http:/quiet?muteException=true").process([](Exchange&) {
      throw std::runtime_error("secret detail");
    });
  });
  HttpReply r = get("/fail");
  EXPECT_EQ(r.status, 500);
  EXPECT_NE(r.body.find("boom"), std::string::npos) << r.body;
  HttpReply quiet = get("/quiet");
  EXPECT_EQ(quiet.status, 500);
  EXPECT_EQ(quiet.body, "");
}

TEST_F(PlatformHttpTest, TheRoutesErrorHandlerDecidesTheResponseOfAHandledFailure) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/handled")
        .onException()
          .handled(true)
          .setHeader("CamelHttpResponseCode", constant(int64_t{400}))
          .setBody(simple("bad request: ${exception.message}"))
        .end()
        .process([](Exchange&) { throw std::invalid_argument("no id"); });
  });
  HttpReply r = get("/handled");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, "bad request: no id");
}

TEST_F(PlatformHttpTest, UnknownPathsAre404AndOtherMethods405WithAllow) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/items?httpMethodRestrict=GET,POST").setBody(constant("items"));
  });
  EXPECT_EQ(get("/nowhere").status, 404);
  HttpReply r = httpRequest(port, "DELETE", "/items", HttpHeaders{});
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.header("Allow"), "GET, POST");
  HttpReply options = httpRequest(port, "OPTIONS", "/items", HttpHeaders{});
  EXPECT_EQ(options.status, 204);
  EXPECT_EQ(options.header("Allow"), "GET, POST");
  HttpReply head = httpRequest(port, "HEAD", "/items", HttpHeaders{});
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("Content-Length"), "5");
  EXPECT_EQ(head.body, "");
}

TEST_F(PlatformHttpTest, OnePathServesEachMethodFromItsOwnRoute) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/things?httpMethodRestrict=GET").setBody(constant("list"));
    b.from("platform-http:/things?httpMethodRestrict=POST").setBody(constant("created"));
  });
  EXPECT_EQ(get("/things").body, "list");
  EXPECT_EQ(httpRequest(port, "POST", "/things", HttpHeaders{}, "x").body, "created");
}

TEST_F(PlatformHttpTest, AnExactPathIsPreferredToATemplateAndAPrefixServesSubpaths) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/users/{id}").setBody(simple("user ${header.id}"));
    b.from("platform-http:/users/me").setBody(constant("myself"));
    b.from("platform-http:/static?matchOnUriPrefix=true").setBody(simple("${header.CamelHttpPath}"));
  });
  EXPECT_EQ(get("/users/me").body, "myself");
  EXPECT_EQ(get("/users/42").body, "user 42");
  EXPECT_EQ(get("/static/css/site.css").body, "/static/css/site.css");
}

TEST_F(PlatformHttpTest, TwoRoutesOnTheSamePathAndMethodFailToStart) {
  auto added = h.context.addRoutes([](RouteBuilder& b) {
    b.from("platform-http:/dup?httpMethodRestrict=GET").routeId("first").setBody(constant("1"));
    b.from("platform-http:/dup").routeId("second").setBody(constant("2"));
  });
  ASSERT_TRUE(added);
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find(
                "GET /dup is served already by platform-http:///dup?httpMethodRestrict=GET, so "
                "platform-http:///dup cannot serve it"),
            std::string::npos)
      << started.error().message;
}

TEST_F(PlatformHttpTest, BadOptionsFailWhenTheRouteIsAdded) {
  std::string method = startError([](RouteBuilder& b) {
    b.from("platform-http:/x?httpMethodRestrict=GET,FETCH").setBody(constant("1"));
  });
  EXPECT_NE(method.find("httpMethodRestrict names 'FETCH', not an HTTP method"), std::string::npos)
      << method;
  std::string port = startError(
      [](RouteBuilder& b) { b.from("platform-http:/y").to("mock:y"); }, {"camel.server.port", "http"});
  EXPECT_NE(port.find("camel.server.port=http must be a number from 0 to 65535"), std::string::npos)
      << port;
}

TEST_F(PlatformHttpTest, AHostThatIsNoAddressOrAPortInUseFailsTheStartSayingWhich) {
  auto route = [](RouteBuilder& b) { b.from("platform-http:/z").to("mock:z"); };
  EXPECT_EQ(startError(route, {"camel.server.host", "example.invalid"}),
            "the platform-http server's host 'example.invalid' is not an IP address "
            "(starting route 'route1')");
  start([](RouteBuilder& b) { b.from("platform-http:/taken").setBody(constant("1")); });
  std::string taken = std::to_string(port);
  Context other;
  registerBuiltinComponents(other);
  other.properties().set("camel.server.host", "127.0.0.1");
  other.properties().set("camel.server.port", taken);
  ASSERT_TRUE(other.addRoutes(route));
  auto started = other.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("cannot bind the platform-http server on 127.0.0.1:" + taken),
            std::string::npos)
      << started.error().message;
}

TEST_F(PlatformHttpTest, ConsumesAndProducesAreCheckedAgainstTheRequest) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/json?consumes=application/json&produces=application/json")
        .setBody(constant("{}"));
  });
  HttpReply wrong_type = httpRequest(port, "POST", "/json",
                                     HttpHeaders{{"Content-Type", "text/plain"}}, "x");
  EXPECT_EQ(wrong_type.status, 415);
  HttpReply wrong_accept = httpRequest(port, "POST", "/json",
                                       HttpHeaders{{"Content-Type", "application/json"},
                                                   {"Accept", "text/html"}},
                                       "{}");
  EXPECT_EQ(wrong_accept.status, 406);
  HttpReply ok = httpRequest(port, "POST", "/json",
                             HttpHeaders{{"Content-Type", "application/json; charset=utf-8"},
                                         {"Accept", "application/*"}},
                             "{}");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.contentType, "application/json");
}

TEST_F(PlatformHttpTest, TheRestComponentServesOneMethodOnPathAndTemplate) {
  start([](RouteBuilder& b) {
    b.from("rest:get:/say:/hello/{name}").transform(simple("Hello ${header.name}"));
    b.from("rest:post:bye").transform(constant("Bye"));
  });
  EXPECT_EQ(get("/say/hello/ann").body, "Hello ann");
  EXPECT_EQ(httpRequest(port, "POST", "/say/hello/ann", HttpHeaders{}).status, 405);
  EXPECT_EQ(httpRequest(port, "POST", "/bye", HttpHeaders{}).body, "Bye");
}

TEST_F(PlatformHttpTest, ARestUriWithoutMethodOrWithAnUnknownOneIsRefused) {
  for (auto [uri, text] : {std::pair{"rest:/x", "rest:/x: expected rest:method:path[:uriTemplate]"},
                           std::pair{"rest:fetch:/x", "rest:fetch:/x: the method names 'FETCH'"}}) {
    std::string error = startError([&](RouteBuilder& b) { b.from(uri).to("mock:x"); });
    EXPECT_NE(error.find(text), std::string::npos) << uri << ": " << error;
  }
}

TEST_F(PlatformHttpTest, ABodyOverTheLimitIs413) {
  h.context.properties().set("camel.server.maxBodySize", "16");
  start([](RouteBuilder& b) { b.from("platform-http:/small").setBody(constant("ok")); });
  EXPECT_EQ(httpRequest(port, "POST", "/small", HttpHeaders{}, std::string(100, 'x')).status, 413);
  EXPECT_EQ(httpRequest(port, "POST", "/small", HttpHeaders{}, "tiny").status, 200);
}

TEST_F(PlatformHttpTest, AStoppedRouteIs404UntilItStartsAgain) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/svc").routeId("svc").setBody(constant("up"));
  });
  EXPECT_EQ(get("/svc").status, 200);
  ASSERT_TRUE(h.context.stopRoute("svc"));
  EXPECT_EQ(get("/svc").status, 404);
  ASSERT_TRUE(h.context.startRoute("svc"));
  EXPECT_EQ(get("/svc").body, "up");
}

TEST_F(PlatformHttpTest, AKeptAliveConnectionServesRequestsOneAfterAnother) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/n/{i}").setBody(simple("n=${header.i}"));
  });
  namespace beast = boost::beast;
  namespace bhttp = beast::http;
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  beast::flat_buffer buffer;
  for (int i = 0; i < 5; ++i) {
    bhttp::request<bhttp::string_body> req(bhttp::verb::get, "/n/" + std::to_string(i), 11);
    req.set(bhttp::field::host, "127.0.0.1");
    bhttp::write(stream, req);
    bhttp::response<bhttp::string_body> res;
    bhttp::read(stream, buffer, res);
    EXPECT_EQ(res.body(), "n=" + std::to_string(i));
    EXPECT_TRUE(res.keep_alive());
  }
}

TEST(PlatformHttpShutdownTest, AKeptAliveConnectionIsClosedWhenTheContextGoes) {
  namespace beast = boost::beast;
  namespace bhttp = beast::http;
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  beast::flat_buffer buffer;
  {
    Context context;
    registerBuiltinComponents(context);
    context.properties().set("camel.server.host", "127.0.0.1");
    context.properties().set("camel.server.port", "0");
    ASSERT_TRUE(context.addRoutes(
        [](RouteBuilder& b) { b.from("platform-http:/ping").setBody(constant("pong")); }));
    ASSERT_TRUE(context.start());
    stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"),
                                                  platformHttpPort(context)));
    bhttp::request<bhttp::string_body> req(bhttp::verb::get, "/ping", 11);
    req.set(bhttp::field::host, "127.0.0.1");
    bhttp::write(stream, req);
    bhttp::response<bhttp::string_body> res;
    bhttp::read(stream, buffer, res);
    ASSERT_EQ(res.body(), "pong");
    ASSERT_TRUE(res.keep_alive());
  }
  // The server's end of the idle connection went with the context: the client reads the end
  // of the stream (a leaked session would leave it open, and this read would wait).
  bhttp::response<bhttp::string_body> res;
  beast::error_code ec;
  bool done = false;
  bhttp::async_read(stream, buffer, res, [&](beast::error_code e, size_t) {
    ec = e;
    done = true;
  });
  io.run_for(std::chrono::seconds(5));
  ASSERT_TRUE(done) << "the connection stayed open after the context went";
  EXPECT_EQ(ec, bhttp::error::end_of_stream) << ec.message();
}

TEST_F(PlatformHttpTest, ASlowRouteHoldsNoOtherRequestUp) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/slow")
        .process([](Exchange&) { std::this_thread::sleep_for(std::chrono::milliseconds(1500)); })
        .setBody(constant("slow"));
    b.from("platform-http:/fast").setBody(constant("fast"));
  });
  auto slow = std::async(std::launch::async, [&] { return get("/slow"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  HttpReply fast = get("/fast");
  EXPECT_EQ(fast.body, "fast");
  EXPECT_NE(slow.wait_for(std::chrono::milliseconds(0)), std::future_status::ready)
      << "the fast request waited for the slow one";
  EXPECT_EQ(slow.get().body, "slow");
}

TEST_F(PlatformHttpTest, ARouteThatCannotBlockIsAnsweredWhileEveryWorkerIsBusy) {
  // Built-in steps only: the route runs on the server's I/O thread, not on a worker.
  h.context.setWorkerThreads(1);
  start([](RouteBuilder& b) {
    b.from("platform-http:/quick/{n}").setBody(simple("quick ${header.n}"));
    b.from("platform-http:/user").process([](Exchange& ex) { ex.message().setBody("user"); });
  });
  BusyWorkers busy(h.context, 1);
  for (int i = 0; i < 3; ++i) {
    std::string n = std::to_string(i);
    EXPECT_EQ(get("/quick/" + n).body, "quick " + n);
  }
  // A route with a user processor (it may block) waits for the worker.
  auto user = std::async(std::launch::async, [&] { return get("/user"); });
  EXPECT_EQ(user.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout);
  busy.release();
  EXPECT_EQ(user.get().body, "user");
}

TEST_F(PlatformHttpTest, ADelayParksItsExchangeAndHoldsNoOtherRequestUp) {
  // delay() parks the exchange on a timer, so the route runs on the I/O thread, which goes on
  // serving while the exchange waits.
  start([](RouteBuilder& b) {
    b.from("platform-http:/wait")
        .delay(std::chrono::milliseconds(1000))
        .setBody(constant("waited"));
    b.from("platform-http:/now").setBody(constant("now"));
  });
  auto waited = std::async(std::launch::async, [&] { return get("/wait"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(get("/now").body, "now");
  EXPECT_NE(waited.wait_for(std::chrono::milliseconds(0)), std::future_status::ready);
  EXPECT_EQ(waited.get().body, "waited");
}

TEST_F(PlatformHttpTest, ConcurrentClientsEachGetTheirOwnAnswer) {
  start([](RouteBuilder& b) {
    b.from("platform-http:/square/{n}").setBody(simple("${header.n}"));
  });
  std::atomic<int> wrong{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 4; ++t) {
    clients.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        std::string n = std::to_string(t * 1000 + i);
        if (get("/square/" + n).body != n) ++wrong;
      }
    });
  }
  for (auto& c : clients) c.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(h.context.exchangesDone(), 200u);
}

}  // namespace
}  // namespace dromedary::testing
