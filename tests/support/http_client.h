// SPDX-License-Identifier: Apache-2.0
#pragma once

// A blocking HTTP/1.1 client over a real socket (Boost.Beast), for the management tests.

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dromedary::testing {

struct HttpReply {
  int status = 0;
  std::string contentType;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  ///< as received, in order

  /// The first header named `name` (case-insensitive), or "".
  std::string header(std::string_view name) const {
    for (const auto& [n, v] : headers) {
      if (boost::beast::iequals(n, boost::beast::string_view(name.data(), name.size()))) return v;
    }
    return {};
  }
};

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

/// One request on its own connection; `extra` headers are sent as given.
inline HttpReply httpRequest(uint16_t port, const std::string& method, const std::string& target,
                             const HttpHeaders& extra, const std::string& body = {}) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  boost::asio::io_context io;
  boost::asio::ip::tcp::resolver resolver(io);
  beast::tcp_stream stream(io);
  stream.connect(resolver.resolve("127.0.0.1", std::to_string(port)));
  http::request<http::string_body> req(http::string_to_verb(method), target, 11);
  req.set(http::field::host, "127.0.0.1");
  for (const auto& [name, value] : extra) req.insert(name, value);
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.skip(req.method() == http::verb::head);  // a HEAD response has headers only
  beast::error_code ec;
  http::read(stream, buffer, parser, ec);
  const auto& res = parser.get();
  HttpReply reply;
  if (ec) return reply;
  reply.status = static_cast<int>(res.result_int());
  reply.contentType = std::string(res[http::field::content_type]);
  reply.body = res.body();
  for (const auto& field : res) {
    reply.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  return reply;
}

inline HttpReply httpRequest(uint16_t port, const std::string& method, const std::string& target,
                             const std::string& authorization = {},
                             const std::string& body = {}) {
  HttpHeaders extra;
  if (!authorization.empty()) extra.emplace_back("Authorization", authorization);
  return httpRequest(port, method, target, extra, body);
}

}  // namespace dromedary::testing
