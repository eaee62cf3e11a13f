// SPDX-License-Identifier: Apache-2.0
// platform-http:/path: routes serving HTTP, as Camel's platform-http component. The context's
// one HTTP server (HttpRouter on support::EmbeddedHttpServer) reads and writes on its I/O
// thread; each request becomes an InOut exchange that runs on a worker (nothing blocks the I/O
// thread; a route that cannot block runs right there), and its result is the response.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <atomic>
#include <functional>
#include <mutex>

#include <sys/stat.h>

#include <climits>
#include <cstdlib>

#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/engine/rest_definition.h>
#include <dromedary/http/platform_http.h>
#include <dromedary/spi/component.h>

#include "http_binding.h"
#include "http_router.h"

namespace dromedary {
namespace component::http {

namespace {

// The first two are also the rest: component's options.
constexpr OptionSpec kOptions[] = {
    {"consumes", OptionType::String, "",
     "Content types accepted (application/json, text/*); another gets 415"},
    {"produces", OptionType::String, "",
     "Content type of the response when the message sets none; a client whose Accept "
     "excludes it gets 406"},
    {"httpMethodRestrict", OptionType::String, "",
     "Comma-separated methods served (GET,POST ...); empty serves every method"},
    {"matchOnUriPrefix", OptionType::Bool, "false",
     "Serve every path that starts with this endpoint's path"},
    {"muteException", OptionType::Bool, "false",
     "A failed exchange's response (500) has no body, rather than the error's text"},
    {"headerFilterStrategy", OptionType::String, "",
     "#name of a bound HeaderFilterStrategy deciding which headers cross in and out; "
     "default: Camel's own (Camel*, org.apache.camel.*) never do"},
};
constexpr std::span<const OptionSpec> kRestOptions = std::span(kOptions).first(2);

// How an endpoint answers, decided when it is created (platform-http: or rest:).
struct ServeRules {
  std::string consumes;
  std::string produces;
  bool muteException = false;
  std::shared_ptr<const HeaderFilterStrategy> filter = httpHeaderFilterStrategy();
};

// Serves one endpoint's requests: on the I/O thread it builds the exchange, on a worker it
// runs the route (on the I/O thread itself when the route cannot block: no hand-off there and
// back), from the thread that completes the exchange it answers.
class RouteHandler final : public HttpHandler, public std::enable_shared_from_this<RouteHandler> {
 public:
  RouteHandler(Context& context, Processor& route, ServeRules rules)
      : context_(context), route_(route), rules_(std::move(rules)),
        inline_(!route.mayBlock()) {}

  void start() noexcept { stopping_.store(false); }
  void stop() noexcept { stopping_.store(true); }

  void handle(support::HttpServerCall& call, const PathParameters& params) noexcept override {
    const Request& request = call.request();
    unsigned version = request.version();
    if (stopping_.load()) return call.respond(textResponse(503, version, "the route is stopping"));
    std::string_view type = sv(request[boost::beast::http::field::content_type]);
    if (!rules_.consumes.empty() && (!type.empty() || !request.body().empty()) &&
        !mediaTypeMatches(type, rules_.consumes)) {
      return call.respond(textResponse(415, version,
                                       fmt::format("Content-Type '{}' is not one of {}", type,
                                                   rules_.consumes)));
    }
    std::string_view accept = sv(request[boost::beast::http::field::accept]);
    if (!rules_.produces.empty() && !accept.empty() &&
        !acceptsOneOf(accept, rules_.produces)) {
      return call.respond(textResponse(406, version,
                                       fmt::format("this endpoint produces {}, not {}",
                                                   rules_.produces, accept)));
    }
    Work* work = nullptr;
    try {
      work = takeWork();
      work->handler = shared_from_this();
      work->call = &call;
      work->exchange = context_.createExchange().release();
      work->exchange->setPattern(Pattern::InOut);
      requestToMessage(request, params, *rules_.filter, work->exchange->message());
      work->requestHeaders = work->exchange->message().headers();
    } catch (...) {
      if (work) {
        if (work->exchange) ExchangeRecycler{}(work->exchange);
        giveWork(work);
      }
      return call.respond(textResponse(500, version, "cannot read the request (out of memory)"));
    }
    if (inline_) {
      run(work);
    } else {
      context_.submit({&run, work});
    }
  }

 private:
  struct Work {
    std::shared_ptr<RouteHandler> handler;
    support::HttpServerCall* call = nullptr;
    Exchange* exchange = nullptr;
    Headers requestHeaders;  // as the request set them: those left unchanged are not echoed
  };

  // A request's Work comes from a few kept by the thread (its headers' entries and strings
  // keep their capacity), so that a request allocates none once warm. Taken on the I/O
  // thread, given back where the exchange completed: the same thread for a route that runs
  // there, and a worker's cache is bounded.
  static constexpr size_t kKeptWork = 64;
  static std::vector<std::unique_ptr<Work>>& keptWork() {
    static thread_local std::vector<std::unique_ptr<Work>> kept;
    return kept;
  }
  static Work* takeWork() {
    auto& kept = keptWork();
    if (kept.empty()) return new Work();
    Work* work = kept.back().release();
    kept.pop_back();
    return work;
  }
  static void giveWork(Work* work) noexcept {
    work->handler.reset();
    work->call = nullptr;
    work->exchange = nullptr;
    auto& kept = keptWork();
    if (kept.size() < kKeptWork) {
      try {
        kept.emplace_back(work);
        return;
      } catch (...) {
      }
    }
    delete work;
  }

  // On a worker, or on the I/O thread for a route that cannot block.
  static void run(void* arg) noexcept {
    auto* work = static_cast<Work*>(arg);
    if (work->handler->stopping_.load()) {
      work->call->respond(
          textResponse(503, work->call->request().version(), "the route is stopping"));
      ExchangeRecycler{}(work->exchange);
      giveWork(work);
      return;
    }
    // done() only posts the response to the I/O thread: it never waits.
    processAsync(*work->exchange, work->handler->route_, &done, work, /*done_may_block=*/false);
  }

  // Where the exchange completed: answer, and give the exchange back.
  static void done(Exchange& exchange, void* arg) {
    auto* work = static_cast<Work*>(arg);
    const ServeRules& s = work->handler->rules_;
    Response response;
    try {
      response = exchangeToResponse(exchange, work->call->request().version(),
                                    {s.produces, s.muteException, &work->requestHeaders,
                                     s.filter.get()});
    } catch (...) {
      response = textResponse(500, work->call->request().version(), "cannot write the response");
    }
    work->call->respond(std::move(response));
    ExchangeRecycler{}(&exchange);
    giveWork(work);
  }

  Context& context_;
  Processor& route_;
  ServeRules rules_;
  const bool inline_;  // the route cannot block (Processor::mayBlock): run it on the I/O thread
  std::atomic<bool> stopping_{false};
};

Result<StaticFiles> staticFilesOf(const PlatformHttpConfig& config);

class PlatformHttpComponent final : public Component {
 public:
  explicit PlatformHttpComponent(std::optional<PlatformHttpConfig> config)
      : config_(std::move(config)) {}

  std::string_view scheme() const override { return "platform-http"; }
  std::string_view syntax() const override { return "platform-http:path"; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }

  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override;

  // The context's server, created with the settings on first use.
  Result<HttpRouter*> server() {
    std::lock_guard lock(mutex_);
    if (server_) return server_.get();
    PlatformHttpConfig config = config_.value_or(PlatformHttpConfig{});
    if (!config_) DROMEDARY_TRY_VOID(readServerProperties(config));
    DROMEDARY_TRY(files, staticFilesOf(config));
    server_ = std::make_unique<HttpRouter>(std::move(config), std::move(files), context());
    return server_.get();
  }

  uint16_t port() {
    std::lock_guard lock(mutex_);
    return server_ ? server_->port() : 0;
  }

  support::HttpServerCounters counters() {
    std::lock_guard lock(mutex_);
    return server_ ? server_->counters() : support::HttpServerCounters{};
  }

 private:
  Result<void> readServerProperties(PlatformHttpConfig& config);

  std::optional<PlatformHttpConfig> config_;
  std::mutex mutex_;
  std::unique_ptr<HttpRouter> server_;
};

// The static files the settings ask for: the folder's real path, which must exist.
Result<StaticFiles> staticFilesOf(const PlatformHttpConfig& config) {
  StaticFiles files;
  if (!config.staticEnabled) return files;
  std::string dir = config.staticSourceDir.empty() ? "." : config.staticSourceDir;
  char real[PATH_MAX];
  struct stat st{};
  if (!::realpath(dir.c_str(), real) || ::stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("camel.server.staticSourceDir '{}' is not a folder that can "
                                 "be read",
                                 dir));
  }
  files.root = real;
  if (files.root == "/") {
    return makeError(ErrorCode::InvalidOption,
                     "camel.server.staticSourceDir is the root folder: serving every file of "
                     "the machine is refused");
  }
  files.contextPath = config.staticContextPath.empty() ? "/" : config.staticContextPath;
  if (!files.contextPath.starts_with('/')) files.contextPath.insert(0, "/");
  files.maxFileBytes = config.limits.maxBodyBytes;
  return files;
}

// The server's settings from Camel's camel.server.* properties and Dromedary's
// dromedary.server.* ones; the values may hold placeholders ({{env:PORT:8080}}).
Result<void> PlatformHttpComponent::readServerProperties(PlatformHttpConfig& config) {
  auto property = [&](const char* key) -> Result<std::optional<std::string>> {
    auto v = context().properties().get(key);
    if (!v) return std::optional<std::string>();
    auto resolved = context().resolvePlaceholders(*v);
    if (!resolved) return resolved.error();
    return std::optional<std::string>(std::move(*resolved));
  };
  DROMEDARY_TRY(host, property("camel.server.host"));
  if (host) config.host = *host;
  DROMEDARY_TRY(static_enabled, property("camel.server.staticEnabled"));
  if (static_enabled) {
    if (*static_enabled != "true" && *static_enabled != "false") {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("camel.server.staticEnabled={} must be true or false",
                                   *static_enabled));
    }
    config.staticEnabled = *static_enabled == "true";
  }
  DROMEDARY_TRY(static_dir, property("camel.server.staticSourceDir"));
  if (static_dir) config.staticSourceDir = *static_dir;
  DROMEDARY_TRY(static_path, property("camel.server.staticContextPath"));
  if (static_path) config.staticContextPath = *static_path;
  support::HttpServerLimits& limits = config.limits;
  struct Number {
    const char* key;
    int64_t min, max;
    std::function<void(int64_t)> set;
  };
  const Number numbers[] = {
      {"camel.server.port", 0, 65535, [&](int64_t n) { config.port = static_cast<uint16_t>(n); }},
      {"camel.server.maxBodySize", 0, int64_t{1} << 40,
       [&](int64_t n) { limits.maxBodyBytes = static_cast<size_t>(n); }},
      {"dromedary.server.maxHeaderSize", 1024, int64_t{support::kMaxHeaderBytes},
       [&](int64_t n) { limits.maxHeaderBytes = static_cast<size_t>(n); }},
      {"dromedary.server.maxConnections", 1, 1 << 20,
       [&](int64_t n) { limits.maxConnections = static_cast<size_t>(n); }},
      {"dromedary.server.maxInflightBodySize", 0, int64_t{1} << 40,
       [&](int64_t n) { limits.maxInflightBodyBytes = static_cast<size_t>(n); }},
      {"dromedary.server.ioThreads", 1, 256,
       [&](int64_t n) { config.ioThreads = static_cast<unsigned>(n); }},
  };
  for (const Number& number : numbers) {
    DROMEDARY_TRY(v, property(number.key));
    if (!v) continue;
    int64_t n = -1;
    auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
    if (ec != std::errc() || end != v->data() + v->size() || n < number.min || n > number.max) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("{}={} must be a number from {} to {}", number.key, *v,
                                   number.min, number.max));
    }
    number.set(n);
  }
  return {};
}

class HttpConsumer final : public Consumer {
 public:
  HttpConsumer(PlatformHttpComponent& component, std::shared_ptr<HttpBinding> binding,
               std::shared_ptr<RouteHandler> handler)
      : component_(component), binding_(std::move(binding)), handler_(std::move(handler)) {}
  ~HttpConsumer() override { stop(); }

  Result<void> start() override;
  void stop() noexcept override;

 private:
  PlatformHttpComponent& component_;
  std::shared_ptr<HttpBinding> binding_;
  std::shared_ptr<RouteHandler> handler_;
  bool started_ = false;
};

// What an endpoint serves, decided when it is created (platform-http: or rest:).
struct EndpointSettings {
  PathTemplate path;
  std::vector<std::string> methods;
  bool prefix = false;
  ServeRules rules;
};

class PlatformHttpEndpoint final : public Endpoint {
 public:
  PlatformHttpEndpoint(Component& owner, PlatformHttpComponent& http, const Uri& uri,
                       EndpointOptions options, EndpointSettings settings)
      : Endpoint(owner, uri, std::move(options)), http_(http), settings_(std::move(settings)) {}

  Result<std::unique_ptr<Producer>> createProducer() override {
    return makeError(ErrorCode::InvalidUri,
                     fmt::format("{} serves HTTP requests: it can only start a route (from), "
                                 "not be sent to",
                                 uri()));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override;

 private:
  PlatformHttpComponent& http_;
  EndpointSettings settings_;
};

// "GET, post" as upper-case methods; an unknown one is an error naming the URI.
Result<std::vector<std::string>> parseMethods(std::string_view list, const Uri& uri,
                                              std::string_view option) {
  std::vector<std::string> methods;
  size_t i = 0;
  while (i <= list.size() && !list.empty()) {
    size_t end = list.find(',', i);
    if (end == std::string_view::npos) end = list.size();
    std::string m;
    for (char c : list.substr(i, end - i)) {
      if (c != ' ') m += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    i = end + 1;
    if (m.empty()) continue;
    static constexpr std::string_view kMethods[] = {"GET",   "POST", "PUT",     "DELETE",
                                                    "PATCH", "HEAD", "OPTIONS", "TRACE"};
    if (std::find(std::begin(kMethods), std::end(kMethods), m) == std::end(kMethods)) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("{}: {} names '{}', not an HTTP method (GET, POST, PUT, "
                                   "DELETE, PATCH, HEAD, OPTIONS, TRACE)",
                                   uri.text(), option, m));
    }
    methods.push_back(std::move(m));
  }
  return methods;
}

Result<std::unique_ptr<Endpoint>> PlatformHttpComponent::createEndpoint(const Uri& uri,
                                                                        EndpointOptions options) {
  DROMEDARY_TRY_VOID(server());  // the server's settings are checked with the first URI
  EndpointSettings settings;
  DROMEDARY_TRY(path, PathTemplate::parse(uri.path()));
  settings.path = std::move(path);
  DROMEDARY_TRY(methods, parseMethods(options.getString("httpMethodRestrict"), uri,
                                      "httpMethodRestrict"));
  settings.methods = std::move(methods);
  settings.prefix = options.getBool("matchOnUriPrefix");
  DROMEDARY_TRY(filter, headerFilterStrategyOption(context(),
                                                    options.getString("headerFilterStrategy"),
                                                    uri.text(), httpHeaderFilterStrategy()));
  settings.rules = {options.getString("consumes"), options.getString("produces"),
                    options.getBool("muteException"), std::move(filter)};
  return std::unique_ptr<Endpoint>(std::make_unique<PlatformHttpEndpoint>(
      *this, *this, uri, std::move(options), std::move(settings)));
}

// rest:method:path[:uriTemplate]: Camel's rest component, a platform-http endpoint restricted
// to one method (from("rest:get:/users:/{id}") serves GET /users/{id}).
class RestComponent final : public Component {
 public:
  std::string_view scheme() const override { return "rest"; }
  std::string_view syntax() const override { return "rest:method:path:uriTemplate"; }
  std::span<const OptionSpec> endpointOptions() const override { return kRestOptions; }

  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    auto* http = dynamic_cast<PlatformHttpComponent*>(context().component("platform-http"));
    if (!http) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("{}: REST services need the platform-http component",
                                   uri.text()));
    }
    DROMEDARY_TRY_VOID(http->server());
    std::string_view rest = uri.path();
    size_t colon = rest.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("{}: expected rest:method:path[:uriTemplate], e.g. "
                                   "rest:get:/users:/{{id}}",
                                   uri.text()));
    }
    EndpointSettings settings;
    DROMEDARY_TRY(methods, parseMethods(rest.substr(0, colon), uri, "the method"));
    settings.methods = std::move(methods);
    rest.remove_prefix(colon + 1);
    size_t second = rest.find(':');
    std::string_view base = rest.substr(0, second);
    std::string_view tmpl = second == std::string_view::npos ? "" : rest.substr(second + 1);
    DROMEDARY_TRY(path, PathTemplate::parse(joinRestPath("", base, tmpl)));
    settings.path = std::move(path);
    settings.rules = {options.getString("consumes"), options.getString("produces"), false,
                      httpHeaderFilterStrategy()};
    return std::unique_ptr<Endpoint>(std::make_unique<PlatformHttpEndpoint>(
        *this, *http, uri, std::move(options), std::move(settings)));
  }
};

Result<std::unique_ptr<Consumer>> PlatformHttpEndpoint::createConsumer(Processor& processor) {
  auto handler = std::make_shared<RouteHandler>(context(), processor, settings_.rules);
  auto binding = std::make_shared<HttpBinding>();
  binding->path = settings_.path;
  binding->prefix = settings_.prefix;
  binding->methods = settings_.methods;
  binding->owner = uri();
  binding->handler = handler;
  return std::unique_ptr<Consumer>(
      std::make_unique<HttpConsumer>(http_, std::move(binding), std::move(handler)));
}

Result<void> HttpConsumer::start() {
  if (started_) return {};
  DROMEDARY_TRY(server, component_.server());
  handler_->start();
  DROMEDARY_TRY_VOID(server->add(binding_));
  started_ = true;
  return {};
}

void HttpConsumer::stop() noexcept {
  if (!started_) return;
  started_ = false;
  handler_->stop();
  if (auto server = component_.server()) (*server)->remove(binding_.get());
}

}  // namespace

}  // namespace component::http

void registerPlatformHttpComponent(Context& context, std::optional<PlatformHttpConfig> config) {
  context.addComponent(std::make_unique<component::http::PlatformHttpComponent>(std::move(config)));
  if (!context.component("rest")) {
    context.addComponent(std::make_unique<component::http::RestComponent>());
  }
}

// The generated registration of built-in components calls this one.
void registerHttpComponent(Context& context) { registerPlatformHttpComponent(context); }

uint16_t platformHttpPort(Context& context) {
  auto* c = dynamic_cast<component::http::PlatformHttpComponent*>(context.component("platform-http"));
  return c ? c->port() : 0;
}

support::HttpServerCounters platformHttpCounters(Context& context) {
  auto* c = dynamic_cast<component::http::PlatformHttpComponent*>(context.component("platform-http"));
  return c ? c->counters() : support::HttpServerCounters{};
}

}  // namespace dromedary
