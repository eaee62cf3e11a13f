// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `dromedary get`, `trace` and `top` share to ask a running instance's management API:
// its URL taken apart, one GET, and a table printed.

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

/// Prints rows as columns sized to their widest cell.
void printTable(const std::vector<std::vector<std::string>>& rows);

}  // namespace dromedary::cli
