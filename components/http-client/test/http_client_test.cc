// SPDX-License-Identifier: Apache-2.0
// The http: producer against a platform-http API over real sockets: methods, bodies and
// headers both ways, failures as Camel's HttpOperationFailedException (onException, doTry,
// ${exception.statusCode}), timeouts and refused connections, connection reuse, many
// requests in flight from one thread, and a proxy route.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <dromedary/http_client/http_client.h>
#include <dromedary/spi/component.h>

#include "http_client_fixture.h"

namespace dromedary::testing {
namespace {

using HttpClientTest = HttpClientFixture;

void serveEcho(RouteBuilder& b) {
  b.from("platform-http:/api/echo?matchOnUriPrefix=true")
      .setHeader("X-Reply", simple("r-${header.X-Trace}"))
      .setBody(simple("${header.CamelHttpMethod} ${header.CamelHttpPath} "
                      "q=${header.CamelHttpQuery} ct=${header.Content-Type} body=${body}"));
  b.from("platform-http:/api/missing")
      .setHeader("CamelHttpResponseCode", constant(int64_t{404}))
      .setBody(constant("no such order"));
  b.from("platform-http:/api/boom").process([](Exchange&) {
    throw std::runtime_error("backend exploded");
  });
}

TEST_F(HttpClientTest, GetPostPutAndDeleteCarryTheirBodiesAndHeaders) {
  serve(serveEcho);
  client.start([](RouteBuilder&) {});
  auto get = call(url("/api/echo"), Value(), {{"X-Trace", Value("t1")}});
  EXPECT_FALSE(get->failed()) << get->error().message();
  EXPECT_EQ(get->message().body().toString(), "GET /api/echo q= ct= body=");
  EXPECT_EQ(headerOf(*get, "X-Reply"), "r-t1");
  EXPECT_EQ(headerOf(*get, "CamelHttpResponseCode"), "200");
  EXPECT_EQ(headerOf(*get, "CamelHttpResponseText"), "OK");

  auto post = call(url("/api/echo"), Value("order-1"),
                   {{"Content-Type", Value("text/plain")}, {"X-Trace", Value("t2")}});
  EXPECT_EQ(post->message().body().toString(),
            "POST /api/echo q= ct=text/plain body=order-1");
  EXPECT_EQ(headerOf(*post, "X-Trace"), "t2");  // copyHeaders: the request's stay

  auto put = call(url("/api/echo/7"), Value("v2"), {{"CamelHttpMethod", Value("PUT")}});
  EXPECT_EQ(put->message().body().toString(), "PUT /api/echo/7 q= ct= body=v2");
  auto del = call(url("/api/echo/7?httpMethod=DELETE"));
  EXPECT_EQ(del->message().body().toString(), "DELETE /api/echo/7 q= ct= body=");
}

TEST_F(HttpClientTest, OptionsTheComponentDoesNotKnowAreTheServersQueryInTheirOrder) {
  serve(serveEcho);
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/api/echo?z=1&throwExceptionOnFailure=true&a=b%20c"));
  EXPECT_EQ(ex->message().body().toString(), "GET /api/echo q=z=1&a=b%20c ct= body=");
}

TEST_F(HttpClientTest, ARepeatedQueryParameterIsSentAsWritten) {
  serve(serveEcho);
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/api/echo?tag=b&x=1&tag=a"));
  EXPECT_EQ(ex->message().body().toString(), "GET /api/echo q=tag=b&x=1&tag=a ct= body=");
}

TEST_F(HttpClientTest, BasicAndBearerCredentialsAreSent) {
  serve([](RouteBuilder& b) {
    b.from("platform-http:/auth").setBody(simple("${header.Authorization}"));
  });
  client.start([](RouteBuilder&) {});
  auto basic = call(url("/auth?authUsername=ann&authPassword=secret"));
  EXPECT_EQ(basic->message().body().toString(), "Basic YW5uOnNlY3JldA==");  // ann:secret
  auto bearer = call(url("/auth?authBearerToken=t0k"));
  EXPECT_EQ(bearer->message().body().toString(), "Bearer t0k");
}

TEST_F(HttpClientTest, AMapBodyIsSentAsJson) {
  serve(serveEcho);
  client.start([](RouteBuilder&) {});
  ValueMap order;
  order.emplace_back("id", Value(int64_t{7}));
  auto ex = call(url("/api/echo"), Value(std::move(order)));
  EXPECT_EQ(ex->message().body().toString(),
            "POST /api/echo q= ct=application/json body={\"id\":7}");
}

TEST_F(HttpClientTest, A404IsAnHttpOperationFailedExceptionThatOnExceptionMatchesAndReads) {
  serve(serveEcho);
  std::string target = url("/api/missing");
  client.start([&](RouteBuilder& b) {
    b.from("direct:get")
        .onException({"org.apache.camel.http.base.HttpOperationFailedException"})
          .onWhen(simple("${exception.statusCode} == 404"))
          .handled(true)
          .setBody(simple("missing: ${exception.statusCode} ${exception.statusText} "
                          "${exception.responseBody} from ${exception.uri}"))
        .end()
        .to(target);
  });
  auto ex = call("direct:get");
  EXPECT_FALSE(ex->failed()) << ex->error().message();
  EXPECT_EQ(ex->message().body().toString(),
            "missing: 404 Not Found no such order from " + target);
}

TEST_F(HttpClientTest, A500IsCaughtByDoTryAndItsMessageNamesTheUrlAndStatus) {
  serve(serveEcho);
  std::string target = url("/api/boom");
  client.start([&](RouteBuilder& b) {
    b.from("direct:call")
        .doTry()
          .to(target)
        .doCatch({"HttpOperationFailedException"})
          .setBody(simple("caught ${exception.statusCode}: ${exception.message}"))
        .end();
  });
  auto ex = call("direct:call");
  EXPECT_FALSE(ex->failed());
  EXPECT_EQ(ex->message().body().toString(),
            "caught 500: HTTP operation failed invoking " + target + " with statusCode: 500");
  // Unhandled, the exception is the exchange's, with the reply in it.
  auto raw = call(target);
  ASSERT_TRUE(raw->failed());
  try {
    std::rethrow_exception(raw->error().exception);
  } catch (const HttpOperationFailedException& e) {
    EXPECT_EQ(e.statusCode(), 500);
    EXPECT_NE(e.responseBody().find("backend exploded"), std::string::npos);
  }
}

TEST_F(HttpClientTest, WithoutThrowExceptionOnFailureEveryReplyIsTheMessage) {
  serve(serveEcho);
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/api/missing?throwExceptionOnFailure=false"));
  EXPECT_FALSE(ex->failed());
  EXPECT_EQ(headerOf(*ex, "CamelHttpResponseCode"), "404");
  EXPECT_EQ(ex->message().body().toString(), "no such order");
  auto ok404 = call(url("/api/missing?okStatusCodeRange=200-299,404"));
  EXPECT_FALSE(ok404->failed());
}

TEST_F(HttpClientTest, AServerThatNeverAnswersFailsTheExchangeNamingTheUrlAndTheTimeout) {
  LoopbackListener silent;
  std::string target = fmt::format("http://127.0.0.1:{}/never?responseTimeout=300", silent.port);
  client.start([&](RouteBuilder& b) {
    b.from("direct:call")
        .onException({"java.net.SocketTimeoutException"})
          .handled(true)
          .setBody(simple("timed out: ${exception.message}"))
        .end()
        .to(target);
  });
  auto ex = call("direct:call");
  std::string body = ex->message().body().toString();
  EXPECT_NE(body.find("timed out: Read timed out: http://127.0.0.1:"), std::string::npos) << body;
  EXPECT_NE(body.find("responseTimeout of 300 ms"), std::string::npos) << body;
}

TEST_F(HttpClientTest, ARefusedConnectionIsAConnectExceptionAndAnIOException) {
  std::string target = fmt::format("http://127.0.0.1:{}/x", refusedPort());
  client.start([&](RouteBuilder& b) {
    b.from("direct:call")
        .onException({"java.io.IOException"})
          .handled(true)
          .setBody(constant("io"))
        .end()
        .to(target);
    b.from("direct:precise")
        .onException({"java.io.IOException"}).handled(true).setBody(constant("io")).end()
        .onException({"java.net.ConnectException"}).handled(true).setBody(constant("connect")).end()
        .to(target);
  });
  EXPECT_EQ(call("direct:call")->message().body().toString(), "io");
  EXPECT_EQ(call("direct:precise")->message().body().toString(), "connect");
}

TEST_F(HttpClientTest, TenThousandRequestsReuseOneConnection) {
  serve([](RouteBuilder& b) { b.from("platform-http:/ping").setBody(constant("pong")); });
  std::string target = url("/ping");
  client.start([&](RouteBuilder& b) { b.from("direct:ping").to(target); });
  for (int i = 0; i < 10000; ++i) {
    auto reply = client.producer.requestBody("direct:ping", Value());
    ASSERT_TRUE(reply) << reply.error().message;
    ASSERT_EQ(reply->toString(), "pong");
  }
  EXPECT_EQ(platformHttpCounters(server.context).connectionsAccepted, 1u);
}

TEST_F(HttpClientTest, ToDToManyUrlsOfOneHostReusesItsConnection) {
  serve(serveEcho);
  std::string base = url("/api/echo/");
  client.start([&](RouteBuilder& b) { b.from("direct:dyn").toD(base + "${header.n}"); });
  for (int i = 0; i < 50; ++i) {
    ExchangePtr ex = call("direct:dyn", Value(), {{"n", Value(int64_t{i})}});
    ASSERT_EQ(ex->message().body().toString(),
              fmt::format("GET /api/echo/{} q= ct= body=", i));
  }
  EXPECT_EQ(platformHttpCounters(server.context).connectionsAccepted, 1u);
}

// Camel's SendDynamicAware: a thousand URLs of one host are one endpoint and one producer
// (the context keeps every endpoint it makes), the path and query travel in CamelHttpPath /
// CamelHttpQuery for the send only, and a request's own CamelHttpPath neither redirects the
// send nor survives it.
TEST_F(HttpClientTest, ToDToManyUrlsOfOneHostMakesOneEndpoint) {
  serve(serveEcho);
  std::string base = url("/api/echo/");
  client.start([&](RouteBuilder& b) {
    b.from("direct:dyn").toD(base + "${header.n}?id=${header.n}&httpMethod=PUT");
    b.from("direct:whole").toD(base + "${header.n}").allowOptimisedComponents(false);
  });
  auto httpEndpoints = [&] {
    auto uris = client.context.endpointUris();
    return std::count_if(uris.begin(), uris.end(),
                         [](const std::string& u) { return u.starts_with("http"); });
  };
  for (int i = 0; i < 1000; ++i) {
    ExchangePtr ex = call("direct:dyn", Value(),
                          {{"n", Value(int64_t{i})},
                           {"CamelHttpPath", Value("/elsewhere")},
                           {"CamelHttpRawQuery", Value("stale=1")}});
    ASSERT_EQ(ex->message().body().toString(),
              fmt::format("PUT /api/echo/{0} q=id={0} ct= body=", i));
    ASSERT_EQ(headerOf(*ex, "CamelHttpPath"), "<none>");
    ASSERT_EQ(headerOf(*ex, "CamelHttpQuery"), "<none>");
    ASSERT_EQ(headerOf(*ex, "CamelHttpRawQuery"), "<none>");
  }
  EXPECT_EQ(httpEndpoints(), 1);
  for (int i = 0; i < 3; ++i) {
    ExchangePtr ex = call("direct:whole", Value(), {{"n", Value(int64_t{i})}});
    ASSERT_EQ(ex->message().body().toString(), fmt::format("GET /api/echo/{} q= ct= body=", i));
  }
  EXPECT_EQ(httpEndpoints(), 4);  // allowOptimisedComponents false: one per URL, as before
}

TEST_F(HttpClientTest, AHundredRequestsAreInFlightAtOnceFromOneThread) {
  std::atomic<int> inflight{0}, peak{0};
  serve([&](RouteBuilder& b) {
    b.from("platform-http:/slow")
        .process([&](Exchange&) {
          int now = ++inflight;
          int seen = peak.load();
          while (now > seen && !peak.compare_exchange_weak(seen, now)) {
          }
        })
        .delay(std::chrono::milliseconds(3000))  // long enough for all 100 to arrive on a busy machine
        .process([&](Exchange&) { --inflight; })
        .setBody(constant("done"));
  });
  client.context.setWorkerThreads(1);
  client.start([](RouteBuilder&) {});
  auto producer = client.context.producer(url("/slow?connectionsPerRoute=100"));
  ASSERT_TRUE(producer) << producer.error().message;
  std::mutex mutex;
  std::condition_variable cv;
  int completed = 0, ok = 0;
  struct Done {
    std::mutex* mutex;
    std::condition_variable* cv;
    int* completed;
    int* ok;
  } done{&mutex, &cv, &completed, &ok};
  std::vector<ExchangePtr> exchanges;
  for (int i = 0; i < 100; ++i) {
    exchanges.push_back(acquireExchange(&client.context));
    exchanges.back()->setPattern(Pattern::InOut);
    // Sent from this one thread: each send returns as soon as the request is handed over.
    processAsync(*exchanges.back(), **producer,
                 [](Exchange& ex, void* arg) {
                   auto* d = static_cast<Done*>(arg);
                   std::lock_guard lock(*d->mutex);
                   ++*d->completed;
                   if (!ex.failed() && ex.message().body().toString() == "done") ++*d->ok;
                   d->cv->notify_all();
                 },
                 &done, false);
  }
  std::unique_lock lock(mutex);
  ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return completed == 100; }));
  EXPECT_EQ(ok, 100);
  EXPECT_EQ(peak.load(), 100);
}

TEST_F(HttpClientTest, AProxyRouteForwardsMethodPathQueryAndBody) {
  serve(serveEcho);
  Context& proxy_context = client.context;
  proxy_context.properties().set("camel.server.host", "127.0.0.1");
  proxy_context.properties().set("camel.server.port", "0");
  std::string backend = fmt::format("http://127.0.0.1:{}?bridgeEndpoint=true", port);
  client.start([&](RouteBuilder& b) {
    b.from("platform-http:/api?matchOnUriPrefix=true").to(backend);
  });
  uint16_t proxy_port = platformHttpPort(proxy_context);
  auto reply = server.producer.requestBodyAndHeader(
      fmt::format("http://127.0.0.1:{}/api/echo/9?x=1", proxy_port), Value("hello"),
      "CamelHttpMethod", Value("PUT"));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->toString(), "PUT /api/echo/9 q=x=1 ct= body=hello");
}

TEST_F(HttpClientTest, AHeaderThatWouldSplitTheRequestFailsTheExchange) {
  serve(serveEcho);
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/api/echo"), Value(), {{"X-Evil", Value("a\r\nX-Injected: 1")}});
  ASSERT_TRUE(ex->failed());
  EXPECT_NE(ex->error().message().find("'X-Evil' cannot be sent"), std::string::npos)
      << ex->error().message();
}

TEST_F(HttpClientTest, BadOptionsFailWhenTheRouteStartsNamingTheOptionAndEndpoint) {
  for (auto [uri, expected] : std::vector<std::pair<std::string, std::string>>{
           {"http://h/x?okStatusCodeRange=abc", "okStatusCodeRange 'abc'"},
           {"http://h/x?cookieStore=%23mine", "option 'cookieStore'"},
           {"http://h/x?connectTimeout=soon", "connectTimeout"},
           {"https://h/x?sslTrustCertificates=/no/such/ca.pem", "cannot be read"},
           {"http://h/x?x509HostnameVerifier=strict", "x509HostnameVerifier 'strict'"},
           {"http://h/x?authMethod=Bearer", "needs authBearerToken"},
           {"http:/x", "names no host"},
       }) {
    Context context;
    registerBuiltinComponents(context);
    auto added = context.addRoutes([&](RouteBuilder& b) { b.from("direct:a").to(uri); });
    auto started = added ? context.start() : Result<void>(added.error());
    ASSERT_FALSE(started) << uri;
    EXPECT_NE(started.error().message.find(expected), std::string::npos)
        << uri << ": " << started.error().message;
    context.stop();
  }
}

TEST_F(HttpClientTest, NobodyConsumesFromAnHttpEndpoint) {
  Context context;
  registerBuiltinComponents(context);
  auto added = context.addRoutes([](RouteBuilder& b) { b.from("http://h/x").to("log:x"); });
  auto started = added ? context.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("only sends requests"), std::string::npos)
      << started.error().message;
}

}  // namespace
}  // namespace dromedary::testing

namespace dromedary::testing {
namespace {

// A server that gives a session cookie to a request without one and says which it got.
void serveSession(RouteBuilder& b) {
  b.from("platform-http:/session?matchOnUriPrefix=true")
      .choice()
      .when(simple("${header.Cookie} == null"))
      .setHeader("Set-Cookie", constant("session=abc; Path=/"))
      .setBody(constant("new"))
      .otherwise()
      .setBody(simple("${header.Cookie}"))
      .end();
}

TEST_F(HttpClientTest, AnEndpointKeepsTheCookiesItsRepliesSetAsCamelsCookieStore) {
  serve(serveSession);
  client.start([](RouteBuilder&) {});
  std::string uri = url("/session");
  EXPECT_EQ(call(uri)->message().body().toString(), "new");
  EXPECT_EQ(call(uri)->message().body().toString(), "session=abc");
  EXPECT_EQ(call(uri)->message().body().toString(), "session=abc");
  // Another endpoint has a store of its own.
  EXPECT_EQ(call(url("/session/other"))->message().body().toString(), "new");
}

TEST_F(HttpClientTest, ABridgeEndpointKeepsNoCookies) {
  serve(serveSession);
  client.start([](RouteBuilder&) {});
  std::string uri = url("/session?bridgeEndpoint=true");
  EXPECT_EQ(call(uri)->message().body().toString(), "new");
  EXPECT_EQ(call(uri)->message().body().toString(), "new");
}

}  // namespace
}  // namespace dromedary::testing
