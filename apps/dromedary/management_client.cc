// SPDX-License-Identifier: Apache-2.0
#include "management_client.h"

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>

namespace dromedary::cli {

namespace beast = boost::beast;
namespace http = beast::http;

bool parseUrl(const std::string& url, Url& out) {
  std::string rest = url;
  if (rest.starts_with("http://")) rest = rest.substr(7);
  if (rest.empty() || url.starts_with("https://")) return false;
  rest = rest.substr(0, rest.find('/'));
  size_t colon = rest.rfind(':');
  out.host = rest.substr(0, colon);
  out.port = colon == std::string::npos ? "80" : rest.substr(colon + 1);
  return !out.host.empty() && !out.port.empty();
}

bool fetch(const Url& url, const std::string& path, int& status, std::string& body,
           std::string& error) {
  try {
    boost::asio::io_context io;
    boost::asio::ip::tcp::resolver resolver(io);
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(10));
    stream.connect(resolver.resolve(url.host, url.port));
    http::request<http::empty_body> req(http::verb::get, path, 11);
    req.set(http::field::host, url.host);
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    status = static_cast<int>(res.result_int());
    body = res.body();
    return true;
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
}

bool parseUrlOrSay(const std::string& url, Url& out) {
  if (parseUrl(url, out)) return true;
  std::fprintf(stderr, "dromedary: --url must be http://HOST:PORT, not '%s'\n", url.c_str());
  return false;
}

bool getJson(const Url& url, const std::string& url_text, const std::string& path,
             bool errors_ok, nlohmann::json& doc) {
  int status = 0;
  std::string body, error;
  if (!fetch(url, path, status, body, error)) {
    std::fprintf(stderr,
                 "dromedary: cannot reach %s: %s (is `dromedary run --management-port` "
                 "running there?)\n",
                 url_text.c_str(), error.c_str());
    return false;
  }
  doc = nlohmann::json::parse(body, nullptr, false);
  if (doc.is_discarded()) {
    std::fprintf(stderr, "dromedary: %s%s answered %d with something that is not JSON\n",
                 url_text.c_str(), path.c_str(), status);
    return false;
  }
  if (status >= 400 && !errors_ok) {
    std::fprintf(stderr, "dromedary: %s%s: %d %s\n", url_text.c_str(), path.c_str(), status,
                 doc.is_object() ? doc.value("error", std::string()).c_str() : "");
    return false;
  }
  return true;
}

void printTable(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
}

}  // namespace dromedary::cli
