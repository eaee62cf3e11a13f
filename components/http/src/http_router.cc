// SPDX-License-Identifier: Apache-2.0
#include "http_router.h"

#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <optional>

namespace dromedary::component::http {

namespace bhttp = boost::beast::http;

bool HttpBinding::allows(std::string_view method) const noexcept {
  if (methods.empty()) return true;
  for (const std::string& m : methods) {
    if (m == method) return true;
  }
  return false;
}

HttpRouter::HttpRouter(PlatformHttpConfig config, StaticFiles static_files, Context& context)
    : config_(std::move(config)), static_(std::move(static_files)), context_(context) {}

namespace {
struct StaticRead {
  support::HttpServerCall* call;
  std::string path;
  const StaticFiles* files;
  unsigned version;
};

void readStatic(void* arg) noexcept {
  std::unique_ptr<StaticRead> job(static_cast<StaticRead*>(arg));
  support::HttpServerCall& call = *job->call;
  try {
    std::optional<std::string> file = job->files->resolve(job->path);
    if (!file) {
      return call.respond(
          textResponse(404, job->version, fmt::format("no route serves {}", job->path)));
    }
    std::ifstream in(*file, std::ios::binary | std::ios::ate);
    std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : -1;
    if (size < 0) {
      return call.respond(textResponse(404, job->version,
                                       fmt::format("no route serves {}", job->path)));
    }
    if (static_cast<uint64_t>(size) > job->files->maxFileBytes) {
      return call.respond(textResponse(
          500, job->version,
          fmt::format("{} is larger than camel.server.maxBodySize ({} bytes): not served",
                      job->path, job->files->maxFileBytes)));
    }
    Response response{bhttp::status::ok, job->version};
    std::string& body = response.body();
    body.resize(static_cast<size_t>(size));
    in.seekg(0);
    in.read(body.data(), size);
    response.set(bhttp::field::content_type, bsv(contentTypeOf(*file)));
    call.respond(std::move(response));
  } catch (...) {
    call.respond(textResponse(500, job->version, "the static file could not be read"));
  }
}
}  // namespace

void HttpRouter::serveStatic(support::HttpServerCall& call, std::string path) noexcept {
  try {
    auto job = std::make_unique<StaticRead>(
        StaticRead{&call, std::move(path), &static_, call.request().version()});
    context_.submit({&readStatic, job.release()});
  } catch (...) {
    call.respond(textResponse(500, call.request().version(), "out of memory"));
  }
}

// The server goes first: it stops calling handle() before the bindings go.
HttpRouter::~HttpRouter() { server_.reset(); }

std::shared_ptr<HttpBinding> HttpRouter::find(std::string_view method, std::string_view path,
                                              PathParameters& params, std::string& allow) {
  std::lock_guard lock(mutex_);
  const std::shared_ptr<HttpBinding>* best = nullptr;
  bool path_found = false;
  for (const auto& b : bindings_) {
    if (!b->path.match(path, b->prefix, nullptr)) continue;
    path_found = true;
    if (!b->allows(method)) continue;
    if (!best || b->path.parameterCount() < (*best)->path.parameterCount() ||
        (b->path.parameterCount() == (*best)->path.parameterCount() && (*best)->prefix &&
         !b->prefix)) {
      best = &b;
    }
  }
  if (best) {
    (*best)->path.match(path, (*best)->prefix, &params);
    return *best;
  }
  if (path_found) {
    for (const auto& b : bindings_) {
      if (!b->path.match(path, b->prefix, nullptr)) continue;
      if (b->methods.empty()) continue;
      for (const std::string& m : b->methods) {
        if (allow.find(m) != std::string::npos) continue;
        if (!allow.empty()) allow += ", ";
        allow += m;
      }
    }
  }
  return nullptr;
}

void HttpRouter::handle(support::HttpServerCall& call) noexcept {
  const Request& request = call.request();
  try {
    std::string_view target = sv(request.target());
    std::string_view path = target.substr(0, target.find('?'));
    std::string method(sv(request.method_string()));
    std::string allow;
    PathParameters params;
    auto binding = find(method, path, params, allow);
    if (!binding && request.method() == bhttp::verb::head) {
      allow.clear();
      binding = find("GET", path, params, allow);  // HEAD is GET without the body
    }
    if (binding) return binding->handler->handle(call, params);
    if (allow.empty() && static_.enabled() &&
        (request.method() == bhttp::verb::get || request.method() == bhttp::verb::head)) {
      return serveStatic(call, std::string(path));
    }
    if (allow.empty()) {
      return call.respond(
          textResponse(404, request.version(), fmt::format("no route serves {}", path)));
    }
    Response r = request.method() == bhttp::verb::options
                     ? Response{bhttp::status::no_content, request.version()}
                     : textResponse(405, request.version(),
                                    fmt::format("{} is not allowed on {}", method, path));
    r.set(bhttp::field::allow, allow);
    call.respond(std::move(r));
  } catch (...) {
    // Out of memory routing it: the binding was not called, so the call is still ours.
    call.respond(Response{bhttp::status::internal_server_error, request.version()});
  }
}

Result<void> HttpRouter::add(std::shared_ptr<HttpBinding> binding) {
  std::lock_guard lock(mutex_);
  for (const auto& b : bindings_) {
    if (!b->path.samePath(binding->path)) continue;
    // The first method both serve ("" when both serve every method).
    std::optional<std::string_view> shared;
    if (b->methods.empty() && binding->methods.empty()) shared = "";
    const auto& mine = binding->methods.empty() ? b->methods : binding->methods;
    const HttpBinding& other = binding->methods.empty() ? *binding : *b;
    for (const std::string& m : mine) {
      if (!shared && other.allows(m)) shared = m;
    }
    if (shared) {
      return makeError(ErrorCode::InvalidRoute,
                       fmt::format("{} {} is served already by {}, so {} cannot serve it",
                                   shared->empty() ? "every method of" : *shared,
                                   binding->path.text(), b->owner, binding->owner));
    }
  }
  if (!server_) {
    support::HttpServerOptions options{"platform-http", config_.host, config_.port,
                                       config_.limits};
    options.ioThreads = config_.ioThreads;
    auto server = std::make_unique<support::EmbeddedHttpServer>(std::move(options), *this);
    DROMEDARY_TRY_VOID(server->start());
    server_ = std::move(server);
  }
  bindings_.push_back(std::move(binding));
  return {};
}

void HttpRouter::remove(const HttpBinding* binding) noexcept {
  std::lock_guard lock(mutex_);
  std::erase_if(bindings_, [&](const auto& b) { return b.get() == binding; });
}

uint16_t HttpRouter::port() const noexcept {
  std::lock_guard lock(mutex_);
  return server_ ? server_->port() : 0;
}

support::HttpServerCounters HttpRouter::counters() const noexcept {
  std::lock_guard lock(mutex_);
  return server_ ? server_->counters() : support::HttpServerCounters{};
}

}  // namespace dromedary::component::http
