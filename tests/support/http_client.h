// SPDX-License-Identifier: Apache-2.0
#pragma once

// A blocking HTTP/1.1 client over a real socket (Boost.Beast), for the management tests.

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <string>

namespace dromedary::testing {

struct HttpReply {
  int status = 0;
  std::string contentType;
  std::string body;
};

inline HttpReply httpRequest(uint16_t port, const std::string& method, const std::string& target,
                             const std::string& authorization = {},
                             const std::string& body = {}) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  boost::asio::io_context io;
  boost::asio::ip::tcp::resolver resolver(io);
  beast::tcp_stream stream(io);
  stream.connect(resolver.resolve("127.0.0.1", std::to_string(port)));
  http::request<http::string_body> req(http::string_to_verb(method), target, 11);
  req.set(http::field::host, "127.0.0.1");
  if (!authorization.empty()) req.set(http::field::authorization, authorization);
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  beast::error_code ec;
  http::read(stream, buffer, res, ec);
  HttpReply reply;
  if (ec) return reply;
  reply.status = static_cast<int>(res.result_int());
  reply.contentType = std::string(res[http::field::content_type]);
  reply.body = res.body();
  return reply;
}

}  // namespace dromedary::testing
