// SPDX-License-Identifier: Apache-2.0
// http_get_client: a route calling a local HTTP server (a platform-http route answering "pong"
// in this process, over loopback) with the http: component, beside a bare libcurl client
// doing the same requests in the same run: the ratio is the component's own cost.
//   http_get_client_1 / http_get_bare_curl_1:   one request at a time, the caller waiting for
//                                               it (processAndWait, as a ProducerTemplate or
//                                               a consumer's thread): it sends it itself.
//   http_get_client_1_parked:                   one at a time through processAsync: nobody
//                                               waits, the exchange is parked and the pool's
//                                               thread sends it.
//   http_get_client_50 / http_get_bare_curl_50: one op = 50 requests in flight at once,
//                                               completed (divide ns/op by 50 per request).
//   http_todynamic_client_50: as http_get_client_50 with a toD whose URL differs per request
//                             (?n=1, 2 ...): one endpoint for all (SendDynamicAware).
//   gateway_inprocess_50: the bare client's 50 requests through a proxy route (platform-http
//                         -> http:) to the same backend: what the allocation count of a
//                         proxied request is (bench/gateway.sh measures it against nginx).
// The server's cost is in both arms alike. Allocations counted are C++ ones (operator new):
// curl's own mallocs are not in them.
#include <curl/curl.h>

#include <time.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <dromedary/dromedary.h>
#include <dromedary/http/platform_http.h>

#include "latency_histogram.h"
#include "scenario.h"

namespace dromedary::bench {
namespace {

// CPU time of the whole process (every thread: caller, curl's loop, the server) per op.
class ProcessCpu {
 public:
  void reset() {
    start_ = now();
    ops_ = 0;
  }
  void count() { ++ops_; }
  double nanosPerOp() const { return ops_ ? (now() - start_) / static_cast<double>(ops_) : 0; }

 private:
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
  }
  double start_ = 0;
  uint64_t ops_ = 0;
};

// Latency percentiles and process CPU of the measured ops, for both arms.
class MeasuredRun : public ScenarioRun {
 public:
  void resetFigures() override {
    latency_.reset();
    cpu_.reset();
  }
  void report(std::vector<std::pair<std::string, double>>& figures) override {
    figures.emplace_back("p50_ns", latency_.percentile(0.50));
    figures.emplace_back("p99_ns", latency_.percentile(0.99));
    figures.emplace_back("process_cpu_ns", cpu_.nanosPerOp());
  }

 protected:
  void measured(std::chrono::steady_clock::time_point begin) {
    latency_.recordSince(begin);
    cpu_.count();
  }

 private:
  LatencyHistogram latency_;
  ProcessCpu cpu_;
};

// The backend: a context serving GET /ping.
class Backend {
 public:
  Backend() {
    setLogLevel(LoggingLevel::Warn);
    registerBuiltinComponents(context_);
    context_.properties().set("camel.server.host", "127.0.0.1");
    context_.properties().set("camel.server.port", "0");
    auto added = context_.addRoutes(
        [](RouteBuilder& b) { b.from("platform-http:/ping").setBody(constant("pong")); });
    check(added.has_value(), "backend routes");
    check(context_.start().has_value(), "backend start");
    url_ = fmt::format("http://127.0.0.1:{}/ping", platformHttpPort(context_));
  }
  ~Backend() { context_.stop(); }
  const std::string& url() const { return url_; }

 private:
  Context context_{"backend"};
  std::string url_;
};

// A proxy route: platform-http in front of the backend, as bench/wrk/gateway.yaml.
class Gateway {
 public:
  explicit Gateway(const std::string& backend) {
    registerBuiltinComponents(context_);
    context_.properties().set("camel.server.host", "127.0.0.1");
    context_.properties().set("camel.server.port", "0");
    std::string target =
        backend.substr(0, backend.rfind('/')) + "?bridgeEndpoint=true&connectionsPerRoute=64";
    check(context_.addRoutes([&](RouteBuilder& b) {
                    b.from("platform-http:/?matchOnUriPrefix=true").to(target);
                  }).has_value(),
          "gateway routes");
    check(context_.start().has_value(), "gateway start");
    url_ = fmt::format("http://127.0.0.1:{}/ping", platformHttpPort(context_));
  }
  ~Gateway() { context_.stop(); }
  const std::string& url() const { return url_; }

 private:
  Context context_{"gateway"};
  std::string url_;
};

class ClientRoute : public MeasuredRun {
 public:
  /// `dynamic`: a toD whose URL differs per request (a query parameter counting up), which
  /// goes to one endpoint (Camel's SendDynamicAware), instead of a to.
  explicit ClientRoute(int inflight, bool dynamic = false, bool parked = true)
      : inflight_(inflight), dynamic_(dynamic), parked_(parked) {
    registerBuiltinComponents(context_);
    std::string target = backend_.url() + "?connectionsPerRoute=64";
    check(context_.addRoutes([&](RouteBuilder& b) {
                    if (dynamic_) {
                      b.from("direct:call").toD(target + "&n=${header.n}");
                    } else {
                      b.from("direct:call").to(target);
                    }
                  }).has_value(),
          "client routes");
    check(context_.start().has_value(), "client start");
    auto p = context_.producer("direct:call");
    check(p.has_value(), "producer");
    producer_ = *p;
    for (int i = 0; i < inflight_; ++i) exchanges_.push_back(acquireExchange(&context_));
    for (int i = 0; i < 200; ++i) once();
  }
  ~ClientRoute() override {
    exchanges_.clear();
    context_.stop();
  }

  void once() override {
    auto begin = std::chrono::steady_clock::now();
    if (!parked_) {  // one exchange, the caller waiting for it
      Exchange& ex = *exchanges_.front();
      ex.resetForReuse(&context_);
      ex.setPattern(Pattern::InOut);
      processAndWait(ex, *producer_);
      check(!ex.failed() && ex.message().body().isString() &&
                ex.message().body().getString() == "pong",
            "reply");
      measured(begin);
      return;
    }
    {
      std::lock_guard lock(mutex_);
      done_ = 0;
    }
    for (ExchangePtr& ex : exchanges_) {
      ex->resetForReuse(&context_);
      ex->setPattern(Pattern::InOut);
      if (dynamic_) ex->message().headers().slot(kCount).setInt(++count_);
      processAsync(*ex, *producer_, &completed, this, false);
    }
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return done_ == inflight_; });
    check(ok_, "reply");
    measured(begin);
  }

 private:
  static void completed(Exchange& ex, void* arg) noexcept {
    auto* self = static_cast<ClientRoute*>(arg);
    bool ok = !ex.failed() && ex.message().body().isString() &&
              ex.message().body().getString() == "pong";
    std::lock_guard lock(self->mutex_);
    self->ok_ = self->ok_ && ok;
    if (++self->done_ == self->inflight_) self->cv_.notify_one();
  }

  inline static const HeaderKey kCount{"n"};
  Backend backend_;
  Context context_{"client"};
  int inflight_;
  bool dynamic_;
  bool parked_;
  int64_t count_ = 0;
  Producer* producer_ = nullptr;
  std::vector<ExchangePtr> exchanges_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int done_ = 0;
  bool ok_ = true;
};

// The same requests with libcurl alone: reused easy handles on a multi handle driven by this
// thread (connections kept), the reply's body into a reused string.
class BareCurl : public MeasuredRun {
 public:
  /// `via_gateway`: the requests go to a proxy route in front of the backend instead.
  explicit BareCurl(int inflight, bool via_gateway = false) : bodies_(inflight) {
    std::string url = backend_.url();
    if (via_gateway) {
      gateway_ = std::make_unique<Gateway>(backend_.url());
      url = gateway_->url();
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    multi_ = curl_multi_init();
    curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, 64L);
    for (int i = 0; i < inflight; ++i) {
      CURL* e = curl_easy_init();
      curl_easy_setopt(e, CURLOPT_URL, url.c_str());
      curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &onBody);
      curl_easy_setopt(e, CURLOPT_WRITEDATA, &bodies_[static_cast<size_t>(i)]);
      curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
      easies_.push_back(e);
    }
    for (int i = 0; i < 200; ++i) once();
  }
  ~BareCurl() override {
    for (CURL* e : easies_) curl_easy_cleanup(e);
    curl_multi_cleanup(multi_);
  }

  void once() override {
    auto begin = std::chrono::steady_clock::now();
    for (size_t i = 0; i < easies_.size(); ++i) {
      bodies_[i].clear();
      curl_multi_add_handle(multi_, easies_[i]);
    }
    size_t left = easies_.size();
    while (left > 0) {
      int running = 0;
      curl_multi_perform(multi_, &running);
      int queued = 0;
      while (CURLMsg* msg = curl_multi_info_read(multi_, &queued)) {
        if (msg->msg != CURLMSG_DONE) continue;
        check(msg->data.result == CURLE_OK, "bare request");
        curl_multi_remove_handle(multi_, msg->easy_handle);
        --left;
      }
      if (left > 0) curl_multi_poll(multi_, nullptr, 0, 1000, nullptr);
    }
    for (const std::string& body : bodies_) check(body == "pong", "reply");
    measured(begin);
  }

 private:
  static size_t onBody(char* data, size_t size, size_t n, void* arg) {
    static_cast<std::string*>(arg)->append(data, size * n);
    return size * n;
  }

  Backend backend_;
  std::unique_ptr<Gateway> gateway_;
  CURLM* multi_;
  std::vector<CURL*> easies_;
  std::vector<std::string> bodies_;
};

// A run with its number of requests in flight fixed, for DROMEDARY_SCENARIO.
template <class Run, int Inflight, bool... Options>
struct Fixed final : Run {
  Fixed() : Run(Inflight, Options...) {}
};
using ClientRoute1 = Fixed<ClientRoute, 1, false, false>;
using ClientRoute1Parked = Fixed<ClientRoute, 1>;
using ClientRoute50 = Fixed<ClientRoute, 50>;
using ClientRouteDynamic50 = Fixed<ClientRoute, 50, true>;
using BareCurl1 = Fixed<BareCurl, 1>;
using BareCurl50 = Fixed<BareCurl, 50>;
using Gateway50 = Fixed<BareCurl, 50, true>;

DROMEDARY_SCENARIO("http_get_client_1", ClientRoute1);
DROMEDARY_SCENARIO("http_get_client_1_parked", ClientRoute1Parked);
DROMEDARY_SCENARIO("http_get_bare_curl_1", BareCurl1);
DROMEDARY_SCENARIO("http_get_client_50", ClientRoute50);
DROMEDARY_SCENARIO("http_todynamic_client_50", ClientRouteDynamic50);
DROMEDARY_SCENARIO("http_get_bare_curl_50", BareCurl50);
DROMEDARY_SCENARIO("gateway_inprocess_50", Gateway50);

}  // namespace
}  // namespace dromedary::bench
