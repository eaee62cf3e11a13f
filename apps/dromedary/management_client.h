// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `dromedary get`, `trace` and `top` share to ask a running instance's management API:
// its URL taken apart, one GET, and a table printed.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dromedary::cli {

struct Url {
  std::string host;
  std::string port;
};

/// `url` (http://HOST[:PORT][/...]) into `out`; false when it is not that.
bool parseUrl(const std::string& url, Url& out);

/// GETs `path`: true with the status and body, or false with why in `error`.
bool fetch(const Url& url, const std::string& path, int& status, std::string& body,
           std::string& error);

/// parseUrl, saying on stderr what is wrong with `url` (a usage error) when it fails.
bool parseUrlOrSay(const std::string& url, Url& out);

/// GETs `path` of the instance at `url` (as the user wrote it: `url_text`) as JSON: false, said
/// on stderr, when it cannot be reached, the answer is not JSON, or (unless `errors_ok`) its
/// status is an error.
bool getJson(const Url& url, const std::string& url_text, const std::string& path,
             bool errors_ok, nlohmann::json& doc);

/// Prints rows as columns sized to their widest cell.
void printTable(const std::vector<std::vector<std::string>>& rows);

}  // namespace dromedary::cli
