// SPDX-License-Identifier: Apache-2.0
// Raw bytes as one client's whole connection to the embedded HTTP server (the one platform-http
// and the management server share), on loopback, with small limits so that short inputs reach
// every bound: the request line and headers, trailers, bodies, the shared body budget. Whatever
// the bytes, the server must answer with an HTTP/1.x response or close, within a deadline,
// without an exception on its I/O thread, and take the next connection.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <dromedary/support/http_server.h>

#include "support/raw_http.h"

namespace {

using namespace dromedary;

class EchoSize final : public support::HttpRequestHandler {
 public:
  void handle(support::HttpServerCall& call) noexcept override {
    const support::HttpRequest& request = call.request();
    call.respond(support::textResponse(200, request.version(),
                                       std::to_string(request.body().size())));
  }
};

support::EmbeddedHttpServer& server() {
  static EchoSize handler;
  static support::EmbeddedHttpServer* instance = [] {
    support::HttpServerOptions options;
    options.name = "fuzz";
    options.limits.maxHeaderBytes = 1024;
    options.limits.maxBodyBytes = 4096;
    options.limits.maxInflightBodyBytes = 6000;
    auto* s = new support::EmbeddedHttpServer(options, handler);
    if (!s->start()) std::abort();
    return s;
  }();
  return *instance;
}

[[noreturn]] void fail(const char* why, const std::string& received) {
  std::fprintf(stderr, "http_request_fuzzer: %s; received %zu bytes: %.200s\n", why,
               received.size(), received.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  support::EmbeddedHttpServer& s = server();
  // 127.0.1.0 upwards, a new source address per input (see RawConnection).
  static uint32_t next_source = 0;
  const uint32_t source = 0x7F000100u + (next_source++ % 0xFE0000u);
  testing::RawConnection connection(s.port(), source);
  if (!connection.connected()) fail("the server takes no connection", std::strerror(errno));
  connection.send(std::string_view(reinterpret_cast<const char*>(data), size));
  connection.shutdownSend();
  const testing::RawReply& reply = connection.readUntilClosed(std::chrono::seconds(4));
  if (!reply.closed) fail("the connection was not closed after the client's end", reply.text);
  if (!reply.text.empty() && !reply.text.starts_with("HTTP/1.")) {
    fail("what came back is no HTTP/1.x response", reply.text);
  }
  if (s.counters().ioThreadErrors != 0) fail("an exception reached the I/O thread", reply.text);
  return 0;
}
